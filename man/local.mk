# man/local.mk: the manual page, redbench(1): command line, experiment file
# format, exit statuses and environment. man/redbench.1 is made from
# man/redbench.1.in, its OPTION SUMMARY section written by
# src/cli/write-completion --man from the table of commands and options
# (src/cli/option_table.c) and its lists of the [experiment], [data] and
# [run NAME] keys by --man-settings, --man-data and --man-run from the
# table of keys (src/config/keys.c, the settings' rows from
# src/config/settings.c), and installed into $(mandir)/man1.
man1_MANS = man/redbench.1
EXTRA_DIST += man/redbench.1.in
# (and what an interrupted make left: the rule's files are named after its
# process, so that two makes in one tree never share one)
CLEANFILES += man/redbench.1 man/redbench.1.*.tmp man/redbench.1.*.options \
	man/redbench.1.*.settings man/redbench.1.*.data man/redbench.1.*.run

man/redbench.1: man/redbench.1.in src/cli/write-completion$(EXEEXT)
	$(AM_V_GEN)$(MKDIR_P) man && \
	src/cli/write-completion$(EXEEXT) --man >$@.$$$$.options && \
	src/cli/write-completion$(EXEEXT) --man-settings >$@.$$$$.settings && \
	src/cli/write-completion$(EXEEXT) --man-data >$@.$$$$.data && \
	src/cli/write-completion$(EXEEXT) --man-run >$@.$$$$.run && \
	$(SED) -e '/^@OPTION_SUMMARY@$$/{r '"$@.$$$$.options" -e 'd' -e '}' \
	  -e '/^@EXPERIMENT_KEYS@$$/{r '"$@.$$$$.settings" -e 'd' -e '}' \
	  -e '/^@DATA_KEYS@$$/{r '"$@.$$$$.data" -e 'd' -e '}' \
	  -e '/^@RUN_KEYS@$$/{r '"$@.$$$$.run" -e 'd' -e '}' \
	  $(srcdir)/man/redbench.1.in >$@.$$$$.tmp && \
	rm -f $@.$$$$.options $@.$$$$.settings $@.$$$$.data $@.$$$$.run && mv -f $@.$$$$.tmp $@
