# plugins/vulkan/local.mk: the vulkan pack (built when configure finds the
# Vulkan headers and loader and glslc): the backend and one module per
# strategy, installed into $(pkglibdir)/vulkan. Each shader is compiled to
# SPIR-V at build time, once per element type and operation (and with the
# atomic finish where a strategy has one; subgroup's and rows' also for
# f16 and bf16, rows' also for argmax), and embedded in its module as C arrays (spirv-embed.sh writes
# plugins/vulkan/NAME_spv.h in the build tree). The sources include only SDK headers and the pack's pack.h.
VULKAN_SHADER_DIR = $(srcdir)/plugins/vulkan/shaders
VULKAN_SHADERS = \
	plugins/vulkan/shaders/common.glsl \
	plugins/vulkan/shaders/stream_read.comp \
	plugins/vulkan/shaders/tree.comp \
	plugins/vulkan/shaders/subgroup.comp \
	plugins/vulkan/shaders/atomic.comp \
	plugins/vulkan/shaders/histogram.comp \
	plugins/vulkan/shaders/rows.comp
EXTRA_DIST += $(VULKAN_SHADERS) plugins/vulkan/spirv-embed.sh

# make_spirv_header SHADER OUTPUT TABLE VARIANT...: SHADER's file name in the
# shader folder; see spirv-embed.sh.
make_spirv_header = $(MKDIR_P) plugins/vulkan && \
	$(SHELL) $(srcdir)/plugins/vulkan/spirv-embed.sh '$(GLSLC)' $(VULKAN_SHADER_DIR)
VULKAN_SPV_DEPS = plugins/vulkan/spirv-embed.sh plugins/vulkan/shaders/common.glsl

plugins/vulkan/backend_spv.h: plugins/vulkan/shaders/stream_read.comp $(VULKAN_SPV_DEPS)
	$(AM_V_GEN)$(make_spirv_header) stream_read.comp $@ - stream_read
plugins/vulkan/tree_spv.h: plugins/vulkan/shaders/tree.comp $(VULKAN_SPV_DEPS)
	$(AM_V_GEN)$(make_spirv_header) tree.comp $@ tree_spirv @plain @subgroup
plugins/vulkan/subgroup_spv.h: plugins/vulkan/shaders/subgroup.comp $(VULKAN_SPV_DEPS)
	$(AM_V_GEN)$(make_spirv_header) subgroup.comp $@ subgroup_spirv @plain @atomic \
	  @plain=f16,bf16 @atomic=f16,bf16
plugins/vulkan/atomic_spv.h: plugins/vulkan/shaders/atomic.comp $(VULKAN_SPV_DEPS)
	$(AM_V_GEN)$(make_spirv_header) atomic.comp $@ atomic_spirv @atomic
plugins/vulkan/histogram_spv.h: plugins/vulkan/shaders/histogram.comp $(VULKAN_SPV_DEPS)
	$(AM_V_GEN)$(make_spirv_header) histogram.comp $@ - histogram
# rows.comp's variants: @plain and its halves, and argmax of each dtype.
VULKAN_ROWS_VARIANTS = @plain @plain=f16,bf16 \
	argmax_i32:-DARGMAX,-DT_I32 argmax_i64:-DARGMAX,-DT_I64 argmax_f32:-DARGMAX,-DT_F32 \
	argmax_f64:-DARGMAX,-DT_F64 argmax_f16:-DARGMAX,-DT_F16 argmax_bf16:-DARGMAX,-DT_BF16
plugins/vulkan/rows_spv.h: plugins/vulkan/shaders/rows.comp $(VULKAN_SPV_DEPS)
	$(AM_V_GEN)$(make_spirv_header) rows.comp $@ rows_spirv $(VULKAN_ROWS_VARIANTS)

VULKAN_SPIRV_GENERATED = plugins/vulkan/backend_spv.h plugins/vulkan/tree_spv.h \
	plugins/vulkan/subgroup_spv.h plugins/vulkan/atomic_spv.h plugins/vulkan/histogram_spv.h \
	plugins/vulkan/rows_spv.h
CLEANFILES += $(VULKAN_SPIRV_GENERATED)

VULKAN_PACK_CPPFLAGS = -I$(top_srcdir)/sdk -I$(top_srcdir) -I$(top_builddir) $(VULKAN_CFLAGS)
VULKAN_PACK_CFLAGS = $(AM_CFLAGS) -O2
VULKAN_PACK_SOURCES = plugins/vulkan/pack.h sdk/redbench/vulkan.h

