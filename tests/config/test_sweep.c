/* tests/config/test_sweep.c: expansion of [run] sections into configurations
 * (src/config/sweep.c) against plugin descriptors built here: product size and
 * order, defaults, overrides, and the error for each kind of bad value. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/diag.h"
#include "base/names.h"
#include "config/experiment.h"
#include "config/sweep.h"
#include "capture.h"
#include "tap.h"

/* ---- plugins, declared here ---- */

static const char *const variants[] = {"divergent", "sequential", "first_add", NULL};

static const rb_param_spec tree_params[] = {
    {"variant", RB_PARAM_CHOICE, "sequential", 0, 0, variants, 0, "addressing scheme"},
    {"block", RB_PARAM_INT, "256", 32, 1024, NULL, RB_PARAM_POW2, "threads per block"},
    {"grid", RB_PARAM_INT, "auto", 1, 65535, NULL, RB_PARAM_AUTO, "blocks"},
    {"unroll", RB_PARAM_BOOL, "false", 0, 0, NULL, 0, "unroll the last warp"},
};

static const rb_param_spec broken_params[] = {
    {"block", RB_PARAM_INT, "100", 32, 1024, NULL, RB_PARAM_POW2, "threads per block"},
};

static const rb_plugin tree = {
    .abi_major = REDBENCH_ABI_MAJOR, .abi_minor = REDBENCH_ABI_MINOR, .size = sizeof(rb_plugin),
    .name = "tree", .summary = "tree reduction", .version = "1.0", .backend = "cpu",
    .ops = RB_OP_BIT(RB_OP_SUM), .dtypes = RB_DTYPE_BIT(RB_DTYPE_F32),
    .params = tree_params, .n_params = 4,
};

static const rb_plugin serial = {
    .abi_major = REDBENCH_ABI_MAJOR, .abi_minor = REDBENCH_ABI_MINOR, .size = sizeof(rb_plugin),
    .name = "serial", .summary = "one loop", .version = "1.0", .backend = "cpu",
    .ops = RB_OP_BIT(RB_OP_SUM), .dtypes = RB_DTYPE_BIT(RB_DTYPE_F32),
};

static const rb_plugin broken = {
    .abi_major = REDBENCH_ABI_MAJOR, .abi_minor = REDBENCH_ABI_MINOR, .size = sizeof(rb_plugin),
    .name = "broken", .summary = "bad default", .version = "1.0", .backend = "cpu",
    .ops = RB_OP_BIT(RB_OP_SUM), .dtypes = RB_DTYPE_BIT(RB_DTYPE_F32),
    .params = broken_params, .n_params = 1,
};

static rb_loaded_plugin loaded[] = {
    {.path = "/p/cpu/tree.so", .pack = "cpu", .desc = &tree},
    {.path = "/p/cpu/serial.so", .pack = "cpu", .desc = &serial},
    {.path = "/p/cpu/broken.so", .pack = "cpu", .desc = &broken},
};
static char *dirs[] = {"/opt/a", "/opt/b"};
static rb_registry registry = {.dirs = dirs, .n_dirs = 2, .plugins = loaded, .n_plugins = 3,
                               .cap_plugins = 3};

/* ---- helpers ---- */

/* Expands an experiment given as text; returns the number of sweep errors
 * (-1 when the text itself does not load), messages captured. */
static int expand(const char *text, rb_experiment *exp, rb_sweep *sweep)
{
    memset(sweep, 0, sizeof *sweep);
    capture_start();
    int errors = experiment_load_text("s.ini", text, exp);
    if (errors == 0)
        errors = sweep_expand(exp, &registry, sweep);
    else
        errors = -1;
    capture_end();
    if (errors < 0)
        diag("the experiment does not load:\n%s", captured);
    return errors;
}

/* One bad experiment: `errors` errors, one of them containing `want`, and
 * no configuration built. */
static void refused(const char *what, const char *text, int errors, const char *want)
{
    rb_experiment exp;
    rb_sweep sweep;
    int got = expand(text, &exp, &sweep);
    ok(got == errors && sweep.n_configs == 0 && says(want), "%s: %d error(s), '%s'", what, errors,
       want);
    if (got != errors)
        diag("  got %d errors", got);
    sweep_free(&sweep);
    experiment_free(&exp);
}

/* Each bad experiment of a table, as refused() checks one. */
static void refused_each(const struct refusal *cases, size_t n)
{
    for (size_t k = 0; k < n; k++)
        refused(cases[k].what, cases[k].text, cases[k].errors, cases[k].want);
}

static const char *param_text(const rb_configuration *cfg, const char *name)
{
    for (uint32_t k = 0; k < cfg->n_params; k++)
        if (strcmp(cfg->params[k].name, name) == 0)
            return cfg->params[k].text;
    return "(absent)";
}

