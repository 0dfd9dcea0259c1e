# plugins/cuda/local.mk: the cuda pack (built when configure finds nvcc).
# nvcc compiles each .cu straight to a shared object with the CUDA runtime
# linked in statically (nvcc's default, as in an application, so that a call
# costs what it costs there); streams, events and device memory are driver
# objects that every plugin's runtime accepts. Only the entry point is
# exported. The objects land in plugins/cuda/ of the
# build tree (where redbench run from there finds them) and are installed
# into $(pkglibdir)/cuda by the hooks the top Makefile.am calls.
CUDA_PACK_CU = \
	plugins/cuda/backend.cu \
	plugins/cuda/single_thread.cu \
	plugins/cuda/tree.cu \
	plugins/cuda/shuffle.cu \
	plugins/cuda/onepass.cu \
	plugins/cuda/pattern.cu \
	plugins/cuda/bulk.cu \
	plugins/cuda/cluster.cu \
	plugins/cuda/atomic.cu \
	plugins/cuda/reduce_add_sync.cu \
	plugins/cuda/shared_array.cu \
	plugins/cuda/histogram.cu \
	plugins/cuda/cub.cu \
	plugins/cuda/repro.cu \
	plugins/cuda/cub_deterministic.cu \
	plugins/cuda/segmented.cu \
	plugins/cuda/rows.cu \
	plugins/cuda/columns.cu
CUDA_PACK_DEPS = \
	sdk/redbench/plugin.h \
	sdk/redbench/backend.h \
	sdk/redbench/cuda_helpers.cuh
# What the shaped strategies (segmented, rows, columns) share.
CUDA_SHAPED_DEPS = plugins/cuda/shaped.cuh
EXTRA_DIST += $(CUDA_PACK_CU) sdk/redbench/cuda_helpers.cuh $(CUDA_SHAPED_DEPS) \
	bench/cccl_rebuild.sh

# NVCCFLAGS is the user's, as CFLAGS is.
NVCC_PLUGIN_FLAGS = $(NVCC_ARCH_FLAGS) -O3 -std=c++20 -shared \
	-Xcompiler -fPIC,-fvisibility=hidden -cudart static -I$(top_srcdir)/sdk
SUFFIXES = .cu .so
.cu.so:
	@$(MKDIR_P) $(@D)
	$(AM_V_GEN)$(NVCC) $(NVCC_PLUGIN_FLAGS) $(NVCCFLAGS) -o $@ $<

# cub_deterministic.cu and segmented.cu may be built against another
# CCCL's headers than the toolkit's (CCCL 3.1 and later have determinism
# requirements and fixed-size segmented reduces):
#   make CUDA_CCCL_FLAGS="-I$CCCL/cub -I$CCCL/libcudacxx/include -I$CCCL/thrust"
CUDA_CCCL_FLAGS =
plugins/cuda/cub_deterministic.so: plugins/cuda/cub_deterministic.cu
	@$(MKDIR_P) $(@D)
	$(AM_V_GEN)$(NVCC) $(CUDA_CCCL_FLAGS) $(NVCC_PLUGIN_FLAGS) $(NVCCFLAGS) -o $@ $(srcdir)/plugins/cuda/cub_deterministic.cu
plugins/cuda/segmented.so: plugins/cuda/segmented.cu
	@$(MKDIR_P) $(@D)
	$(AM_V_GEN)$(NVCC) $(CUDA_CCCL_FLAGS) $(NVCC_PLUGIN_FLAGS) $(NVCCFLAGS) -o $@ $(srcdir)/plugins/cuda/segmented.cu

if BUILD_CUDA
cudapackdir = $(pkglibdir)/cuda
CUDA_PACK_MODULES = $(CUDA_PACK_CU:.cu=.so)
$(CUDA_PACK_MODULES): $(CUDA_PACK_DEPS)
plugins/cuda/segmented.so plugins/cuda/rows.so plugins/cuda/columns.so: $(CUDA_SHAPED_DEPS)

RB_ALL_HOOKS += $(CUDA_PACK_MODULES)
RB_INSTALL_HOOKS += cuda-install
RB_UNINSTALL_HOOKS += cuda-uninstall
RB_CLEAN_HOOKS += cuda-clean

cuda-install: $(CUDA_PACK_MODULES)
	$(MKDIR_P) '$(DESTDIR)$(cudapackdir)'
	$(INSTALL_PROGRAM) $(CUDA_PACK_MODULES) '$(DESTDIR)$(cudapackdir)'

cuda-uninstall:
	for f in $(CUDA_PACK_MODULES); do \
	  rm -f "$(DESTDIR)$(cudapackdir)/$${f##*/}"; \
	done

cuda-clean:
	rm -f $(CUDA_PACK_MODULES)

endif
.PHONY: cuda-install cuda-uninstall cuda-clean
