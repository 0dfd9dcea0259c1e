# tests/sdk.mk: tests of packs and of the installed SDK.
#   test_packs.sh    pack manifests and --list grouped by pack; two packs
#                    offering one name (PACK/NAME, the ambiguous plain
#                    name); shadowing; mistakes in a manifest; a plugin of
#                    the ABI 1.0 size
#   test_install.sh  make install into a temporary root; the guide's
#                    example and the skeleton pack built out of tree against
#                    it with pkg-config, dropped into a plugin folder, run
#   test_reconfigure.sh  configure run again with another --prefix rebuilds
#                    what embeds the plugin folder
TESTS += tests/test_install.sh tests/test_reconfigure.sh tests/test_packs.sh
EXTRA_DIST += tests/test_packs.sh tests/test_install.sh tests/test_reconfigure.sh

# A plugin whose descriptor is exactly the ABI 1.0 layout (never installed).
check_LTLIBRARIES += tests/sdk/abi-1-0.la
tests_sdk_abi_1_0_la_SOURCES = tests/sdk/abi-1-0.c tests/plugins/test_plugin.h
tests_sdk_abi_1_0_la_CPPFLAGS = $(TEST_PLUGIN_CPPFLAGS) -I$(top_srcdir)/tests/plugins
tests_sdk_abi_1_0_la_LDFLAGS = $(TEST_PLUGIN_LINK_FLAGS)

# Where `make install` puts things, for test_install.sh.
AM_TESTS_ENVIRONMENT += \
	rb_bindir='$(bindir)'; rb_includedir='$(includedir)'; rb_libdir='$(libdir)'; \
	rb_pkglibdir='$(pkglibdir)'; rb_datadir='$(datadir)'; rb_pkgdatadir='$(pkgdatadir)'; \
	rb_mandir='$(mandir)'; rb_docdir='$(docdir)'; rb_version='$(PACKAGE_VERSION)'; \
	rb_make='$(MAKE)'; \
	export rb_bindir rb_includedir rb_libdir rb_pkglibdir rb_datadir rb_pkgdatadir \
	  rb_mandir rb_docdir rb_version rb_make;
