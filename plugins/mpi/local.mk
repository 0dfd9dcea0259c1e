# plugins/mpi/local.mk: the mpi pack (built when configure finds MPI; see
# --with-mpi): collectives across ranks on the cpu backend, one module per
# strategy, installed into $(pkglibdir)/mpi. redbench starts their ranks
# with mpirun (RB_RANK_LAUNCH_MPI); the sources include only SDK headers,
# mpi.h and the pack's mpi_pack.h.
MPI_PACK_CPPFLAGS = -I$(top_srcdir)/sdk $(MPI_CFLAGS)
MPI_PACK_CFLAGS = $(AM_CFLAGS) -O2

if BUILD_MPI
mpidir = $(pkglibdir)/mpi
mpi_LTLIBRARIES = plugins/mpi/allreduce.la plugins/mpi/reduce.la plugins/mpi/ring.la \
	plugins/mpi/doubling.la
PLUGIN_PACK_DIRS += plugins/mpi
endif

plugins_mpi_allreduce_la_SOURCES = plugins/mpi/allreduce.c plugins/mpi/mpi_pack.h
plugins_mpi_allreduce_la_CPPFLAGS = $(MPI_PACK_CPPFLAGS)
plugins_mpi_allreduce_la_CFLAGS = $(MPI_PACK_CFLAGS)
plugins_mpi_allreduce_la_LDFLAGS = $(PLUGIN_LINK_FLAGS)
plugins_mpi_allreduce_la_LIBADD = $(MPI_LIBS)

plugins_mpi_reduce_la_SOURCES = plugins/mpi/reduce.c plugins/mpi/mpi_pack.h
plugins_mpi_reduce_la_CPPFLAGS = $(MPI_PACK_CPPFLAGS)
plugins_mpi_reduce_la_CFLAGS = $(MPI_PACK_CFLAGS)
plugins_mpi_reduce_la_LDFLAGS = $(PLUGIN_LINK_FLAGS)
plugins_mpi_reduce_la_LIBADD = $(MPI_LIBS)

plugins_mpi_ring_la_SOURCES = plugins/mpi/ring.c plugins/mpi/mpi_pack.h
plugins_mpi_ring_la_CPPFLAGS = $(MPI_PACK_CPPFLAGS)
plugins_mpi_ring_la_CFLAGS = $(MPI_PACK_CFLAGS)
plugins_mpi_ring_la_LDFLAGS = $(PLUGIN_LINK_FLAGS)
plugins_mpi_ring_la_LIBADD = $(MPI_LIBS)

plugins_mpi_doubling_la_SOURCES = plugins/mpi/doubling.c plugins/mpi/mpi_pack.h
plugins_mpi_doubling_la_CPPFLAGS = $(MPI_PACK_CPPFLAGS)
plugins_mpi_doubling_la_CFLAGS = $(MPI_PACK_CFLAGS)
plugins_mpi_doubling_la_LDFLAGS = $(PLUGIN_LINK_FLAGS)
plugins_mpi_doubling_la_LIBADD = $(MPI_LIBS)
