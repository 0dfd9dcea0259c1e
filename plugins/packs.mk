# plugins/packs.mk: the packs' manifests. Each pack folder has a pack.ini
# (name, vendor, version, backend, description) made from pack.ini.in with
# redbench's version. It is made into the build tree's pack folder, where
# redbench run from the build tree reads it, and installed beside the
# pack's modules. The hooks keep the installed pack folders to modules and
# manifests: libtool's .la files are removed after install, and the modules
# they named are removed at uninstall.
cpumanifestdir = $(pkglibdir)/cpu
cudamanifestdir = $(pkglibdir)/cuda
vulkanmanifestdir = $(pkglibdir)/vulkan
mpimanifestdir = $(pkglibdir)/mpi
ncclmanifestdir = $(pkglibdir)/nccl
p2pmanifestdir = $(pkglibdir)/p2p
nodist_cpumanifest_DATA = plugins/cpu/pack.ini
if BUILD_CUDA
nodist_cudamanifest_DATA = plugins/cuda/pack.ini
nodist_p2pmanifest_DATA = plugins/p2p/pack.ini
endif
if BUILD_VULKAN
nodist_vulkanmanifest_DATA = plugins/vulkan/pack.ini
endif
if BUILD_NCCL
nodist_ncclmanifest_DATA = plugins/nccl/pack.ini
endif
if BUILD_MPI
nodist_mpimanifest_DATA = plugins/mpi/pack.ini
endif
# The manifests of the packs built.
PACK_MANIFESTS = $(nodist_cpumanifest_DATA) $(nodist_cudamanifest_DATA) $(nodist_p2pmanifest_DATA) \
	$(nodist_vulkanmanifest_DATA) $(nodist_ncclmanifest_DATA) $(nodist_mpimanifest_DATA)
# Every pack's manifest, built or not.
PACK_MANIFEST_FILES = plugins/cpu/pack.ini plugins/cuda/pack.ini plugins/vulkan/pack.ini \
	plugins/nccl/pack.ini plugins/mpi/pack.ini plugins/p2p/pack.ini
EXTRA_DIST += plugins/cpu/pack.ini.in plugins/cuda/pack.ini.in plugins/vulkan/pack.ini.in \
	plugins/mpi/pack.ini.in plugins/nccl/pack.ini.in \
	plugins/p2p/pack.ini.in
CLEANFILES += $(PACK_MANIFEST_FILES) plugins/*/pack.ini.*.tmp plugins/*/*.so.*.tmp
RB_ALL_HOOKS += $(PACK_MANIFESTS)

edit_manifest = $(SED) -e 's|@PACKAGE_VERSION[@]|$(PACKAGE_VERSION)|g'

# Each manifest from its pack.ini.in beside it (in the source tree).
$(PACK_MANIFEST_FILES): Makefile
	$(AM_V_GEN)$(MKDIR_P) $(@D) && \
	$(edit_manifest) $(srcdir)/$@.in >$@.$$$$.tmp && mv -f $@.$$$$.tmp $@
plugins/cpu/pack.ini: plugins/cpu/pack.ini.in
plugins/cuda/pack.ini: plugins/cuda/pack.ini.in
plugins/vulkan/pack.ini: plugins/vulkan/pack.ini.in
plugins/nccl/pack.ini: plugins/nccl/pack.ini.in
plugins/mpi/pack.ini: plugins/mpi/pack.ini.in
plugins/p2p/pack.ini: plugins/p2p/pack.ini.in

# The libtool-built packs' modules: plugins/PACK/NAME.la is installed as
# $(pkglibdir)/PACK/NAME.la (PACKdir) and NAME.so beside it.
LIBTOOL_PACK_MODULES = $(cpu_LTLIBRARIES) $(vulkan_LTLIBRARIES) $(mpi_LTLIBRARIES)
RB_INSTALL_DATA_HOOKS += packs-remove-la
RB_UNINSTALL_HOOKS += packs-uninstall-modules

packs-remove-la:
	@for la in $(LIBTOOL_PACK_MODULES); do rm -f "$(DESTDIR)$(pkglibdir)/$${la#plugins/}"; done

packs-uninstall-modules:
	@for la in $(LIBTOOL_PACK_MODULES); do \
	  la=$${la#plugins/}; rm -f "$(DESTDIR)$(pkglibdir)/$${la%.la}.so"; \
	done

.PHONY: packs-remove-la packs-uninstall-modules
