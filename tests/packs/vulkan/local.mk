# tests/packs/vulkan/local.mk: tests of the vulkan pack, where it is
# built: every strategy, variant, op and dtype it offers judged on the
# Vulkan device (lavapipe in CI) at small, odd and medium sizes, declined
# dtypes, the timing modes, the validation layers where installed, and
# five plugins with planted bugs (planted.c) that must be judged wrong,
# and the control of the fifth (half-shifted); the fourth and fifth carry
# their own builds of subgroup.comp (planted_spv.h with
# -DPLANTED_KEEP_COUNT, planted_half_spv.h with -DPLANTED_DROP_TAIL), so
# the pack's modules hold no planted code; and bug-reverse-round-up,
# plugins/vulkan/subgroup.c itself built with its shaders' planted bug
# (planted_reverse_spv.h with -DPLANTED_REVERSE_ROUND_UP), and
# bug-epoch-keep, the same with its atomic shaders' planted bug
# (planted_epoch_spv.h with -DPLANTED_EPOCH_KEEP: the atomic-epoch finish
# never sets the other result back).
# test_vulkan_shaped.sh: vulkan/rows over a grid of shapes, and its twin
# rows-twin, plugins/vulkan/rows.c built with rows.comp's planted bug
# (rows_twin_spv.h with -DPLANTED_FIXED_LENGTHS: ragged rows taken as
# cols long).
# Both skip (TAP SKIP) without jq or a Vulkan device.
EXTRA_DIST += tests/packs/vulkan/test_vulkan.sh tests/packs/vulkan/planted.c \
	tests/packs/vulkan/test_vulkan_shaped.sh \
	bench/vulkan_on_nvidia.sh bench/vulkan_dispatch_floor.c bench/vulkan_dispatch_floor.comp \
	bench/vulkan_dispatch_floor.sh
if BUILD_VULKAN
TESTS += tests/packs/vulkan/test_vulkan.sh tests/packs/vulkan/test_vulkan_shaped.sh

VULKAN_PLANTED = tests/packs/vulkan/bug-skip-tail.la tests/packs/vulkan/bug-last-byte.la \
	tests/packs/vulkan/bug-stale.la tests/packs/vulkan/bug-one-pass-count.la \
	tests/packs/vulkan/bug-half-tail.la tests/packs/vulkan/half-shifted.la \
	tests/packs/vulkan/bug-reverse-round-up.la tests/packs/vulkan/bug-epoch-keep.la \
	tests/packs/vulkan/rows-twin.la
check_LTLIBRARIES += $(VULKAN_PLANTED)
VULKAN_PLANTED_CPPFLAGS = -I$(top_srcdir)/sdk -I$(top_srcdir) -I$(top_builddir) $(VULKAN_CFLAGS)

tests_packs_vulkan_bug_skip_tail_la_SOURCES = tests/packs/vulkan/planted.c
tests_packs_vulkan_bug_skip_tail_la_CPPFLAGS = $(VULKAN_PLANTED_CPPFLAGS) -DPLANTED=1
tests_packs_vulkan_bug_skip_tail_la_LDFLAGS = $(TEST_PLUGIN_LINK_FLAGS)
tests_packs_vulkan_bug_skip_tail_la_LIBADD = $(VULKAN_LIBS)

tests_packs_vulkan_bug_last_byte_la_SOURCES = tests/packs/vulkan/planted.c
tests_packs_vulkan_bug_last_byte_la_CPPFLAGS = $(VULKAN_PLANTED_CPPFLAGS) -DPLANTED=2
tests_packs_vulkan_bug_last_byte_la_LDFLAGS = $(TEST_PLUGIN_LINK_FLAGS)
tests_packs_vulkan_bug_last_byte_la_LIBADD = $(VULKAN_LIBS)

tests_packs_vulkan_bug_stale_la_SOURCES = tests/packs/vulkan/planted.c
tests_packs_vulkan_bug_stale_la_CPPFLAGS = $(VULKAN_PLANTED_CPPFLAGS) -DPLANTED=3
tests_packs_vulkan_bug_stale_la_LDFLAGS = $(TEST_PLUGIN_LINK_FLAGS)
tests_packs_vulkan_bug_stale_la_LIBADD = $(VULKAN_LIBS)

