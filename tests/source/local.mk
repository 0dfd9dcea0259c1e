# tests/source/local.mk: tests of the source tree itself.
#   test_layers.sh  the include order of src/ (docs/architecture.md): no
#                   include from a lower layer to a higher one, no loop of
#                   includes; the check refuses planted mistakes
TESTS += tests/source/test_layers.sh
EXTRA_DIST += tests/source/test_layers.sh
