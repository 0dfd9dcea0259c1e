# plugins/cpu/local.mk: the cpu pack (always built): one module per
# strategy, installed into $(pkglibdir)/cpu. The sources include only the
# SDK headers, as an external plugin's would; cpu_reduce.h is the pack's
# own header of shared loops. -O3 comes before the user's CFLAGS, so the
# loops are written to vectorize at -O2 as well.
cpudir = $(pkglibdir)/cpu
cpu_LTLIBRARIES = plugins/cpu/serial.la plugins/cpu/unrolled.la \
	plugins/cpu/threads.la plugins/cpu/kahan.la
CPU_PACK_CPPFLAGS = -I$(top_srcdir)/sdk
CPU_PACK_CFLAGS = $(AM_CFLAGS) -O3

plugins_cpu_serial_la_SOURCES = plugins/cpu/serial.c plugins/cpu/cpu_reduce.h plugins/cpu/cpu_shaped.h
plugins_cpu_serial_la_CPPFLAGS = $(CPU_PACK_CPPFLAGS)
plugins_cpu_serial_la_CFLAGS = $(CPU_PACK_CFLAGS)
plugins_cpu_serial_la_LDFLAGS = $(PLUGIN_LINK_FLAGS)

plugins_cpu_unrolled_la_SOURCES = plugins/cpu/unrolled.c plugins/cpu/cpu_reduce.h
plugins_cpu_unrolled_la_CPPFLAGS = $(CPU_PACK_CPPFLAGS)
plugins_cpu_unrolled_la_CFLAGS = $(CPU_PACK_CFLAGS)
plugins_cpu_unrolled_la_LDFLAGS = $(PLUGIN_LINK_FLAGS)

plugins_cpu_threads_la_SOURCES = plugins/cpu/threads.c plugins/cpu/cpu_reduce.h plugins/cpu/cpu_shaped.h
plugins_cpu_threads_la_CPPFLAGS = $(CPU_PACK_CPPFLAGS)
plugins_cpu_threads_la_CFLAGS = $(CPU_PACK_CFLAGS)
plugins_cpu_threads_la_LDFLAGS = $(PLUGIN_LINK_FLAGS)
plugins_cpu_threads_la_LIBADD = $(PTHREAD_LIBS)

plugins_cpu_kahan_la_SOURCES = plugins/cpu/kahan.c plugins/cpu/cpu_reduce.h
plugins_cpu_kahan_la_CPPFLAGS = $(CPU_PACK_CPPFLAGS)
plugins_cpu_kahan_la_CFLAGS = $(CPU_PACK_CFLAGS)
plugins_cpu_kahan_la_LDFLAGS = $(PLUGIN_LINK_FLAGS)

# The top Makefile.am copies each pack's built modules into its folder, so
# that redbench run from the build tree finds plugins/cpu/serial.so.
PLUGIN_PACK_DIRS += plugins/cpu
