# tests/cli/local.mk: the tests of src/cli/: the command line, and whole
# runs through it.
#   test_cli.sh, test_cli_select.sh  help, version, list, describe,
#                 dry-run, formats, exit statuses; choosing runs and keys
#                 on the command line
#   test_e2e.sh   whole runs on the cpu pack (fixtures/ holds the files of
#                 both)
#   test_options_table.sh  every command and option of the table
#   test_completion_packs.sh  the completion's plugin names where two packs
#                 offer one name: PACK/NAME for each, not the bare name
#   test_readme.sh  what README.md and the manual page show runs as pasted
#   test_outputs.sh  outputs never replace inputs or each other; the exit
#                 status of a run that measured nothing, --require-ok; -q;
#                 names the dry run prints made printable
TESTS += tests/cli/test_e2e.sh tests/cli/test_cli.sh tests/cli/test_cli_select.sh \
	tests/cli/test_options_table.sh tests/cli/test_readme.sh tests/cli/test_completion_packs.sh \
	tests/cli/test_outputs.sh
EXTRA_DIST += tests/cli/test_e2e.sh tests/cli/test_cli.sh tests/cli/test_cli_select.sh \
	tests/cli/test_options_table.sh tests/cli/test_readme.sh tests/cli/test_completion_packs.sh \
	tests/cli/test_outputs.sh \
	tests/cli/fixtures/small.ini tests/cli/fixtures/unknown-param.ini \
	tests/cli/fixtures/unknown-plugin.ini tests/cli/fixtures/all-ok.ini \
	tests/cli/fixtures/wrong.ini tests/cli/fixtures/skips.ini \
	tests/cli/fixtures/stall.ini tests/cli/fixtures/dropin.ini
