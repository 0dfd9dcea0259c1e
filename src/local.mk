# src/local.mk: the redbench program, folder by folder (docs/architecture.md
# says what each owns and the order in which they include each other). All
# but main.c is a static library (plain ar, no libtool: nothing loads it as a
# module), so that unit tests link the same code; what it needs to link is
# REDBENCH_LIBS, for every program that links it.
noinst_LIBRARIES = src/libredbench.a
src_libredbench_a_SOURCES = \
	src/base/util.c src/base/util.h \
	src/base/descriptors.c src/base/descriptors.h \
	src/base/diag.c src/base/diag.h \
	src/base/names.c src/base/names.h \
	src/base/units.c src/base/units.h \
	src/base/stats.c src/base/stats.h \
	src/base/parallel.c src/base/parallel.h src/base/hash.h src/base/random.h \
	src/base/safe_file.c src/base/safe_file.h \
	src/base/text_index.c src/base/text_index.h \
	src/base/json_writer.c src/base/json_writer.h \
	src/base/json_reader.c src/base/json_reader.h \
	src/base/provenance.c src/base/provenance.h \
	src/base/ini_text.c src/base/ini_text.h \
	src/base/ini_writer.c src/base/ini_writer.h \
	\
	src/host/services.c src/host/services.h \
	src/host/registry.c src/host/registry.h src/host/registry_internal.h src/host/discovery.c \
	src/host/descriptor_check.c src/host/descriptor_check.h src/host/descriptor_limits.h \
	src/host/descriptor_wire.c src/host/descriptor_wire.h src/host/loader.c src/host/loader.h \
	src/host/pack_manifest.c src/host/pack_manifest.h \
	src/host/backend_cpu.c src/host/backend_cpu.h \
	src/host/peak_cache.c src/host/peak_cache.h \
	src/host/nvml.c src/host/nvml.h src/host/rapl.c src/host/rapl.h \
	\
	src/config/settings.c src/config/settings.h \
	src/config/keys.c src/config/keys.h \
	src/config/experiment.c src/config/experiment.h \
	src/config/sweep.c src/config/sweep.h \
	\
	src/results/rows.c src/results/rows.h \
	src/results/fields.c src/results/fields.h src/results/field_value.h \
	src/results/read.c src/results/read.h \
	src/results/read_fields.c src/results/read_fields.h \
	\
	src/procs/isolate.c src/procs/isolate.h src/procs/row_wire.c src/procs/row_wire.h \
	src/procs/role.c src/procs/role.h src/procs/rank_place.h src/procs/rank_service.h \
	src/procs/ranks.c src/procs/ranks.h src/procs/rank_group.h \
	src/procs/rank_launch.c src/procs/rank_launch.h \
	src/procs/rank_supervise.c src/procs/rank_supervise.h \
	src/procs/rank_serve.c src/procs/rank_serve.h \
	src/procs/rank_hub.c src/procs/rank_hub.h \
	src/procs/rank_link.c src/procs/rank_link.h \
	\
	src/run/input.c src/run/input.h \
	src/run/reference.c src/run/reference.h \
	src/run/probe.c src/run/probe.h \
	src/run/rank_slice.c src/run/rank_slice.h src/run/rank_entry.c src/run/rank_entry.h \
	src/run/plugin_gate.c src/run/plugin_gate.h \
	src/run/row_finish.c src/run/row_finish.h \
	src/run/rules.c src/run/rules.h \
	src/run/metadata.c src/run/metadata.h \
	src/run/progress.c src/run/progress.h \
	src/run/runner.c src/run/runner.h src/run/runner_state.c src/run/runner_state.h \
	src/run/on_device.c src/run/rounds.c src/run/rounds.h \
	src/run/group_state.c src/run/group_state.h \
	src/run/devices.c src/run/devices.h src/run/dataset.c src/run/dataset.h \
	src/run/timing.c src/run/judge.c \
	src/run/vector_answer.c src/run/vector_answer.h \
	src/run/shape.c src/run/shape.h \
	src/run/energy.c src/run/energy.h src/run/energy_row.c \
	\
	src/plot/figures.h src/plot/data.h \
	src/plot/data.c src/plot/energy.c src/plot/speedup.c src/plot/heatmap.c src/plot/build.c \
	src/plot/ranking.c src/plot/set.c src/plot/baseline.c src/plot/winners.c \
	src/plot/axis.c src/plot/svg.c src/plot/gnuplot.c \
	\
	src/report/reporters.h \
	src/report/output.c src/report/output.h src/report/columns.c src/report/columns.h \
	src/report/table.c src/report/csv.c src/report/json.c src/report/md.c \
	src/report/html.c src/report/html.h src/report/html_map.c src/report/html_map.h \
	src/report/formats.c \
	\
	src/compare/significance.c src/compare/significance.h \
	src/compare/comparison.c src/compare/comparison.h \
	src/compare/report.c \
	\
	src/history/database.c src/history/database.h src/history/schema.c \
	src/history/append.c src/history/append.h src/history/read.c src/history/read.h \
	src/history/steps.c src/history/steps.h src/history/trend.c src/history/trend.h \
	src/history/listing.c src/history/listing.h src/history/gate.c src/history/gate.h \
	src/history/trend_page.c src/history/trend_figure.c \
	src/history/report_trends.c src/history/report_trends.h \
	\
	src/tune/search.c src/tune/search.h src/tune/winners.c src/tune/winners.h \
	src/tune/dispatch.c src/tune/dispatch.h \
	\
	src/cli/commands.h \
	src/cli/options.c src/cli/options.h src/cli/option_table.c src/cli/option_table.h \
	src/cli/stop_signals.c src/cli/stop_signals.h \
	src/cli/info.c src/cli/run.c src/cli/tune.c src/cli/compare.c src/cli/plot.c src/cli/report.c \
	src/cli/dispatch.c src/cli/history.c
