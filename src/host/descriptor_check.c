/* src/host/descriptor_check.c: what a plugin or backend descriptor must be
 * for the host to keep it: its ABI version and size, its names and texts
 * (printable, not too long), its callbacks, ops, dtypes and collective, and
 * its parameter table (each default a value of its own parameter). A check
 * that fails records the file as rejected with the reason (reject). The
 * checks run in the loading process, on the descriptor as the file gives
 * it, and again in this process on the descriptor it sends back as data
 * (host/loader.c). */
#include "host/descriptor_check.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/units.h"
#include "base/util.h"

/* Records a rejected file; the same file and reason are recorded once, even
 * when two search folders lead to it. */
void reject(rb_registry *reg, const char *path, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char buf[1024];
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    for (size_t k = 0; k < reg->n_rejected; k++)
        if (strcmp(reg->rejected[k].path, path) == 0 && strcmp(reg->rejected[k].reason, buf) == 0)
            return;
    rb_rejected *r = grow(&reg->rejected, &reg->n_rejected, &reg->cap_rejected, sizeof *r);
    r->path = xstrdup(path);
    r->reason = xstrdup(buf);
}

/* A string of at most `max` bytes that a terminal shows as it is (no
 * control bytes, no C1 controls, valid UTF-8), or NULL. */
int text_ok(const char *s, size_t max)
{
    if (!s)
        return 0;
    size_t n = strnlen(s, max + 1);
    if (n > max)
        return 0;
    char *shown = printable_text(s);
    int same = strcmp(shown, s) == 0;
    free(shown);
    return same;
}

int name_ok(const char *s)
{
    if (!text_ok(s, RB_NAME_MAX) || !*s)
        return 0;
    for (const char *p = s; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '-' || *p == '_'))
            return 0;
    return 1;
}

/* Checks the ABI version and size fields shared by both descriptor kinds. */
int version_ok(rb_registry *reg, const char *path, const char *what, uint32_t major,
               uint32_t minor, uint32_t size, size_t min_size)
{
    if (major != REDBENCH_ABI_MAJOR) {
        reject(reg, path,
               "%s built for ABI %u.%u, but this redbench has ABI %d.%d (major versions differ: "
               "rebuild it against this redbench's SDK)",
               what, major, minor, REDBENCH_ABI_MAJOR, REDBENCH_ABI_MINOR);
        return 0;
    }
    if (minor > REDBENCH_ABI_MINOR) {
        reject(reg, path,
               "%s built for ABI %u.%u, newer than this redbench's ABI %d.%d (update redbench)",
               what, major, minor, REDBENCH_ABI_MAJOR, REDBENCH_ABI_MINOR);
        return 0;
    }
    if (size < min_size) {
        reject(reg, path, "%s descriptor is %u bytes; ABI %u.%u needs at least %zu", what, size,
               major, minor, min_size);
        return 0;
    }
    return 1;
}

/* Whether a parameter's default is a value of the parameter itself: the
 * plugin's own table must hold. */
static int default_ok(rb_registry *reg, const char *path, const rb_param_spec *p)
{
    const char *def = p->default_value, *why;
    int64_t value;
    int flag;
    switch (p->type) {
    case RB_PARAM_INT:
        if ((p->flags & RB_PARAM_AUTO) && strcasecmp(def, "auto") == 0)
            return 1;
        if (parse_int(def, &value, &why) != 0) {
            reject(reg, path, "parameter '%s' has default '%s', which is not a whole number%s",
                   p->name, def, (p->flags & RB_PARAM_AUTO) ? " or auto" : "");
            return 0;
        }
        if (value < p->min || value > p->max) {
            reject(reg, path, "parameter '%s' has default %s, outside its own range %lld..%lld",
                   p->name, def, (long long)p->min, (long long)p->max);
            return 0;
        }
        if ((p->flags & RB_PARAM_POW2) && (value <= 0 || (value & (value - 1)) != 0)) {
            reject(reg, path, "parameter '%s' has default %s, which is not a power of two (the "
                   "parameter takes only powers of two)", p->name, def);
            return 0;
        }
        return 1;
    case RB_PARAM_BOOL:
        if (parse_bool(def, &flag, &why) != 0) {
            reject(reg, path, "parameter '%s' has default '%s', which is not true or false",
                   p->name, def);
            return 0;
        }
        return 1;
    default: /* RB_PARAM_CHOICE, its list already checked */
        for (size_t c = 0; p->choices[c]; c++)
            if (strcmp(p->choices[c], def) == 0)
                return 1;
        strbuf words = {0};
        for (size_t c = 0; p->choices[c]; c++)
            sb_printf(&words, "%s%s", c ? ", " : "", p->choices[c]);
        reject(reg, path, "parameter '%s' has default '%s', which is not one of its choices (%s)",
               p->name, def, words.data);
        sb_free(&words);
        return 0;
    }
}

