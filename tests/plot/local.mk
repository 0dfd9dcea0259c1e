# tests/plot/local.mk: the tests of src/plot/.
#   test_plot_data  the figures built from a results document written by
#                   hand, the axes, the SVG
#   test_plot.sh    `redbench plot` on results of the cpu pack (fixtures/)
#   test_plot_hostile.sh  results files made to break plot (make_results.py):
#                   hostile names, a denormal value, planted links, a
#                   missing parent, a failing gnuplot, a full disk
#   test_plot_energy.sh  the energy figure (J/GB against n), from runs of
#                   the standin backend through the stand-in NVML
#   test_plot_shaped.sh  the winner maps of shaped results (rows x n), from
#                   a cpu run whose times are replaced by known ones
check_PROGRAMS += tests/plot/test_plot_data
tests_plot_test_plot_data_SOURCES = tests/plot/test_plot_data.c
TESTS += tests/plot/test_plot.sh tests/plot/test_plot_data tests/plot/test_plot_energy.sh \
	tests/plot/test_plot_shaped.sh \
	tests/plot/test_plot_hostile.sh
EXTRA_DIST += tests/plot/test_plot.sh tests/plot/test_plot_energy.sh tests/plot/test_plot_hostile.sh \
	tests/plot/test_plot_shaped.sh \
	tests/plot/make_results.py tests/plot/fixtures/small.ini tests/plot/fixtures/none-ok.ini
