/* src/host/descriptor_wire.c: a checked descriptor as bytes and back: what
 * the loading process sends this process (names, texts, masks, parameter
 * table, which callbacks are set), and what a worker compares with what
 * its file gives when it loads the code. Reading trusts nothing: every
 * length is checked. A descriptor read back has no code behind it: its
 * callbacks are stand-ins that fail, saying why. */
#include "host/descriptor_wire.h"

#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "host/descriptor_limits.h"

void bytes_put(bytes *b, const void *data, size_t len)
{
    if (b->cap - b->len < len) {
        while (b->cap - b->len < len)
            b->cap = b->cap ? 2 * b->cap : 256;
        b->data = xrealloc(b->data, b->cap);
    }
    memcpy(b->data + b->len, data, len);
    b->len += len;
}

void bytes_put_u32(bytes *b, uint32_t v)
{
    bytes_put(b, &v, sizeof v);
}

static void put_i64(bytes *b, int64_t v)
{
    bytes_put(b, &v, sizeof v);
}

#define NO_STRING UINT32_MAX

/* A checked string (its length is bounded), or NULL. */
static void put_str(bytes *b, const char *s)
{
    if (!s) {
        bytes_put_u32(b, NO_STRING);
        return;
    }
    size_t len = strlen(s);
    bytes_put_u32(b, (uint32_t)len);
    bytes_put(b, s, len);
}

/* What plugin and backend descriptors begin with: the ABI they were
 * built with, their size and their texts, after the kind of blob. */
static void put_head(bytes *b, uint32_t kind, uint32_t abi_major, uint32_t abi_minor,
                     uint32_t size, const char *name, const char *summary, const char *version)
{
    bytes_put_u32(b, kind);
    bytes_put_u32(b, abi_major);
    bytes_put_u32(b, abi_minor);
    bytes_put_u32(b, size);
    put_str(b, name);
    put_str(b, summary);
    put_str(b, version);
}

/* A descriptor that passed plugin_ok, as data. */
void put_plugin(bytes *b, const rb_plugin *d, uint32_t callbacks)
{
    put_head(b, BLOB_PLUGIN, d->abi_major, d->abi_minor, d->size, d->name, d->summary,
             d->version);
    put_str(b, d->backend);
    bytes_put_u32(b, d->ops);
    bytes_put_u32(b, d->dtypes);
    bytes_put_u32(b, callbacks);
    bytes_put_u32(b, d->collective); /* 0 in a copy of a descriptor older than 1.3 */
    bytes_put_u32(b, d->rank_launch);
    bytes_put_u32(b, d->shapes); /* 0 in a copy of a descriptor older than 1.6 */
    bytes_put_u32(b, d->n_params);
    for (uint32_t k = 0; k < d->n_params; k++) {
        const rb_param_spec *p = &d->params[k];
        put_str(b, p->name);
        bytes_put_u32(b, (uint32_t)p->type);
        put_str(b, p->default_value);
        put_i64(b, p->min);
        put_i64(b, p->max);
        bytes_put_u32(b, p->flags);
        put_str(b, p->help);
        uint32_t n = 0;
        if (p->type == RB_PARAM_CHOICE)
            while (p->choices[n])
                n++;
        bytes_put_u32(b, p->type == RB_PARAM_CHOICE ? n : NO_STRING);
        for (uint32_t c = 0; c < n; c++)
            put_str(b, p->choices[c]);
    }
}

void put_backend(bytes *b, const rb_backend *d, uint32_t callbacks)
{
    put_head(b, BLOB_BACKEND, d->abi_major, d->abi_minor, d->size, d->name, d->summary,
             d->version);
    bytes_put_u32(b, d->timing_modes);
    bytes_put_u32(b, callbacks);
}

/* Reading a serialized descriptor, which may be anything: every length is
 * checked, and `bad` is set at the first thing that does not fit. */
typedef struct reader {
    const unsigned char *p;
    size_t left;
    int bad;
} reader;

static void get(reader *r, void *out, size_t len)
{
    if (r->bad || r->left < len) {
        r->bad = 1;
        memset(out, 0, len);
        return;
    }
    memcpy(out, r->p, len);
    r->p += len;
    r->left -= len;
}

static uint32_t get_u32(reader *r)
{
    uint32_t v;
    get(r, &v, sizeof v);
    return v;
}

static int64_t get_i64(reader *r)
{
    int64_t v;
    get(r, &v, sizeof v);
    return v;
}

#define STRING_MAX 4096

static char *get_str(reader *r)
{
    uint32_t len = get_u32(r);
    if (r->bad || len == NO_STRING)
        return NULL;
    if (len > STRING_MAX || len > r->left || memchr(r->p, '\0', len)) {
        r->bad = 1;
        return NULL;
    }
    char *s = xstrndup((const char *)r->p, len);
    r->p += len;
    r->left -= len;
    return s;
}

/* The texts a descriptor read back owns (see get_head). */
static void free_head(const char *name, const char *summary, const char *version)
{
    free((void *)name);
    free((void *)summary);
    free((void *)version);
}