tests/packs/vulkan/planted_spv.h: plugins/vulkan/shaders/subgroup.comp $(VULKAN_SPV_DEPS)
	$(AM_V_GEN)$(MKDIR_P) tests/packs/vulkan && \
	$(SHELL) $(srcdir)/plugins/vulkan/spirv-embed.sh '$(GLSLC)' $(VULKAN_SHADER_DIR) \
	  subgroup.comp $@ planted_spirv \
	  sum_i32:-DOP_SUM,-DT_I32,-DPLANTED_KEEP_COUNT sum_f32:-DOP_SUM,-DT_F32,-DPLANTED_KEEP_COUNT
nodist_tests_packs_vulkan_bug_one_pass_count_la_SOURCES = tests/packs/vulkan/planted_spv.h
tests_packs_vulkan_bug_one_pass_count_la_SOURCES = tests/packs/vulkan/planted.c
tests_packs_vulkan_bug_one_pass_count_la_CPPFLAGS = $(VULKAN_PLANTED_CPPFLAGS) -DPLANTED=4
tests_packs_vulkan_bug_one_pass_count_la_LDFLAGS = $(TEST_PLUGIN_LINK_FLAGS)
tests_packs_vulkan_bug_one_pass_count_la_LIBADD = $(VULKAN_LIBS)

tests/packs/vulkan/planted_half_spv.h: plugins/vulkan/shaders/subgroup.comp $(VULKAN_SPV_DEPS)
	$(AM_V_GEN)$(MKDIR_P) tests/packs/vulkan && \
	$(SHELL) $(srcdir)/plugins/vulkan/spirv-embed.sh '$(GLSLC)' $(VULKAN_SHADER_DIR) \
	  subgroup.comp $@ planted_half_spirv \
	  sum_f16:-DOP_SUM,-DT_F16,-DPLANTED_DROP_TAIL sum_bf16:-DOP_SUM,-DT_BF16,-DPLANTED_DROP_TAIL \
	  min_f16:-DOP_MIN,-DT_F16,-DPLANTED_DROP_TAIL min_bf16:-DOP_MIN,-DT_BF16,-DPLANTED_DROP_TAIL \
	  max_f16:-DOP_MAX,-DT_F16,-DPLANTED_DROP_TAIL max_bf16:-DOP_MAX,-DT_BF16,-DPLANTED_DROP_TAIL
nodist_tests_packs_vulkan_bug_half_tail_la_SOURCES = tests/packs/vulkan/planted_half_spv.h
tests_packs_vulkan_bug_half_tail_la_SOURCES = tests/packs/vulkan/planted.c
tests_packs_vulkan_bug_half_tail_la_CPPFLAGS = $(VULKAN_PLANTED_CPPFLAGS) -DPLANTED=5
tests_packs_vulkan_bug_half_tail_la_LDFLAGS = $(TEST_PLUGIN_LINK_FLAGS)
tests_packs_vulkan_bug_half_tail_la_LIBADD = $(VULKAN_LIBS)

tests_packs_vulkan_half_shifted_la_SOURCES = tests/packs/vulkan/planted.c
tests_packs_vulkan_half_shifted_la_CPPFLAGS = $(VULKAN_PLANTED_CPPFLAGS) -DPLANTED=6
tests_packs_vulkan_half_shifted_la_LDFLAGS = $(TEST_PLUGIN_LINK_FLAGS)
tests_packs_vulkan_half_shifted_la_LIBADD = $(VULKAN_LIBS)
tests/packs/vulkan/planted_reverse_spv.h: plugins/vulkan/shaders/subgroup.comp $(VULKAN_SPV_DEPS)
	$(AM_V_GEN)$(MKDIR_P) tests/packs/vulkan && \
	$(SHELL) $(srcdir)/plugins/vulkan/spirv-embed.sh '$(GLSLC)' $(VULKAN_SHADER_DIR) \
	  subgroup.comp $@ subgroup_spirv \
	  sum_i32:-DOP_SUM,-DT_I32,-DPLANTED_REVERSE_ROUND_UP sum_f32:-DOP_SUM,-DT_F32,-DPLANTED_REVERSE_ROUND_UP
nodist_tests_packs_vulkan_bug_reverse_round_up_la_SOURCES = tests/packs/vulkan/planted_reverse_spv.h
tests_packs_vulkan_bug_reverse_round_up_la_SOURCES = plugins/vulkan/subgroup.c
tests_packs_vulkan_bug_reverse_round_up_la_CPPFLAGS = $(VULKAN_PLANTED_CPPFLAGS) \
	-DSUBGROUP_NAME='"bug-reverse-round-up"' -DSUBGROUP_SPV='"tests/packs/vulkan/planted_reverse_spv.h"'
