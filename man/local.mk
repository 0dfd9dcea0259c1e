# man/local.mk: the manual page, redbench(1): command line, experiment file
# format, exit statuses and environment. Installed into $(mandir)/man1 and
# shipped in the dist tarball.
dist_man1_MANS = man/redbench.1
