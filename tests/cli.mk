# tests/cli.mk: the command line and end-to-end runs on the cpu pack, and
# the files it writes (test_output.sh); tune and the settings its tuned
# experiment keeps (test_tune_settings.sh).
TESTS += tests/test_cli.sh tests/test_cli_select.sh tests/test_e2e.sh tests/test_loader.sh tests/test_tune.sh \
	tests/test_tune_settings.sh \
	tests/test_output.sh tests/test_progress.sh tests/test_options_table.sh tests/test_readme.sh \
	tests/test_diag_escape.sh
EXTRA_DIST += tests/test_cli.sh tests/test_cli_select.sh tests/test_e2e.sh tests/test_loader.sh tests/test_tune.sh \
	tests/test_tune_settings.sh \
	tests/test_output.sh tests/test_progress.sh tests/test_options_table.sh tests/test_readme.sh tests/test_diag_escape.sh \
	tests/fixtures/tune/cpu.ini \
	tests/fixtures/cli/small.ini tests/fixtures/cli/unknown-param.ini \
	tests/fixtures/cli/unknown-plugin.ini tests/fixtures/e2e/all-ok.ini \
	tests/fixtures/e2e/wrong.ini tests/fixtures/e2e/skips.ini \
	tests/fixtures/e2e/stall.ini tests/fixtures/e2e/dropin.ini