nodist_src_libredbench_a_SOURCES = src/base/git_revision.h src/host/paths.h
src_libredbench_a_CFLAGS = $(AM_CFLAGS) $(INIH_CFLAGS) $(SQLITE_CFLAGS)
REDBENCH_LIBS = src/libredbench.a $(INIH_LIBS) $(SQLITE_LIBS) $(PTHREAD_LIBS)

bin_PROGRAMS += redbench
redbench_SOURCES = src/cli/main.c
redbench_LDADD = $(REDBENCH_LIBS)

# The bash completion script, written from the table of commands and options
# by a program of the build (src/cli/option_table.c, write_completion.c).
noinst_PROGRAMS += src/cli/write-completion
src_cli_write_completion_SOURCES = src/cli/write_completion.c
src_cli_write_completion_LDADD = $(REDBENCH_LIBS)
bashcompletiondir = $(datadir)/bash-completion/completions
nodist_bashcompletion_DATA = completion/redbench
CLEANFILES += completion/redbench completion/redbench.*.tmp
completion/redbench: src/cli/write-completion$(EXEEXT)
	@$(MKDIR_P) completion
	$(AM_V_GEN)src/cli/write-completion$(EXEEXT) >$@.$$$$.tmp && mv -f $@.$$$$.tmp $@

# src/base/git_revision.h: the git revision the program is built from, looked
# up at every build and rewritten only when it changes ("unknown" from a
# tarball). Each generated header is written to a file named after the
# shell's process first, so that two makes in one tree (the tests run make
# install and make distdir side by side) never move each other's file.
BUILT_SOURCES = src/base/git_revision.h
CLEANFILES += src/base/git_revision.h src/base/git_revision.h.*.tmp
EXTRA_DIST += src/base/git-revision.sh docs/report.png docs/architecture.md
src/base/git_revision.h: rb-git-revision-check
	@$(MKDIR_P) src/base && \
	rev=`$(SHELL) $(top_srcdir)/src/base/git-revision.sh $(top_srcdir)` && \
	echo "#define RB_GIT_REVISION \"$$rev\"" >$@.$$$$.tmp && \
	if cmp -s $@.$$$$.tmp $@; then rm -f $@.$$$$.tmp; \
	else echo "  GEN      $@ ($$rev)"; mv -f $@.$$$$.tmp $@; fi
rb-git-revision-check:

# src/host/paths.h: the folders configure chose that the program embeds (the
# installed plugin folder), rewritten only when they change, so that
# re-running configure with another --prefix rebuilds exactly what embeds
# them (make's dependency tracking sees the header change).
BUILT_SOURCES += src/host/paths.h
CLEANFILES += src/host/paths.h src/host/paths.h.*.tmp
src/host/paths.h: rb-paths-check
	@$(MKDIR_P) src/host && \
	{ echo "/* src/host/paths.h: made by make from configure's choices; do not edit. */" && \
	  echo "#define RB_PLUGIN_DIR \"$(pkglibdir)\""; } >$@.$$$$.tmp && \
	if cmp -s $@.$$$$.tmp $@; then rm -f $@.$$$$.tmp; \
	else echo "  GEN      $@ ($(pkglibdir))"; mv -f $@.$$$$.tmp $@; fi
rb-paths-check:
.PHONY: rb-paths-check
# Made before any object of the program, also for `make redbench` in a new
# tree (BUILT_SOURCES only serve all, check and install); a later change
# rebuilds what includes them (the dependency tracking's own files).
$(src_libredbench_a_OBJECTS): | src/host/paths.h src/base/git_revision.h
