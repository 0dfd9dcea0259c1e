# tests/source/local.mk: tests of the source tree itself.
#   test_layers.sh  the include order of src/ (docs/architecture.md): no
#                   include from a lower layer to a higher one, no loop of
#                   includes; the check refuses planted mistakes
#   test_docs.sh    the documents against the source: the licence named
#                   everywhere, the guide's ABI minor, the manual page's
#                   compare, README's plot, the SDK's installed docs
#   test_make_rules.sh  the rules that write through a temporary file name
#                   it after their process (two makes in one tree); the
#                   check refuses a planted shared name
TESTS += tests/source/test_layers.sh tests/source/test_docs.sh tests/source/test_make_rules.sh
EXTRA_DIST += tests/source/test_layers.sh tests/source/test_docs.sh tests/source/test_make_rules.sh
