/* fuzz/fuzz_descriptor.c: a fuzzing harness (libFuzzer's entry point) for
 * descriptor validation. Each input is read as a plugin descriptor (version
 * fields, size, strings that may be NULL or far too long, op and dtype masks,
 * callbacks that may be missing, a parameter table that may be absurd) and
 * handed to the registry through a real module, fuzz-plugin.so
 * (fuzz_plugin.c), exactly as a plugin's would be: registry_load_file
 * accepts or rejects it. An accepted one is then printed by --describe and
 * used by an experiment made of the input's remaining bytes. Pointers are
 * always valid (the host cannot check them); every value is fair game.
 *
 * The module is found through $FUZZ_PLUGIN, else beside the executable. */
#include <dlfcn.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <redbench/plugin.h>

#include "base/diag.h"
#include "cli/commands.h"
#include "fuzz_sweep.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_PARAMS 70     /* more than the registry accepts */
#define MAX_CHOICES 70
#define LONG_STRING 300   /* longer than any name or text the registry accepts */

/* ---- reading the input ---- */

typedef struct reader {
    const uint8_t *p;
    size_t n;
} reader;

static uint8_t take_u8(reader *r)
{
    if (r->n == 0)
        return 0;
    r->n--;
    return *r->p++;
}

static uint64_t take_u64(reader *r, int bytes)
{
    uint64_t v = 0;
    for (int k = 0; k < bytes; k++)
        v = v << 8 | take_u8(r);
    return v;
}

/* Everything allocated for one descriptor, freed after it was used. */
typedef struct arena {
    void **blocks;
    size_t count, cap;
} arena;

static void *keep(arena *a, void *block)
{
    if (!block)
        abort();
    if (a->count == a->cap) {
        a->cap = a->cap ? a->cap * 2 : 64;
        a->blocks = realloc(a->blocks, a->cap * sizeof *a->blocks);
        if (!a->blocks)
            abort();
    }
    a->blocks[a->count++] = block;
    return block;
}

static void arena_free(arena *a)
{
    for (size_t k = 0; k < a->count; k++)
        free(a->blocks[k]);
    free(a->blocks);
}

/* A string: 0xff gives NULL, 0xfe a string too long to accept, else a
 * length byte and that many bytes (any bytes but NUL). */
static const char *take_string(reader *r, arena *a)
{
    uint8_t kind = take_u8(r);
    if (kind == 0xff)
        return NULL;
    size_t len = kind == 0xfe ? LONG_STRING : kind;
    char *s = keep(a, malloc(len + 1));
    for (size_t k = 0; k < len; k++) {
        s[k] = kind == 0xfe ? 'a' : (char)take_u8(r);
        if (s[k] == '\0')
            s[k] = 'x';
    }
    s[len] = '\0';
    return s;
}

/* ---- building the descriptor ---- */

static int cb_describe(const rb_config *cfg, rb_description *out) { (void)cfg; (void)out; return RB_OK; }
static int cb_init(const rb_config *cfg, void **state) { (void)cfg; *state = NULL; return RB_OK; }
static int cb_run(void *state) { (void)state; return RB_OK; }
static int cb_verify(void *state, rb_result *r) { (void)state; (void)r; return RB_OK; }
static void cb_teardown(void *state) { (void)state; }

static void take_param(reader *r, arena *a, rb_param_spec *p)
{
    p->name = take_string(r, a);
    p->type = take_u8(r) % 5;
    p->default_value = take_string(r, a);
    p->min = (int64_t)take_u64(r, 8);
    p->max = (int64_t)take_u64(r, 8);
    uint8_t choices = take_u8(r);
    if (choices != 0xff) {
        size_t count = choices % MAX_CHOICES;
        const char **list = keep(a, calloc(count + 1, sizeof *list));
        for (size_t k = 0; k < count; k++)
            list[k] = take_string(r, a); /* a NULL ends the list early */
        p->choices = list;
    }
    p->flags = take_u8(r);
    p->help = take_string(r, a);
}