static int param_spec_ok(rb_registry *reg, const char *path, const rb_param_spec *p, uint32_t k)
{
    if (!name_ok(p->name)) {
        reject(reg, path, "parameter %u has no valid name (lower case letters, digits, - and _, "
               "at most %d characters)", k, RB_NAME_MAX);
        return 0;
    }
    if (!text_ok(p->default_value, RB_TEXT_MAX) || !*p->default_value) {
        reject(reg, path, "parameter '%s' has no default value (or an unprintable one)", p->name);
        return 0;
    }
    if (p->help && !text_ok(p->help, RB_TEXT_MAX)) {
        reject(reg, path, "parameter '%s' has an unprintable help text or one over %d bytes",
               p->name, RB_TEXT_MAX);
        return 0;
    }
    switch (p->type) {
    case RB_PARAM_INT:
        if (p->min > p->max) {
            reject(reg, path, "parameter '%s' has min %lld > max %lld", p->name,
                   (long long)p->min, (long long)p->max);
            return 0;
        }
        break;
    case RB_PARAM_BOOL:
        break;
    case RB_PARAM_CHOICE: {
        if (!p->choices || !p->choices[0]) {
            reject(reg, path, "parameter '%s' is a choice with no choices", p->name);
            return 0;
        }
        size_t c = 0;
        for (; p->choices[c]; c++) {
            if (c >= RB_CHOICES_MAX || !text_ok(p->choices[c], RB_NAME_MAX) || !*p->choices[c]) {
                reject(reg, path, "parameter '%s' has an invalid choice list (at most %d "
                       "printable words of at most %d characters)", p->name, RB_CHOICES_MAX,
                       RB_NAME_MAX);
                return 0;
            }
        }
        break;
    }
    default:
        reject(reg, path, "parameter '%s' has unknown type %d (valid: 1 int, 2 choice, 3 bool)",
               p->name, p->type);
        return 0;
    }
    return default_ok(reg, path, p);
}

/* The plugin's callbacks, one bit each in this order; the first is
 * optional. */
enum { PLUGIN_CB_DESCRIBE, PLUGIN_CB_INIT, PLUGIN_CB_RUN, PLUGIN_CB_VERIFY, PLUGIN_CB_TEARDOWN,
       PLUGIN_CB_GROUP_OPEN, PLUGIN_CB_GROUP_CLOSE };
static const char *const plugin_callback_names[] = {"describe", "init", "run", "verify",
                                                    "teardown", "group_open", "group_close"};

uint32_t plugin_callbacks(const rb_plugin *d)
{
    return (d->describe ? 1u << PLUGIN_CB_DESCRIBE : 0) | (d->init ? 1u << PLUGIN_CB_INIT : 0) |
           (d->run ? 1u << PLUGIN_CB_RUN : 0) | (d->verify ? 1u << PLUGIN_CB_VERIFY : 0) |
           (d->teardown ? 1u << PLUGIN_CB_TEARDOWN : 0) |
           (d->group_open ? 1u << PLUGIN_CB_GROUP_OPEN : 0) |
           (d->group_close ? 1u << PLUGIN_CB_GROUP_CLOSE : 0);
}