if BUILD_VULKAN
BUILT_SOURCES += $(VULKAN_SPIRV_GENERATED)
vulkandir = $(pkglibdir)/vulkan
vulkan_LTLIBRARIES = plugins/vulkan/backend.la plugins/vulkan/tree.la \
	plugins/vulkan/subgroup.la plugins/vulkan/atomic.la plugins/vulkan/histogram.la \
	plugins/vulkan/rows.la
PLUGIN_PACK_DIRS += plugins/vulkan
endif

plugins_vulkan_backend_la_SOURCES = plugins/vulkan/backend.c $(VULKAN_PACK_SOURCES)
nodist_plugins_vulkan_backend_la_SOURCES = plugins/vulkan/backend_spv.h
plugins_vulkan_backend_la_CPPFLAGS = $(VULKAN_PACK_CPPFLAGS)
plugins_vulkan_backend_la_CFLAGS = $(VULKAN_PACK_CFLAGS)
plugins_vulkan_backend_la_LDFLAGS = $(PLUGIN_LINK_FLAGS)
plugins_vulkan_backend_la_LIBADD = $(VULKAN_LIBS)

plugins_vulkan_tree_la_SOURCES = plugins/vulkan/tree.c $(VULKAN_PACK_SOURCES)
nodist_plugins_vulkan_tree_la_SOURCES = plugins/vulkan/tree_spv.h
plugins_vulkan_tree_la_CPPFLAGS = $(VULKAN_PACK_CPPFLAGS)
plugins_vulkan_tree_la_CFLAGS = $(VULKAN_PACK_CFLAGS)
plugins_vulkan_tree_la_LDFLAGS = $(PLUGIN_LINK_FLAGS)
plugins_vulkan_tree_la_LIBADD = $(VULKAN_LIBS)

plugins_vulkan_subgroup_la_SOURCES = plugins/vulkan/subgroup.c $(VULKAN_PACK_SOURCES)
nodist_plugins_vulkan_subgroup_la_SOURCES = plugins/vulkan/subgroup_spv.h
plugins_vulkan_subgroup_la_CPPFLAGS = $(VULKAN_PACK_CPPFLAGS)
plugins_vulkan_subgroup_la_CFLAGS = $(VULKAN_PACK_CFLAGS)
plugins_vulkan_subgroup_la_LDFLAGS = $(PLUGIN_LINK_FLAGS)
plugins_vulkan_subgroup_la_LIBADD = $(VULKAN_LIBS)

plugins_vulkan_atomic_la_SOURCES = plugins/vulkan/atomic.c $(VULKAN_PACK_SOURCES)
nodist_plugins_vulkan_atomic_la_SOURCES = plugins/vulkan/atomic_spv.h
plugins_vulkan_atomic_la_CPPFLAGS = $(VULKAN_PACK_CPPFLAGS)
plugins_vulkan_atomic_la_CFLAGS = $(VULKAN_PACK_CFLAGS)
plugins_vulkan_atomic_la_LDFLAGS = $(PLUGIN_LINK_FLAGS)
plugins_vulkan_atomic_la_LIBADD = $(VULKAN_LIBS)

plugins_vulkan_histogram_la_SOURCES = plugins/vulkan/histogram.c $(VULKAN_PACK_SOURCES)
nodist_plugins_vulkan_histogram_la_SOURCES = plugins/vulkan/histogram_spv.h
plugins_vulkan_histogram_la_CPPFLAGS = $(VULKAN_PACK_CPPFLAGS)
plugins_vulkan_histogram_la_CFLAGS = $(VULKAN_PACK_CFLAGS)
plugins_vulkan_histogram_la_LDFLAGS = $(PLUGIN_LINK_FLAGS)
plugins_vulkan_histogram_la_LIBADD = $(VULKAN_LIBS)

plugins_vulkan_rows_la_SOURCES = plugins/vulkan/rows.c $(VULKAN_PACK_SOURCES)
nodist_plugins_vulkan_rows_la_SOURCES = plugins/vulkan/rows_spv.h
plugins_vulkan_rows_la_CPPFLAGS = $(VULKAN_PACK_CPPFLAGS)
plugins_vulkan_rows_la_CFLAGS = $(VULKAN_PACK_CFLAGS)
plugins_vulkan_rows_la_LDFLAGS = $(PLUGIN_LINK_FLAGS)
plugins_vulkan_rows_la_LIBADD = $(VULKAN_LIBS)
