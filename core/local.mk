# core/local.mk: the redbench program. The core is a convenience library so
# that unit tests link the same code.
noinst_LTLIBRARIES += core/librbcore.la
core_librbcore_la_SOURCES = \
	core/util.c core/util.h \
	core/safe_file.c core/safe_file.h \
	core/parallel.c core/parallel.h core/random.h \
	core/diag.c core/diag.h \
	core/names.c core/names.h \
	core/units.c core/units.h \
	core/host.c core/host.h \
	core/experiment.c core/experiment.h \
	core/registry.c core/registry.h \
	core/sweep.c core/sweep.h \
	core/input.c core/input.h \
	core/probe.c core/probe.h \
	core/reference.c core/reference.h \
	core/stats.c core/stats.h \
	core/backend_cpu.c core/backend_cpu.h \
	core/results.c core/results.h \
	core/runner.c core/runner.h \
	core/isolate.c core/isolate.h \
	core/metadata.c core/metadata.h \
	core/provenance.c core/provenance.h \
	core/compare.c core/compare.h core/compare_report.c \
	core/compare_stats.c core/compare_stats.h \
	core/report.c core/report.h \
	core/report_table.c core/report_csv.c core/report_json.c core/report_md.c \
	core/json_writer.c core/json_writer.h \
	core/options.c core/options.h \
	core/cmd_info.c core/cmd_run.c core/commands.h core/tune.c
nodist_core_librbcore_la_SOURCES = core/git_revision.h
core_librbcore_la_CFLAGS = $(AM_CFLAGS) $(INIH_CFLAGS)
core_librbcore_la_LIBADD = $(INIH_LIBS) $(PTHREAD_LIBS)

bin_PROGRAMS += redbench
redbench_SOURCES = core/main.c
redbench_LDADD = core/librbcore.la

# core/git_revision.h: the git revision the program is built from, looked up
# at every build and rewritten only when it changes ("unknown" from a tarball).
BUILT_SOURCES = core/git_revision.h
CLEANFILES += core/git_revision.h
EXTRA_DIST += core/git-revision.sh
core/git_revision.h: rb-git-revision-check
	@$(MKDIR_P) core && \
	rev=`$(SHELL) $(top_srcdir)/core/git-revision.sh $(top_srcdir)` && \
	echo "#define RB_GIT_REVISION \"$$rev\"" >$@.tmp && \
	if cmp -s $@.tmp $@; then rm -f $@.tmp; \
	else echo "  GEN      $@ ($$rev)"; mv -f $@.tmp $@; fi
rb-git-revision-check:

# The plots and the HTML report.
include core/plot.mk
# Measured peaks kept across runs; the rules of measuring one configuration.
core_librbcore_la_SOURCES += core/peak_cache.c core/peak_cache.h
core_librbcore_la_SOURCES += core/measure.c core/measure.h
