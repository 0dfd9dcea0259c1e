# conf/local.mk: experiment files (installed as examples).
rbconfdir = $(pkgdatadir)
dist_rbconf_DATA = conf/default.ini