tests_packs_vulkan_bug_reverse_round_up_la_LDFLAGS = $(TEST_PLUGIN_LINK_FLAGS)
tests_packs_vulkan_bug_reverse_round_up_la_LIBADD = $(VULKAN_LIBS)
tests/packs/vulkan/planted_epoch_spv.h: plugins/vulkan/shaders/subgroup.comp $(VULKAN_SPV_DEPS)
	$(AM_V_GEN)$(MKDIR_P) tests/packs/vulkan && \
	$(SHELL) $(srcdir)/plugins/vulkan/spirv-embed.sh '$(GLSLC)' $(VULKAN_SHADER_DIR) \
	  subgroup.comp $@ subgroup_spirv \
	  sum_i32_atomic:-DOP_SUM,-DT_I32,-DATOMIC,-DPLANTED_EPOCH_KEEP \
	  max_i32_atomic:-DOP_MAX,-DT_I32,-DATOMIC,-DPLANTED_EPOCH_KEEP
nodist_tests_packs_vulkan_bug_epoch_keep_la_SOURCES = tests/packs/vulkan/planted_epoch_spv.h
tests_packs_vulkan_bug_epoch_keep_la_SOURCES = plugins/vulkan/subgroup.c
tests_packs_vulkan_bug_epoch_keep_la_CPPFLAGS = $(VULKAN_PLANTED_CPPFLAGS) \
	-DSUBGROUP_NAME='"bug-epoch-keep"' -DSUBGROUP_SPV='"tests/packs/vulkan/planted_epoch_spv.h"'
tests_packs_vulkan_bug_epoch_keep_la_LDFLAGS = $(TEST_PLUGIN_LINK_FLAGS)
tests_packs_vulkan_bug_epoch_keep_la_LIBADD = $(VULKAN_LIBS)
tests/packs/vulkan/rows_twin_spv.h: plugins/vulkan/shaders/rows.comp $(VULKAN_SPV_DEPS)
	$(AM_V_GEN)$(MKDIR_P) tests/packs/vulkan && \
	$(SHELL) $(srcdir)/plugins/vulkan/spirv-embed.sh '$(GLSLC)' $(VULKAN_SHADER_DIR) \
	  rows.comp $@ rows_spirv \
	  sum_i32:-DOP_SUM,-DT_I32,-DPLANTED_FIXED_LENGTHS sum_f32:-DOP_SUM,-DT_F32,-DPLANTED_FIXED_LENGTHS \
	  max_i32:-DOP_MAX,-DT_I32,-DPLANTED_FIXED_LENGTHS max_f32:-DOP_MAX,-DT_F32,-DPLANTED_FIXED_LENGTHS \
	  argmax_i32:-DARGMAX,-DT_I32,-DPLANTED_FIXED_LENGTHS \
	  argmax_f32:-DARGMAX,-DT_F32,-DPLANTED_FIXED_LENGTHS
nodist_tests_packs_vulkan_rows_twin_la_SOURCES = tests/packs/vulkan/rows_twin_spv.h
tests_packs_vulkan_rows_twin_la_SOURCES = plugins/vulkan/rows.c
tests_packs_vulkan_rows_twin_la_CPPFLAGS = $(VULKAN_PLANTED_CPPFLAGS) \
	-DROWS_NAME='"rows-twin"' -DROWS_SPV='"tests/packs/vulkan/rows_twin_spv.h"'
tests_packs_vulkan_rows_twin_la_LDFLAGS = $(TEST_PLUGIN_LINK_FLAGS)
tests_packs_vulkan_rows_twin_la_LIBADD = $(VULKAN_LIBS)
BUILT_SOURCES += tests/packs/vulkan/planted_spv.h tests/packs/vulkan/planted_half_spv.h \
	tests/packs/vulkan/planted_reverse_spv.h tests/packs/vulkan/rows_twin_spv.h \
	tests/packs/vulkan/planted_epoch_spv.h

# The folder test_vulkan.sh points --plugin-path at.
tests/packs/vulkan/dir.stamp: $(VULKAN_PLANTED)
	$(AM_V_GEN)$(gather_plugins) tests/packs/vulkan/dir $(VULKAN_PLANTED) && touch $@
check_DATA += tests/packs/vulkan/dir.stamp
endif
CLEANFILES += tests/packs/vulkan/dir.stamp tests/packs/vulkan/dir/*.so \
	tests/packs/vulkan/planted_spv.h tests/packs/vulkan/planted_half_spv.h \
	tests/packs/vulkan/planted_reverse_spv.h tests/packs/vulkan/rows_twin_spv.h \
	tests/packs/vulkan/planted_epoch_spv.h