/* ---- valid sweeps ---- */

static void test_product(void)
{
    rb_experiment exp;
    rb_sweep sweep;
    int errors = expand("[data]\nop = sum, max\nn = 4M, 1K\n"
                        "[run t]\nplugin = tree\nblock = 128, 0256\nvariant = divergent, first_add\n",
                        &exp, &sweep);
    is_int(errors, 0, "a sweep of 2 x 2 x 2 x 2 expands");
    is_int((long long)sweep.n_configs, 16, "16 configurations");
    if (sweep.n_configs != 16) {
        for (int k = 0; k < 13; k++)
            ok(0, "configurations");
        goto out;
    }
    const rb_configuration *c = sweep.configs;
    ok(c[0].op == RB_OP_SUM && c[0].n == 4194304 && strcmp(param_text(&c[0], "variant"),
                                                               "divergent") == 0 &&
           strcmp(param_text(&c[0], "block"), "128") == 0,
       "first: sum, 4M, divergent, block 128");
    is_str(param_text(&c[1], "block"), "256", "the last axis (block) varies fastest");
    is_str(param_text(&c[2], "variant"), "first_add", "then variant, in declaration order");
    ok(c[4].n == 1024 && c[4].op == RB_OP_SUM, "then n");
    ok(c[8].op == RB_OP_MAX && c[8].n == 4194304, "op is outermost");
    ok(c[15].op == RB_OP_MAX && c[15].n == 1024 && c[15].params[1].i == 256 &&
           c[15].params[0].i == 2,
       "last: max, 1K, first_add (choice 2), block 256");
    ok(c[0].index == 0 && c[7].index == 7 && c[15].index == 15, "index is the position");
    is_str(c[0].params_text, "variant=divergent block=128 grid=auto unroll=false",
           "params_text lists every parameter in declaration order, defaults filled");
    ok(c[0].n_params == 4 && c[0].params[0].name == tree_params[0].name &&
           c[0].params[3].name == tree_params[3].name,
       "parameter names point to the descriptor");
    ok(c[0].params[2].i == 0 && strcmp(c[0].params[2].text, "auto") == 0,
       "grid defaults to auto, seen as 0");
    ok(c[3].dtype == RB_DTYPE_F32 && c[3].distribution == RB_DIST_UNIFORM && c[3].bins == 256,
       "data defaults: f32, uniform, 256 bins");
    ok(c[9].plugin == &loaded[0] && c[9].run == &exp.runs[0] && c[9].skip_reason == NULL,
       "each configuration points to its run and plugin");
    ok(c[0].params_text != c[1].params_text && c[0].params[1].text != c[2].params[1].text,
       "each configuration owns its texts");
out:
    sweep_free(&sweep);
    experiment_free(&exp);
}

static void test_defaults_and_overrides(void)
{
    rb_experiment exp;
    rb_sweep sweep;
    int errors = expand("[run s]\nplugin = serial\n", &exp, &sweep);
    ok(errors == 0 && sweep.n_configs == 1, "a run without lists is one configuration");
    if (sweep.n_configs == 1) {
        const rb_configuration *c = &sweep.configs[0];
        ok(c->op == RB_OP_SUM && c->dtype == RB_DTYPE_F32 && c->n == 1048576 &&
               c->distribution == RB_DIST_UNIFORM && c->bins == 256,
           "defaults: sum, f32, 1M, uniform, 256 bins");
        ok(c->n_params == 0 && c->params_text && strcmp(c->params_text, "") == 0,
           "a plugin without parameters: empty params_text");
    } else {
        ok(0, "defaults");
        ok(0, "params_text");
    }
    sweep_free(&sweep);
    experiment_free(&exp);

    errors = expand("[data]\nn = 4M\ndtype = i32\n"
                    "[run small]\nplugin = serial\nn = 1K, 2K\n"
                    "[run big]\nplugin = tree\nunroll = yes\ngrid = 0064, auto\n"
                    "[run bytes]\nplugin = serial\ndtype = u8\ndistribution = float-bytes\n"
                    "op = histogram\nbins = 16\n",
                    &exp, &sweep);
    is_int(errors, 0, "per-run overrides expand");
    is_int((long long)sweep.n_configs, 5, "2 + 2 + 1 configurations");
    if (sweep.n_configs == 5) {
        const rb_configuration *c = sweep.configs;
        ok(c[0].n == 1024 && c[1].n == 2048 && c[0].dtype == RB_DTYPE_I32,
           "[run small] overrides n and keeps dtype from [data]");
        ok(c[2].n == 4194304 && c[2].dtype == RB_DTYPE_I32, "[run big] takes n from [data]");
        is_str(c[2].params_text, "variant=sequential block=256 grid=64 unroll=true",
               "values are normalized (0064 -> 64, yes -> true)");
        ok(c[3].params[2].i == 0 && strcmp(c[3].params[2].text, "auto") == 0,
           "grid = auto is 0");
        ok(c[4].op == RB_OP_HISTOGRAM && c[4].dtype == RB_DTYPE_U8 &&
               c[4].distribution == RB_DIST_FLOAT_BYTES && c[4].bins == 16,
           "histogram of u8 float bytes in 16 bins");
        ok(c[2].plugin == &loaded[0] && c[2].op == RB_OP_SUM,
           "an op the plugin does not declare is not an error here");
    } else {
        for (int k = 0; k < 6; k++)
            ok(0, "overrides");
    }
    sweep_free(&sweep);
    experiment_free(&exp);
}