/* A descriptor's summary and version: printable, and not too long. */
static int texts_ok(const char *summary, const char *version)
{
    return (!summary || text_ok(summary, RB_TEXT_MAX)) &&
           (!version || text_ok(version, RB_NAME_MAX));
}

/* d: a descriptor copied up to its size; callbacks: which are set. */
/* The ABI minor version that brought each dtype in. */
static const uint32_t dtype_since_minor[RB_DTYPE_COUNT_] = {
    [RB_DTYPE_I32] = 0, [RB_DTYPE_I64] = 0, [RB_DTYPE_F32] = 0, [RB_DTYPE_F64] = 0,
    [RB_DTYPE_U8] = 0,  [RB_DTYPE_F16] = 5, [RB_DTYPE_BF16] = 5};

uint32_t dtypes_of_abi(uint32_t minor)
{
    uint32_t mask = 0;
    for (int t = 0; t < RB_DTYPE_COUNT_; t++)
        if (dtype_since_minor[t] <= minor)
            mask |= RB_DTYPE_BIT(t);
    return mask;
}

int plugin_ok(rb_registry *reg, const char *path, const rb_plugin *d, uint32_t callbacks)
{
    if (!name_ok(d->name)) {
        reject(reg, path, "plugin has no valid name (lower case letters, digits, - and _, at "
               "most %d characters)", RB_NAME_MAX);
        return 0;
    }
    if (!name_ok(d->backend)) {
        reject(reg, path, "plugin '%s' names no valid backend", d->name);
        return 0;
    }
    if (!texts_ok(d->summary, d->version)) {
        reject(reg, path, "plugin '%s' has an unprintable or overlong summary or version "
               "(control bytes, DEL, C1 controls and bytes that are not UTF-8 are refused)",
               d->name);
        return 0;
    }
    for (int k = PLUGIN_CB_INIT; k <= PLUGIN_CB_TEARDOWN; k++)
        if (!(callbacks & (1u << k))) {
            reject(reg, path, "plugin '%s' is missing the required callback '%s'", d->name,
                   plugin_callback_names[k]);
            return 0;
        }
    if (!(callbacks & (1u << PLUGIN_CB_GROUP_OPEN)) != !(callbacks & (1u << PLUGIN_CB_GROUP_CLOSE))) {
        reject(reg, path, "plugin '%s' has %s without %s (a rank group's set-up and its end "
               "come together)", d->name,
               plugin_callback_names[callbacks & (1u << PLUGIN_CB_GROUP_OPEN)
                                         ? PLUGIN_CB_GROUP_OPEN : PLUGIN_CB_GROUP_CLOSE],
               plugin_callback_names[callbacks & (1u << PLUGIN_CB_GROUP_OPEN)
                                         ? PLUGIN_CB_GROUP_CLOSE : PLUGIN_CB_GROUP_OPEN]);
        return 0;
    }
    if (!(d->ops & ((1u << RB_OP_COUNT_) - 1)) || !(d->dtypes & dtypes_of_abi(d->abi_minor))) {
        reject(reg, path, "plugin '%s' declares no known op or dtype", d->name);
        return 0;
    }
    if (d->collective > RB_COLLECTIVE_REDUCE || d->rank_launch > RB_RANK_LAUNCH_MPI) {
        reject(reg, path, "plugin '%s' declares collective %u and rank launch %u (collectives: "
               "0 none, 1 all-reduce, 2 reduce; launches: 0 fork, 1 mpi)", d->name,
               d->collective, d->rank_launch);
        return 0;
    }
    if (d->shapes & ~RB_SHAPES_KNOWN) {
        reject(reg, path, "plugin '%s' declares shapes 0x%x (known: RB_SHAPE_ROWS 0x1, "
               "RB_SHAPE_COLUMNS 0x2, RB_SHAPE_RAGGED 0x4)", d->name, (unsigned)d->shapes);
        return 0;
    }
    if (d->n_params > RB_PARAMS_MAX || (d->n_params && !d->params)) {
        reject(reg, path, "plugin '%s' declares %u parameters (at most %d, with a table)",
               d->name, d->n_params, RB_PARAMS_MAX);
        return 0;
    }
    for (uint32_t k = 0; k < d->n_params; k++) {
        if (!param_spec_ok(reg, path, &d->params[k], k))
            return 0;
        for (uint32_t j = 0; j < k; j++)
            if (strcmp(d->params[j].name, d->params[k].name) == 0) {
                reject(reg, path, "plugin '%s' declares parameter '%s' twice", d->name,
                       d->params[k].name);
                return 0;
            }
    }
    return 1;
}

