# tests/packs/mpi/local.mk: the mpi pack's tests. test_mpi.sh runs the pack's
# strategies with their ranks started by mpirun, and mpi-faults.c (a plugin
# with planted rank faults), built where configure found MPI; it also runs
# the rank machinery's exchange-sum (tests/procs/ranks/) under mpirun.
if BUILD_MPI
check_LTLIBRARIES += tests/packs/mpi/mpi-faults.la
tests/packs/mpi/dir.stamp: tests/packs/mpi/mpi-faults.la
	$(AM_V_GEN)$(gather_plugins) tests/packs/mpi/dir tests/packs/mpi/mpi-faults.la && touch $@
check_DATA += tests/packs/mpi/dir.stamp
endif
tests_packs_mpi_mpi_faults_la_SOURCES = tests/packs/mpi/mpi-faults.c
tests_packs_mpi_mpi_faults_la_CPPFLAGS = $(TEST_PLUGIN_CPPFLAGS) $(MPI_CFLAGS)
tests_packs_mpi_mpi_faults_la_LDFLAGS = $(TEST_PLUGIN_LINK_FLAGS)
tests_packs_mpi_mpi_faults_la_LIBADD = $(MPI_LIBS)
CLEANFILES += tests/packs/mpi/dir.stamp tests/packs/mpi/dir/*.so

TESTS += tests/packs/mpi/test_mpi.sh
EXTRA_DIST += tests/packs/mpi/test_mpi.sh bench/nccl_tests_beside.sh
