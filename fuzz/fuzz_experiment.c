/* fuzz/fuzz_experiment.c: a fuzzing harness (libFuzzer's entry point) for
 * the experiment loader. Each input is an experiment file: it is loaded
 * (experiment_load_text) and expanded (sweep_expand) against a registry built
 * in memory, with plugins that declare every kind of parameter. Errors in the
 * input are expected and reported through diag; a crash, a hang, a leak or a
 * sanitizer report is a bug. Built by fuzz/run.sh with libFuzzer, and by
 * `make check` with fuzz/replay.c to replay the seed corpus and every input
 * that once found a bug (fuzz/regressions/experiment/). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <redbench/plugin.h>

#include "base/diag.h"
#include "fuzz_sweep.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const variants[] = {"divergent", "sequential", "warp-unroll", NULL};

static const rb_param_spec tree_params[] = {
    {.name = "block", .type = RB_PARAM_INT, .default_value = "256", .min = 32, .max = 1024,
     .flags = RB_PARAM_POW2, .help = "threads per block"},
    {.name = "variant", .type = RB_PARAM_CHOICE, .default_value = "sequential",
     .choices = variants, .help = "which kernel"},
    {.name = "unroll", .type = RB_PARAM_BOOL, .default_value = "false", .help = "unroll"},
    {.name = "grid", .type = RB_PARAM_INT, .default_value = "auto", .min = 0, .max = 1 << 20,
     .flags = RB_PARAM_AUTO, .help = "blocks, or auto"},
    {.name = "items", .type = RB_PARAM_INT, .default_value = "-3", .min = INT64_MIN,
     .max = INT64_MAX, .help = "any whole number"},
};

static int fake_init(const rb_config *cfg, void **state) { (void)cfg; *state = NULL; return RB_OK; }
static int fake_run(void *state) { (void)state; return RB_OK; }
static int fake_verify(void *state, rb_result *r) { (void)state; (void)r; return RB_OK; }
static void fake_teardown(void *state) { (void)state; }

#define FAKE_PLUGIN(NAME, BACKEND, OPS, DTYPES, PARAMS, N_PARAMS)                                 \
    {.abi_major = REDBENCH_ABI_MAJOR, .abi_minor = REDBENCH_ABI_MINOR, .size = sizeof(rb_plugin), \
     .name = NAME, .summary = "fuzzing", .version = "1", .backend = BACKEND, .ops = OPS,          \
     .dtypes = DTYPES, .params = PARAMS, .n_params = N_PARAMS, .init = fake_init,                 \
     .run = fake_run, .verify = fake_verify, .teardown = fake_teardown}

static const rb_plugin plugins[] = {
    FAKE_PLUGIN("tree", "cuda", 0x1f, 0x1f, tree_params, 5),
    FAKE_PLUGIN("serial", "cpu", 0x0f, 0x0f, NULL, 0),
    FAKE_PLUGIN("tree", "cpu", 0x01, 0x04, NULL, 0), /* the same name in another pack */
};

static rb_loaded_plugin loaded[] = {
    {.path = "/fuzz/cuda/tree.so", .pack = "cuda", .desc = &plugins[0]},
    {.path = "/fuzz/cpu/serial.so", .pack = "cpu", .desc = &plugins[1]},
    {.path = "/fuzz/other/tree.so", .pack = "other", .desc = &plugins[2]},
};

static char *search_dirs[] = {"/fuzz/cuda", "/fuzz/cpu", "/fuzz/other"};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    rb_registry reg;
    memset(&reg, 0, sizeof reg);
    reg.plugins = loaded;
    reg.n_plugins = reg.cap_plugins = sizeof loaded / sizeof loaded[0];
    reg.dirs = search_dirs;
    reg.n_dirs = sizeof search_dirs / sizeof search_dirs[0];

    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0'; /* text past a NUL is not read, as with a file */

    fuzz_load_and_expand(text, &reg);
    free(text);
    return 0;
}