/* The backend's callbacks, one bit each in this order: the first
 * BACKEND_REQUIRED are required, the others optional (ABI 1.1 and 1.2). */
static const size_t backend_callback_at[] = {
    offsetof(rb_backend, device_count), offsetof(rb_backend, open),
    offsetof(rb_backend, close),        offsetof(rb_backend, queue),
    offsetof(rb_backend, alloc),        offsetof(rb_backend, release),
    offsetof(rb_backend, upload),       offsetof(rb_backend, time_begin),
    offsetof(rb_backend, time_end),     offsetof(rb_backend, synchronize),
    offsetof(rb_backend, flush_cache),  offsetof(rb_backend, measure_peak),
    offsetof(rb_backend, recover),      offsetof(rb_backend, set_timing),
    offsetof(rb_backend, batch_prepare), offsetof(rb_backend, batch_time),
    offsetof(rb_backend, batch_release), offsetof(rb_backend, sample_clocks),
    offsetof(rb_backend, range_push),   offsetof(rb_backend, range_pop),
    offsetof(rb_backend, fill),         offsetof(rb_backend, write),
    offsetof(rb_backend, copy),
};
#define BACKEND_REQUIRED 13

uint32_t backend_callbacks(const rb_backend *d)
{
    uint32_t mask = 0;
    for (size_t k = 0; k < RB_ARRAY_LEN(backend_callback_at); k++) {
        void (*fn)(void);
        memcpy(&fn, (const char *)d + backend_callback_at[k], sizeof fn);
        if (fn)
            mask |= 1u << k;
    }
    return mask;
}

int backend_ok(rb_registry *reg, const char *path, const rb_backend *d, uint32_t callbacks)
{
    if (!name_ok(d->name)) {
        reject(reg, path, "backend has no valid name");
        return 0;
    }
    if (strcmp(d->name, "cpu") == 0) {
        reject(reg, path, "backend 'cpu' is built into redbench and cannot be replaced");
        return 0;
    }
    if (!texts_ok(d->summary, d->version)) {
        reject(reg, path, "backend '%s' has an unprintable or overlong summary or version",
               d->name);
        return 0;
    }
    if (d->memory_kind != RB_MEMORY_POINTER && d->memory_kind != RB_MEMORY_HANDLE) {
        reject(reg, path,
               "backend '%s' declares memory kind %u; valid: %d (pointer) or %d (handle); "
               "%d (host memory) is the built-in cpu backend's alone",
               d->name, d->memory_kind, RB_MEMORY_POINTER, RB_MEMORY_HANDLE, RB_MEMORY_HOST);
        return 0;
    }
    uint32_t required = (1u << BACKEND_REQUIRED) - 1;
    if ((callbacks & required) != required) {
        reject(reg, path, "backend '%s' is missing a required callback", d->name);
        return 0;
    }
    return 1;
}

/* A descriptor as this build knows it: the `size` bytes the plugin or
 * backend was built with (fewer for an older ABI), zeros past them. */
void copy_descriptor(void *out, size_t out_size, const void *desc, uint32_t size)
{
    memset(out, 0, out_size);
    memcpy(out, desc, size < out_size ? size : out_size);
}
