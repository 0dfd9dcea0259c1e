# plugins/p2p/local.mk: the p2p pack (built with the cuda pack, when
# configure finds nvcc): all-reduce kernels whose ranks, one process per
# GPU, read and write each other's memory over the GPUs' links. Compiled
# by nvcc with the cuda pack's flags (plugins/cuda/local.mk); the objects
# land in plugins/p2p/ of the build tree and are installed into
# $(pkglibdir)/p2p by the hooks the top Makefile.am calls.
P2P_PACK_CU = plugins/p2p/oneshot.cu plugins/p2p/twoshot.cu
EXTRA_DIST += $(P2P_PACK_CU) plugins/p2p/p2p_pack.cuh

if BUILD_CUDA
p2ppackdir = $(pkglibdir)/p2p
P2P_PACK_MODULES = $(P2P_PACK_CU:.cu=.so)
$(P2P_PACK_MODULES): plugins/p2p/p2p_pack.cuh sdk/redbench/cuda_vector_reduce.cuh $(CUDA_PACK_DEPS)

RB_ALL_HOOKS += $(P2P_PACK_MODULES)
RB_INSTALL_HOOKS += p2p-install
RB_UNINSTALL_HOOKS += p2p-uninstall
RB_CLEAN_HOOKS += p2p-clean

p2p-install: $(P2P_PACK_MODULES)
	$(MKDIR_P) '$(DESTDIR)$(p2ppackdir)'
	$(INSTALL_PROGRAM) $(P2P_PACK_MODULES) '$(DESTDIR)$(p2ppackdir)'

p2p-uninstall:
	for f in $(P2P_PACK_MODULES); do \
	  rm -f "$(DESTDIR)$(p2ppackdir)/$${f##*/}"; \
	done

p2p-clean:
	rm -f $(P2P_PACK_MODULES)

endif
.PHONY: p2p-install p2p-uninstall p2p-clean