static void test_optional(void)
{
    rb_experiment exp;
    rb_sweep sweep;
    int errors = expand("[run there]\nplugin = serial\n"
                        "[run gone]\nplugin = vendor_tree\noptional = true\nn = 1K, 2K\n"
                        "block = 128, 256\nvariant = x\n",
                        &exp, &sweep);
    is_int(errors, 0, "an optional run with an absent plugin is not an error");
    is_int((long long)sweep.n_configs, 3, "one row per data combination of the absent plugin");
    if (sweep.n_configs == 3) {
        const rb_configuration *c = &sweep.configs[1];
        ok(c->plugin == NULL && c->n == 1024 && sweep.configs[2].n == 2048,
           "no plugin; n is still an axis");
        is_str(c->skip_reason, "plugin 'vendor_tree' not found (searched: /opt/a, /opt/b)",
               "skip_reason names the plugin and the folders searched");
        is_str(c->params_text, "block=128,256 variant=x", "params_text is the keys as written");
    } else {
        for (int k = 0; k < 3; k++)
            ok(0, "optional");
    }
    sweep_free(&sweep);
    experiment_free(&exp);
}

/* ---- mistakes ---- */

/* Mistakes in a run: plugins, parameters and their values. */
static const struct refusal run_mistakes[] = {
    {"unknown plugin", "[run a]\nplugin = serial\n[run b]\n\nplugin = tre\n", 1,
     "s.ini:5: error: unknown plugin 'tre'; available: tree, serial, broken"},
    {"unknown parameter", "[run a]\nplugin = tree\nblok = 128\n", 1,
     "s.ini:3: error: plugin 'tree' has no parameter 'blok'; its parameters: variant, "
     "block, grid, unroll"},
    {"parameter of a plugin without any", "[run a]\nplugin = serial\nblock = 128\n", 1,
     "s.ini:3: error: plugin 'serial' has no parameter 'block': it takes no parameters"},
    {"value out of range", "[run a]\nplugin = tree\nblock = 64, 2048\n", 1,
     "s.ini:3: error: block = 64, 2048: '2048' is out of range; valid for parameter "
     "'block' of plugin 'tree': a power of two from 32 to 1024"},
    {"not a power of two", "[run a]\nplugin = tree\nblock = 100\n", 1,
     "s.ini:3: error: block = 100: '100' is not a power of two; valid for parameter "
     "'block' of plugin 'tree': a power of two from 32 to 1024"},
    {"not a number", "[run a]\nplugin = tree\ngrid = lots\n", 1,
     "s.ini:3: error: grid = lots: 'lots' is not a whole number; valid for parameter "
     "'grid' of plugin 'tree': a whole number from 1 to 65535, or auto"},
    {"auto where it is not accepted", "[run a]\nplugin = tree\nblock = auto\n", 1,
     "s.ini:3: error: block = auto: 'auto' is not a whole number"},
    {"bad choice", "[run a]\nplugin = tree\nvariant = sequential, fast\n", 1,
     "s.ini:3: error: variant = sequential, fast: 'fast' is not one of the choices; valid "
     "for parameter 'variant' of plugin 'tree': divergent, sequential, first_add"},
    {"bad boolean", "[run a]\nplugin = tree\nunroll = maybe\n", 1,
     "s.ini:3: error: unroll = maybe: 'maybe' is not a boolean; valid for parameter "
     "'unroll' of plugin 'tree': true or false"},
    {"empty sweep item", "[run a]\nplugin = tree\nblock = 128,,256\n", 1,
     "s.ini:3: error: block = 128,,256: item 2 of the list is empty; remove the extra comma"},
    {"trailing comma", "[run a]\nplugin = tree\nn = 1K, 2K,\n", 1,
     "s.ini:3: error: n = 1K, 2K,: item 3 of the list is empty"},
    {"bad default in a descriptor", "[run a]\nplugin = broken\n", 1,
     "s.ini:2: error: plugin 'broken' (/p/cpu/broken.so) declares a bad default for "
     "parameter 'block': '100' is not a power of two"},
    {"several errors in one run, all reported",
     "[run a]\nplugin = tree\nblock = 3\nvariant = x\nwarp = 1\n", 3,
     "s.ini:5: error: plugin 'tree' has no parameter 'warp'"},
};

