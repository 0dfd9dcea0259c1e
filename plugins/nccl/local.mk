# plugins/nccl/local.mk: the nccl pack (built when configure finds nvcc and
# NCCL): collectives across GPUs, one rank per device, compiled by nvcc with
# the cuda pack's flags (plugins/cuda/local.mk) and linked with libnccl. The objects land in plugins/nccl/ of the build tree and are
# installed into $(pkglibdir)/nccl by the hooks the top Makefile.am calls.
NCCL_PACK_CU = plugins/nccl/allreduce.cu plugins/nccl/reduce.cu
EXTRA_DIST += $(NCCL_PACK_CU) plugins/nccl/nccl_pack.cuh

if BUILD_NCCL
ncclpackdir = $(pkglibdir)/nccl
NCCL_PACK_MODULES = $(NCCL_PACK_CU:.cu=.so)
# libnccl after the source, so that the linker keeps it.
nccl_compile = $(MKDIR_P) plugins/nccl && $(NVCC) $(NVCC_PLUGIN_FLAGS) $(NCCL_CPPFLAGS) $(NVCCFLAGS)
plugins/nccl/allreduce.so: plugins/nccl/allreduce.cu plugins/nccl/nccl_pack.cuh sdk/redbench/cuda_vector_reduce.cuh $(CUDA_PACK_DEPS)
	$(AM_V_GEN)$(nccl_compile) -o $@ $(srcdir)/plugins/nccl/allreduce.cu $(NCCL_LIBS)
plugins/nccl/reduce.so: plugins/nccl/reduce.cu plugins/nccl/nccl_pack.cuh sdk/redbench/cuda_vector_reduce.cuh $(CUDA_PACK_DEPS)
	$(AM_V_GEN)$(nccl_compile) -o $@ $(srcdir)/plugins/nccl/reduce.cu $(NCCL_LIBS)

RB_ALL_HOOKS += $(NCCL_PACK_MODULES)
RB_INSTALL_HOOKS += nccl-install
RB_UNINSTALL_HOOKS += nccl-uninstall
RB_CLEAN_HOOKS += nccl-clean

nccl-install: $(NCCL_PACK_MODULES)
	$(MKDIR_P) '$(DESTDIR)$(ncclpackdir)'
	$(INSTALL_PROGRAM) $(NCCL_PACK_MODULES) '$(DESTDIR)$(ncclpackdir)'

nccl-uninstall:
	for f in $(NCCL_PACK_MODULES); do \
	  rm -f "$(DESTDIR)$(ncclpackdir)/$${f##*/}"; \
	done

nccl-clean:
	rm -f $(NCCL_PACK_MODULES)

endif
.PHONY: nccl-install nccl-uninstall nccl-clean