static void take_descriptor(reader *r, arena *a, rb_plugin *d)
{
    uint8_t how = take_u8(r);
    memset(d, 0, sizeof *d);
    d->abi_major = how & 1 ? (uint32_t)take_u64(r, 4) : REDBENCH_ABI_MAJOR;
    d->abi_minor = how & 2 ? (uint32_t)take_u64(r, 4) : REDBENCH_ABI_MINOR;
    d->size = how & 4 ? (uint32_t)(take_u64(r, 2) % (sizeof *d + 64)) : (uint32_t)sizeof *d;
    d->name = take_string(r, a);
    d->summary = take_string(r, a);
    d->version = take_string(r, a);
    d->backend = how & 8 ? take_string(r, a) : "cpu";
    d->ops = how & 16 ? (uint32_t)take_u64(r, 4) : 0x1f;
    d->dtypes = how & 32 ? (uint32_t)take_u64(r, 4) : 0x1f;
    uint8_t callbacks = how & 64 ? take_u8(r) : 0x1f;
    d->describe = callbacks & 1 ? cb_describe : NULL;
    d->init = callbacks & 2 ? cb_init : NULL;
    d->run = callbacks & 4 ? cb_run : NULL;
    d->verify = callbacks & 8 ? cb_verify : NULL;
    d->teardown = callbacks & 16 ? cb_teardown : NULL;
    uint8_t count = take_u8(r);
    if (count >= 0xf0) {
        /* a count far beyond the table: only one entry, or none, is there */
        rb_param_spec *one = keep(a, calloc(1, sizeof *one));
        d->params = count & 1 ? one : NULL;
        d->n_params = (uint32_t)take_u64(r, 4) | 0x100u;
        return;
    }
    d->n_params = count % MAX_PARAMS;
    if (d->n_params == 0)
        return;
    rb_param_spec *params = keep(a, calloc(d->n_params, sizeof *params));
    for (uint32_t k = 0; k < d->n_params; k++)
        take_param(r, a, &params[k]);
    d->params = params;
}

/* ---- the module ---- */

static void (*set_descriptor)(const rb_plugin *);
static char plugin_path[PATH_MAX];

static void load_module(void)
{
    const char *env = getenv("FUZZ_PLUGIN");
    if (env && *env) {
        snprintf(plugin_path, sizeof plugin_path, "%s", env);
    } else {
        char self[PATH_MAX - 32];
        ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
        self[len > 0 ? len : 0] = '\0';
        char *slash = strrchr(self, '/');
        if (slash)
            *slash = '\0';
        snprintf(plugin_path, sizeof plugin_path, "%s/fuzz-plugin.so", self);
    }
    /* Held open for good: the registry's dlclose of a rejected plugin must
     * not unload it. */
    void *handle = dlopen(plugin_path, RTLD_NOW | RTLD_LOCAL);
    if (handle)
        *(void **)&set_descriptor = dlsym(handle, "fuzz_plugin_set");
    if (!set_descriptor) {
        fprintf(stderr, "fuzz_descriptor: cannot load %s (set FUZZ_PLUGIN): %s\n", plugin_path,
                dlerror());
        exit(2);
    }
    /* --describe prints to standard output: keep it out of the way. */
    if (!freopen("/dev/null", "w", stdout))
        exit(2);
}

/* The experiment: a run of the plugin, then the rest of the input. */
static char *experiment_text(const char *name, const reader *r)
{
    static const char head[] = "[data]\nn = 1K\n[run fuzz]\nplugin = ";
    size_t len = sizeof head - 1 + strlen(name) + 1 + r->n;
    char *text = malloc(len + 1);
    if (!text)
        abort();
    size_t at = (size_t)snprintf(text, len + 1, "%s%s\n", head, name);
    memcpy(text + at, r->p, r->n);
    text[at + r->n] = '\0';
    return text;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!set_descriptor)
        load_module();
    reader r = {data, size};
    arena a = {0};
    rb_plugin descriptor;
    take_descriptor(&r, &a, &descriptor);
    set_descriptor(&descriptor);

    rb_registry reg;
    memset(&reg, 0, sizeof reg);
    if (registry_load_file(&reg, plugin_path, "fuzz") == 0 && reg.n_plugins == 1) {
        const char *name = reg.plugins[0].desc->name;
        command_describe(&reg, name);
        char *text = experiment_text(name, &r);
        fuzz_load_and_expand(text, &reg);
        free(text);
    }
    registry_free(&reg);
    set_descriptor(NULL);
    arena_free(&a);
    return 0;
}