static void test_errors(void)
{
    refused_each(run_mistakes, N_REFUSALS(run_mistakes));
}

/* Mistakes in the data keys, of [data] or of a run. */
static const struct refusal data_mistakes[] = {
    {"unknown op", "[data]\nop = sum, summ\n[run a]\nplugin = serial\n", 1,
     "s.ini:2: error: unknown op 'summ'; valid: sum, min, max, argmax, histogram"},
    {"unknown dtype", "[run a]\nplugin = serial\ndtype = float\n", 1,
     "s.ini:3: error: unknown dtype 'float'; valid: i32, i64, f32, f64, u8"},
    {"unknown distribution", "[run a]\nplugin = serial\ndistribution = normal\n", 1,
     "s.ini:3: error: unknown distribution 'normal'; valid: uniform, signed, small, ones, "
     "float-bytes"},
    {"bad size suffix", "[data]\nn = 4X\n[run a]\nplugin = serial\n", 1,
     "s.ini:2: error: n = 4X: unknown size suffix; valid suffixes are K, M, G, T"},
    {"fractional size", "[run a]\nplugin = serial\nn = 1.5M\n", 1,
     "s.ini:3: error: n = 1.5M: a size must be a whole number"},
    {"n too large", "[run a]\nplugin = serial\nn = 2T\n", 1,
     "s.ini:3: error: n = 2T is out of range; valid: 1 to 1T (2^40 elements)"},
    {"n of zero", "[run a]\nplugin = serial\nn = 0\n", 1,
     "s.ini:3: error: n = 0 is out of range; valid: 1 to 1T"},
    {"too many bins", "[run a]\nplugin = serial\nbins = 300\n", 1,
     "s.ini:3: error: bins = 300 is out of range; valid: 1 to 256"},
    {"float-bytes with f32", "[run a]\nplugin = serial\ndistribution = float-bytes\n", 1,
     "s.ini:3: error: distribution float-bytes is for dtype u8 only, but [run a] has "
     "dtype f32"},
    {"a bad [data] value is reported once for all runs",
     "[data]\nop = prod\n[run a]\nplugin = serial\n[run b]\nplugin = tree\n", 1,
     "s.ini:2: error: unknown op 'prod'"},
    {"a float-bytes conflict in [data] is reported once",
     "[data]\ndistribution = float-bytes\n[run a]\nplugin = serial\n[run b]\n"
     "plugin = serial\n",
     1, "s.ini:2: error: distribution float-bytes is for dtype u8 only"},
};

static void test_data_errors(void)
{
    refused_each(data_mistakes, N_REFUSALS(data_mistakes));
}

static void test_limits(void)
{
    refused("an absurd product is refused with its count",
            "[data]\nop = sum, min, max, argmax, histogram\ndtype = i32, i64, f32, f64, u8\n"
            "n = 1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20\n"
            "distribution = uniform, signed, small, ones\n"
            "bins = 1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,"
            "29,30,31,32,33,34,35,36,37,38,39,40\n"
            "[run a]\nplugin = tree\nblock = 32, 64, 128, 256, 512, 1024\n"
            "variant = divergent, sequential, first_add\nunroll = true, false\n",
            1,
            "s.ini:7: error: [run a] expands to 2880000 configurations (op 5 x dtype 5 x n 20 x "
            "distribution 4 x bins 40 x variant 3 x block 6 x unroll 2); the most redbench "
            "accepts is 100000");
    refused("runs that are each small but too many together",
            "[data]\nop = sum, min, max, argmax, histogram\n"
            "n = 1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30\n"
            "bins = 1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,"
            "29,30,31,32,33,34,35,36,37,38,39,40\n"
            "[run a]\nplugin = tree\ngrid = 1,2,3,4,5,6,7,8,9,10\n"
            "[run b]\nplugin = tree\ngrid = 1,2,3,4,5,6,7,8,9,10\n",
            1, "s.ini: error: the experiment expands to 120000 configurations in all; the most "
               "redbench accepts is 100000");
}

int main(void)
{
    plan(57);
    test_product();
    test_defaults_and_overrides();
    test_optional();
    test_errors();
    test_data_errors();
    test_limits();
    return done();
}
