# core/plot.mk: the core's JSON reader, plots and HTML report; they join the
# core library built in core/local.mk. (Included from tests/plot.mk.)
core_librbcore_la_SOURCES += \
	core/json_reader.c core/json_reader.h
EXTRA_DIST += core/plot.mk