void free_plugin_data(rb_plugin *d)
{
    if (!d)
        return;
    free_head(d->name, d->summary, d->version);
    free((void *)d->backend);
    rb_param_spec *params = (rb_param_spec *)d->params;
    for (uint32_t k = 0; params && k < d->n_params; k++) {
        free((void *)params[k].name);
        free((void *)params[k].default_value);
        free((void *)params[k].help);
        for (size_t c = 0; params[k].choices && params[k].choices[c]; c++)
            free((void *)params[k].choices[c]);
        free((void *)params[k].choices);
    }
    free(params);
    free(d);
}

void free_backend_data(rb_backend *d)
{
    if (!d)
        return;
    free_head(d->name, d->summary, d->version);
    free(d);
}

/* Stand-ins for the callbacks of a plugin whose code is not loaded in this
 * process: a configuration that reached them fails, saying why. */
static int unloaded_init(const rb_config *cfg, void **state)
{
    *state = NULL;
    if (cfg && cfg->host && cfg->host->error)
        cfg->host->error(cfg->host, "the plugin's code is not loaded in this process");
    return RB_ERROR;
}

static int unloaded_run(void *state)
{
    (void)state;
    return RB_ERROR;
}

static int unloaded_verify(void *state, rb_result *result)
{
    (void)state;
    (void)result;
    return RB_ERROR;
}

static void unloaded_teardown(void *state)
{
    (void)state;
}

static int unloaded_device_count(const rb_host *host, int *count)
{
    *count = 0;
    if (host && host->error)
        host->error(host, "the backend's code is not loaded in this process");
    return RB_ERROR;
}

/* What put_head wrote, after the kind of blob. */
static void get_head(reader *r, uint32_t *abi_major, uint32_t *abi_minor, uint32_t *size,
                     const char **name, const char **summary, const char **version)
{
    *abi_major = get_u32(r);
    *abi_minor = get_u32(r);
    *size = get_u32(r);
    *name = get_str(r);
    *summary = get_str(r);
    *version = get_str(r);
}

/* A plugin descriptor from its serialized form, with no code behind it, or
 * NULL when the data are malformed. *callbacks: which callbacks it has. */
static rb_plugin *read_plugin(reader *r, uint32_t *callbacks)
{
    rb_plugin *d = xcalloc(1, sizeof *d);
    get_head(r, &d->abi_major, &d->abi_minor, &d->size, &d->name, &d->summary, &d->version);
    d->backend = get_str(r);
    d->ops = get_u32(r);
    d->dtypes = get_u32(r);
    *callbacks = get_u32(r);
    d->collective = get_u32(r);
    d->rank_launch = get_u32(r);
    d->shapes = get_u32(r);
    if (d->collective > RB_COLLECTIVE_REDUCE || d->rank_launch > RB_RANK_LAUNCH_MPI ||
        (d->shapes & ~RB_SHAPES_KNOWN))
        r->bad = 1;
    uint32_t n = get_u32(r);
    if (!r->bad && n > RB_PARAMS_MAX)
        r->bad = 1;
    if (!r->bad && n) {
        rb_param_spec *params = xcalloc(n, sizeof *params);
        d->params = params;
        d->n_params = n;
        for (uint32_t k = 0; k < n && !r->bad; k++) {
            rb_param_spec *p = &params[k];
            p->name = get_str(r);
            p->type = (int)get_u32(r);
            p->default_value = get_str(r);
            p->min = get_i64(r);
            p->max = get_i64(r);
            p->flags = get_u32(r);
            p->help = get_str(r);
            uint32_t choices = get_u32(r);
            if (r->bad || choices == NO_STRING)
                continue;
            if (choices > RB_CHOICES_MAX) {
                r->bad = 1;
                break;
            }
            const char **list = xcalloc(choices + 1, sizeof *list);
            p->choices = list;
            for (uint32_t c = 0; c < choices && !r->bad; c++)
                list[c] = get_str(r);
            for (uint32_t c = 0; c < choices; c++)
                if (!list[c])
                    r->bad = 1; /* a NULL inside the list */
        }
    }
    if (r->bad || r->left) {
        free_plugin_data(d);
        return NULL;
    }
    d->describe = NULL;
    d->init = unloaded_init;
    d->run = unloaded_run;
    d->verify = unloaded_verify;
    d->teardown = unloaded_teardown;
    return d;
}

static rb_backend *read_backend(reader *r, uint32_t *callbacks)
{
    rb_backend *d = xcalloc(1, sizeof *d);
    get_head(r, &d->abi_major, &d->abi_minor, &d->size, &d->name, &d->summary, &d->version);
    d->timing_modes = get_u32(r);
    *callbacks = get_u32(r);
    if (r->bad || r->left) {
        free_backend_data(d);
        return NULL;
    }
    d->device_count = unloaded_device_count;
    return d;
}

uint32_t descriptor_read(const unsigned char *blob, size_t len, rb_plugin **plugin,
                         rb_backend **backend, uint32_t *callbacks)
{
    reader r = {blob, len, 0};
    uint32_t kind = get_u32(&r);
    *plugin = NULL;
    *backend = NULL;
    *callbacks = 0;
    if (kind == BLOB_PLUGIN)
        *plugin = read_plugin(&r, callbacks);
    else if (kind == BLOB_BACKEND)
        *backend = read_backend(&r, callbacks);
    return *plugin || *backend ? kind : 0;
}
