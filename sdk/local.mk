# sdk/local.mk: what plugin authors get: the ABI headers and redbench.pc.
rbincludedir = $(includedir)/redbench
rbinclude_HEADERS = sdk/redbench/plugin.h sdk/redbench/backend.h
pkgconfigdir = $(libdir)/pkgconfig
pkgconfig_DATA = sdk/redbench.pc
EXTRA_DIST += sdk/redbench.pc.in
