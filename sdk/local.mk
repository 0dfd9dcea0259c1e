# sdk/local.mk: what plugin and pack authors get from `make install`: the
# ABI headers and the CUDA helpers under include/redbench/, redbench.pc, the
# autoconf macros (share/aclocal/redbench.m4), the skeleton pack to copy
# (share/redbench/skeleton/) and the guide with the documents it cites
# (share/doc/redbench/).
rbincludedir = $(includedir)/redbench
rbinclude_HEADERS = sdk/redbench/plugin.h sdk/redbench/backend.h \
	sdk/redbench/cuda_helpers.cuh sdk/redbench/cuda_vector_reduce.cuh sdk/redbench/vulkan.h sdk/redbench/half.h
pkgconfigdir = $(libdir)/pkgconfig
pkgconfig_DATA = sdk/redbench.pc
aclocaldir = $(datadir)/aclocal
dist_aclocal_DATA = sdk/redbench.m4
EXTRA_DIST += sdk/redbench.pc.in sdk/redbench-uninstalled.pc.in

# The skeleton pack: a project of its own that builds against the installed
# SDK only (sdk/examples/README.md).
skeletondir = $(pkgdatadir)/skeleton
dist_skeleton_DATA = \
	sdk/examples/README.md \
	sdk/examples/configure.ac \
	sdk/examples/Makefile.am \
	sdk/examples/pack.ini \
	sdk/examples/chunked.c \
	sdk/examples/blocksum.cu \
	sdk/examples/vksum.c \
	sdk/examples/vksum.comp \
	sdk/examples/example.ini
dist_skeleton_SCRIPTS = sdk/examples/autogen.sh

dist_doc_DATA = docs/writing-a-plugin.md docs/scale-out.md docs/measurement.md
