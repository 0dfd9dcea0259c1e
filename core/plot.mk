# core/plot.mk: the core's JSON reader, plots and HTML report; they join the
# core library built in core/local.mk. (Included from tests/plot.mk.)
core_librbcore_la_SOURCES += \
	core/json_reader.c core/json_reader.h core/text_index.c core/text_index.h \
	core/plot.h core/plot_data.h core/plot_data.c core/plot_speedup.c core/plot_heatmap.c \
	core/plot_axis.c core/plot_svg.c core/plot_gnuplot.c \
	core/report_html.c core/report_html.h \
	core/cmd_plot.c
EXTRA_DIST += core/plot.mk docs/report.png
