# tests/sdk/local.mk: the installed SDK (sdk/).
#   test_install.sh  make install into a temporary root; the guide's
#                    example and the skeleton pack built out of tree against
#                    it with pkg-config, dropped into a plugin folder, run
#   test_guide_in_tree.sh  the guide's plugin built in the build tree before
#                    make install, by the guide's commands (pkg-config reads
#                    redbench-uninstalled.pc), and run from ./plugins
#   test_guide_shapes.sh  the guide's shapes example compiled and run over
#                    fixed and ragged rows
#   test_reconfigure.sh  configure run again with another --prefix rebuilds
#                    what embeds the plugin folder
#   test_half        the f16 and bf16 conversions (redbench/half.h): every
#                    pattern's round trip, the formats' values, rounding at ties
check_PROGRAMS += tests/sdk/test_half
tests_sdk_test_half_SOURCES = tests/sdk/test_half.c
TESTS += tests/sdk/test_half tests/sdk/test_install.sh tests/sdk/test_reconfigure.sh \
	tests/sdk/test_guide_in_tree.sh tests/sdk/test_guide_shapes.sh
EXTRA_DIST += tests/sdk/test_install.sh tests/sdk/test_reconfigure.sh \
	tests/sdk/test_guide_in_tree.sh tests/sdk/test_guide_shapes.sh

# Where `make install` puts things, for test_install.sh.
AM_TESTS_ENVIRONMENT += \
	rb_bindir='$(bindir)'; rb_includedir='$(includedir)'; rb_libdir='$(libdir)'; \
	rb_pkglibdir='$(pkglibdir)'; rb_datadir='$(datadir)'; rb_pkgdatadir='$(pkgdatadir)'; \
	rb_mandir='$(mandir)'; rb_docdir='$(docdir)'; rb_version='$(PACKAGE_VERSION)'; \
	rb_make='$(MAKE)'; \
	export rb_bindir rb_includedir rb_libdir rb_pkglibdir rb_datadir rb_pkgdatadir \
	  rb_mandir rb_docdir rb_version rb_make;
