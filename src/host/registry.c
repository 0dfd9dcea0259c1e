/* src/host/registry.c: plugin discovery, ABI checks and packs. Every regular
 * .so file in a search folder (or in a pack sub-folder of it) is opened by
 * a loading process; one exporting redbench_plugin_entry or
 * redbench_backend_entry whose descriptor passes the checks below comes back
 * as data and is kept, anything else is recorded as rejected with the
 * reason. The host reads no field past the size a descriptor declares. Each
 * folder's pack.ini names its pack and says who made it; a plugin of a pack
 * and name already loaded from an earlier folder is shadowed.
 *
 * This process never runs plugin code while it discovers: the loading
 * process (forked, in its own process group, its standard streams on
 * /dev/null) opens one file at a time as asked over a socket, checks the
 * descriptor and sends it back serialized (names, texts, masks, parameter
 * table, which callbacks are set). One that dies or does not answer in
 * time has its file rejected, and a fresh one goes on with the next file.
 * Workers load the code later (registry_load_code) and check that the file
 * still gives the same serialized descriptor. */
#include "host/registry.h"

#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

#include "base/ini_text.h"
#include "base/units.h"
#include "base/util.h"
#include "host/backend_cpu.h"
#include "host/paths.h"


#define RB_NAME_MAX 64
#define RB_TEXT_MAX 256
#define RB_PARAMS_MAX 64
#define RB_CHOICES_MAX 64

/* Seconds a file may take to load (constructors and entry point), unless
 * REDBENCH_LOAD_TIMEOUT says otherwise. */
#define LOAD_TIMEOUT_DEFAULT 10.0
/* The largest answer a loading process may send. */
#define ANSWER_MAX (8u << 20)
/* The largest pack manifest read. */
#define MANIFEST_SIZE_MAX 65536

/* The size of each descriptor as ABI 1.0 defined it: what a 1.0 plugin
 * must provide at least. */
#define PLUGIN_SIZE_1_0 (offsetof(rb_plugin, teardown) + sizeof(void (*)(void *)))
#define BACKEND_SIZE_1_0 (offsetof(rb_backend, recover) + sizeof(int (*)(void *)))

static void reject(rb_registry *reg, const char *path, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Records a rejected file; the same file and reason are recorded once, even
 * when two search folders lead to it. */
static void reject(rb_registry *reg, const char *path, const char *fmt, ...)
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

static void note_shadowed(rb_registry *reg, const char *path, const char *by)
{
    rb_shadowed *s = grow(&reg->shadowed, &reg->n_shadowed, &reg->cap_shadowed, sizeof *s);
    s->path = xstrdup(path);
    s->by = xstrdup(by);
}

/* The pack of that name, added (without a manifest) if it is new. The
 * pointer is valid until the next pack is added. */
static rb_pack *note_pack(rb_registry *reg, const char *name, const char *dir)
{
    for (size_t k = 0; k < reg->n_packs; k++)
        if (strcmp(reg->packs[k].name, name) == 0)
            return &reg->packs[k];
    rb_pack *p = grow(&reg->packs, &reg->n_packs, &reg->cap_packs, sizeof *p);
    p->name = xstrdup(name);
    p->dir = xstrdup(dir);
    return p;
}

/* ---- checks of a descriptor ---- */

/* A string of at most `max` bytes that a terminal shows as it is (no
 * control bytes, no C1 controls, valid UTF-8), or NULL. */
static int text_ok(const char *s, size_t max)
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

static int name_ok(const char *s)
{
    if (!text_ok(s, RB_NAME_MAX) || !*s)
        return 0;
    for (const char *p = s; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '-' || *p == '_'))
            return 0;
    return 1;
}

/* Checks the ABI version and size fields shared by both descriptor kinds. */
static int version_ok(rb_registry *reg, const char *path, const char *what, uint32_t major,
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
enum { PLUGIN_CB_DESCRIBE, PLUGIN_CB_INIT, PLUGIN_CB_RUN, PLUGIN_CB_VERIFY, PLUGIN_CB_TEARDOWN };
static const char *const plugin_callback_names[] = {"describe", "init", "run", "verify",
                                                    "teardown"};

static uint32_t plugin_callbacks(const rb_plugin *d)
{
    return (d->describe ? 1u << PLUGIN_CB_DESCRIBE : 0) | (d->init ? 1u << PLUGIN_CB_INIT : 0) |
           (d->run ? 1u << PLUGIN_CB_RUN : 0) | (d->verify ? 1u << PLUGIN_CB_VERIFY : 0) |
           (d->teardown ? 1u << PLUGIN_CB_TEARDOWN : 0);
}

/* A descriptor's summary and version: printable, and not too long. */
static int texts_ok(const char *summary, const char *version)
{
    return (!summary || text_ok(summary, RB_TEXT_MAX)) &&
           (!version || text_ok(version, RB_NAME_MAX));
}

/* d: a descriptor copied up to its size; callbacks: which are set. */
static int plugin_ok(rb_registry *reg, const char *path, const rb_plugin *d, uint32_t callbacks)
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
    if (!(d->ops & ((1u << RB_OP_COUNT_) - 1)) || !(d->dtypes & ((1u << RB_DTYPE_COUNT_) - 1))) {
        reject(reg, path, "plugin '%s' declares no known op or dtype", d->name);
        return 0;
    }
    if (d->collective > RB_COLLECTIVE_REDUCE || d->rank_launch > RB_RANK_LAUNCH_MPI) {
        reject(reg, path, "plugin '%s' declares collective %u and rank launch %u (collectives: "
               "0 none, 1 all-reduce, 2 reduce; launches: 0 fork, 1 mpi)", d->name,
               d->collective, d->rank_launch);
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

static uint32_t backend_callbacks(const rb_backend *d)
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

static int backend_ok(rb_registry *reg, const char *path, const rb_backend *d, uint32_t callbacks)
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
    uint32_t required = (1u << BACKEND_REQUIRED) - 1;
    if ((callbacks & required) != required) {
        reject(reg, path, "backend '%s' is missing a required callback", d->name);
        return 0;
    }
    return 1;
}

/* A descriptor as this build knows it: the `size` bytes the plugin or
 * backend was built with (fewer for an older ABI), zeros past them. */
static void copy_descriptor(void *out, size_t out_size, const void *desc, uint32_t size)
{
    memset(out, 0, out_size);
    memcpy(out, desc, size < out_size ? size : out_size);
}

static const char *dl_reason(const char *err)
{
    if (err && (strstr(err, "invalid ELF header") || strstr(err, "file too short") ||
                strstr(err, "not a dynamic")))
        return "not a shared object";
    return "cannot be loaded";
}

/* ---- files ---- */

static const char *file_kind(mode_t mode)
{
    return S_ISFIFO(mode) ? "a named pipe" : S_ISCHR(mode) ? "a character device"
         : S_ISBLK(mode) ? "a block device" : S_ISSOCK(mode) ? "a socket"
         : S_ISDIR(mode) ? "a folder" : "not a regular file";
}

/* Opens path for reading when it is a regular file (after links) of at
 * most max_size bytes (0: any size): opened without blocking and checked
 * again on the open file, so that a named pipe or a device is never read.
 * Returns the descriptor, or -1 with the reason in why. */
static int open_regular(const char *path, off_t max_size, char *why, size_t why_len)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        snprintf(why, why_len, "cannot be read: %s", strerror(errno));
        return -1;
    }
    if (!S_ISREG(st.st_mode)) {
        snprintf(why, why_len, "not a regular file (%s); only regular files are opened",
                 file_kind(st.st_mode));
        return -1;
    }
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (fd < 0) {
        snprintf(why, why_len, "cannot be read: %s", strerror(errno));
        return -1;
    }
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        snprintf(why, why_len, "not a regular file (%s); only regular files are opened",
                 file_kind(st.st_mode));
        close(fd);
        return -1;
    }
    if (max_size > 0 && st.st_size > max_size) {
        snprintf(why, why_len, "is %lld bytes, more than the %lld allowed",
                 (long long)st.st_size, (long long)max_size);
        close(fd);
        return -1;
    }
    return fd;
}

static int regular_file(const char *path, char *why, size_t why_len)
{
    int fd = open_regular(path, 0, why, why_len);
    if (fd < 0)
        return 0;
    close(fd);
    return 1;
}

/* ---- descriptors as data ---- */

/* A growing byte string. */
typedef struct bytes {
    unsigned char *data;
    size_t len, cap;
} bytes;

static void put(bytes *b, const void *data, size_t len)
{
    if (b->cap - b->len < len) {
        while (b->cap - b->len < len)
            b->cap = b->cap ? 2 * b->cap : 256;
        b->data = xrealloc(b->data, b->cap);
    }
    memcpy(b->data + b->len, data, len);
    b->len += len;
}

static void put_u32(bytes *b, uint32_t v)
{
    put(b, &v, sizeof v);
}

static void put_i64(bytes *b, int64_t v)
{
    put(b, &v, sizeof v);
}

#define NO_STRING UINT32_MAX

/* A checked string (its length is bounded), or NULL. */
static void put_str(bytes *b, const char *s)
{
    if (!s) {
        put_u32(b, NO_STRING);
        return;
    }
    size_t len = strlen(s);
    put_u32(b, (uint32_t)len);
    put(b, s, len);
}

enum { BLOB_PLUGIN = 0x72625031, BLOB_BACKEND = 0x72624231 };

/* What plugin and backend descriptors begin with: the ABI they were
 * built with, their size and their texts, after the kind of blob. */
static void put_head(bytes *b, uint32_t kind, uint32_t abi_major, uint32_t abi_minor,
                     uint32_t size, const char *name, const char *summary, const char *version)
{
    put_u32(b, kind);
    put_u32(b, abi_major);
    put_u32(b, abi_minor);
    put_u32(b, size);
    put_str(b, name);
    put_str(b, summary);
    put_str(b, version);
}

/* A descriptor that passed plugin_ok, as data. */
static void put_plugin(bytes *b, const rb_plugin *d, uint32_t callbacks)
{
    put_head(b, BLOB_PLUGIN, d->abi_major, d->abi_minor, d->size, d->name, d->summary,
             d->version);
    put_str(b, d->backend);
    put_u32(b, d->ops);
    put_u32(b, d->dtypes);
    put_u32(b, callbacks);
    put_u32(b, d->collective); /* 0 in a copy of a descriptor older than 1.3 */
    put_u32(b, d->rank_launch);
    put_u32(b, d->n_params);
    for (uint32_t k = 0; k < d->n_params; k++) {
        const rb_param_spec *p = &d->params[k];
        put_str(b, p->name);
        put_u32(b, (uint32_t)p->type);
        put_str(b, p->default_value);
        put_i64(b, p->min);
        put_i64(b, p->max);
        put_u32(b, p->flags);
        put_str(b, p->help);
        uint32_t n = 0;
        if (p->type == RB_PARAM_CHOICE)
            while (p->choices[n])
                n++;
        put_u32(b, p->type == RB_PARAM_CHOICE ? n : NO_STRING);
        for (uint32_t c = 0; c < n; c++)
            put_str(b, p->choices[c]);
    }
}

static void put_backend(bytes *b, const rb_backend *d, uint32_t callbacks)
{
    put_head(b, BLOB_BACKEND, d->abi_major, d->abi_minor, d->size, d->name, d->summary,
             d->version);
    put_u32(b, d->timing_modes);
    put_u32(b, callbacks);
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

static void free_plugin_data(rb_plugin *d)
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

static void free_backend_data(rb_backend *d)
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
    if (d->collective > RB_COLLECTIVE_REDUCE || d->rank_launch > RB_RANK_LAUNCH_MPI)
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

/* ---- opening a file (this runs its code) ---- */

enum probe_kind { PROBE_REJECTED = 0, PROBE_PLUGIN = 1, PROBE_BACKEND = 2 };

/* Opens a shared object, calls its entry point and checks the descriptor:
 * appends it, serialized, to blob and returns what it is, with the handle
 * and the descriptor; or PROBE_REJECTED with the reason in why (the file is
 * closed). Runs the file's code: constructors, the entry point. */
static int probe_file(const char *path, bytes *blob, char *why, size_t why_len, void **handle,
                      const void **desc)
{
    *handle = NULL;
    *desc = NULL;
    if (!regular_file(path, why, why_len))
        return PROBE_REJECTED;
    dlerror();
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        const char *err = dlerror();
        snprintf(why, why_len, "%s: %s", dl_reason(err), err ? err : "unknown dlopen error");
        return PROBE_REJECTED;
    }
    rb_plugin_entry_fn plugin_entry;
    rb_backend_entry_fn backend_entry;
    *(void **)&plugin_entry = dlsym(h, REDBENCH_PLUGIN_ENTRY_NAME);
    *(void **)&backend_entry = dlsym(h, REDBENCH_BACKEND_ENTRY_NAME);

    rb_registry scratch; /* collects the reason */
    memset(&scratch, 0, sizeof scratch);
    int kind = PROBE_REJECTED;
    snprintf(why, why_len, "rejected");
    if (plugin_entry) {
        const rb_plugin *d = plugin_entry();
        if (!d) {
            snprintf(why, why_len, "%s() returned no descriptor", REDBENCH_PLUGIN_ENTRY_NAME);
        } else if (version_ok(&scratch, path, "plugin", d->abi_major, d->abi_minor, d->size,
                              PLUGIN_SIZE_1_0)) {
            rb_plugin copy;
            copy_descriptor(&copy, sizeof copy, d, d->size);
            uint32_t callbacks = plugin_callbacks(&copy);
            if (plugin_ok(&scratch, path, &copy, callbacks)) {
                put_plugin(blob, &copy, callbacks);
                kind = PROBE_PLUGIN;
                *desc = d;
            }
        }
    } else if (backend_entry) {
        const rb_backend *d = backend_entry();
        if (!d) {
            snprintf(why, why_len, "%s() returned no descriptor", REDBENCH_BACKEND_ENTRY_NAME);
        } else if (version_ok(&scratch, path, "backend", d->abi_major, d->abi_minor, d->size,
                              BACKEND_SIZE_1_0)) {
            rb_backend copy;
            copy_descriptor(&copy, sizeof copy, d, d->size);
            uint32_t callbacks = backend_callbacks(&copy);
            if (backend_ok(&scratch, path, &copy, callbacks)) {
                put_backend(blob, &copy, callbacks);
                kind = PROBE_BACKEND;
                *desc = d;
            }
        }
    } else {
        snprintf(why, why_len, "no entry point: exports neither %s nor %s (not a redbench "
                 "plugin)", REDBENCH_PLUGIN_ENTRY_NAME, REDBENCH_BACKEND_ENTRY_NAME);
    }
    if (kind == PROBE_REJECTED && scratch.n_rejected)
        snprintf(why, why_len, "%s", scratch.rejected[0].reason);
    registry_free(&scratch);
    if (kind == PROBE_REJECTED)
        dlclose(h);
    else
        *handle = h;
    return kind;
}

/* The plugin of exactly that pack and name, or NULL. */
static const rb_loaded_plugin *find_in_pack(const rb_registry *reg, const char *pack,
                                            const char *name)
{
    for (size_t k = 0; k < reg->n_plugins; k++)
        if (strcmp(reg->plugins[k].pack, pack) == 0 &&
            strcmp(reg->plugins[k].desc->name, name) == 0)
            return &reg->plugins[k];
    return NULL;
}

/* The folder part of a path ("." for a bare file name). */
static char *folder_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        return xstrdup(".");
    return xstrndup(path, slash == path ? 1 : (size_t)(slash - path));
}

/* A copy of a descriptor's blob, kept to hand to workers. */
static unsigned char *copy_blob(const unsigned char *blob, size_t len, size_t *out_len)
{
    unsigned char *copy = xmalloc(len ? len : 1);
    memcpy(copy, blob, len);
    *out_len = len;
    return copy;
}

enum accepted { ACCEPT_REJECTED = -1, ACCEPT_SHADOWED = 0, ACCEPT_PLUGIN, ACCEPT_BACKEND };

/* Keeps a serialized descriptor (from a loading process, so checked again
 * here) as the plugin or backend at path. */
static int accept_blob(rb_registry *reg, const char *path, const char *pack,
                       const unsigned char *blob, size_t len)
{
    reader r = {blob, len, 0};
    uint32_t kind = get_u32(&r), callbacks = 0;
    if (kind == BLOB_PLUGIN) {
        rb_plugin *d = read_plugin(&r, &callbacks);
        if (!d) {
            reject(reg, path, "its loading process sent a malformed descriptor");
            return ACCEPT_REJECTED;
        }
        if (!version_ok(reg, path, "plugin", d->abi_major, d->abi_minor, d->size,
                        PLUGIN_SIZE_1_0) ||
            !plugin_ok(reg, path, d, callbacks)) {
            free_plugin_data(d);
            return ACCEPT_REJECTED;
        }
        const rb_loaded_plugin *same = find_in_pack(reg, pack, d->name);
        if (same) {
            note_shadowed(reg, path, same->path);
            free_plugin_data(d);
            return ACCEPT_SHADOWED;
        }
        char *dir = folder_of(path);
        note_pack(reg, pack, dir);
        free(dir);
        rb_loaded_plugin *p = grow(&reg->plugins, &reg->n_plugins, &reg->cap_plugins, sizeof *p);
        p->path = xstrdup(path);
        p->pack = xstrdup(pack);
        p->desc = d;
        p->blob = copy_blob(blob, len, &p->blob_len);
        p->registry = reg;
        return ACCEPT_PLUGIN;
    }
    if (kind == BLOB_BACKEND) {
        rb_backend *d = read_backend(&r, &callbacks);
        if (!d) {
            reject(reg, path, "its loading process sent a malformed descriptor");
            return ACCEPT_REJECTED;
        }
        if (!version_ok(reg, path, "backend", d->abi_major, d->abi_minor, d->size,
                        BACKEND_SIZE_1_0) ||
            !backend_ok(reg, path, d, callbacks)) {
            free_backend_data(d);
            return ACCEPT_REJECTED;
        }
        const rb_loaded_backend *same = registry_backend(reg, d->name);
        if (same) { /* a backend of that name came from an earlier folder */
            note_shadowed(reg, path, same->path);
            free_backend_data(d);
            return ACCEPT_SHADOWED;
        }
        rb_loaded_backend *b = grow(&reg->backends, &reg->n_backends, &reg->cap_backends,
                                    sizeof *b);
        b->path = xstrdup(path);
        b->pack = xstrdup(pack);
        b->desc = d;
        b->blob = copy_blob(blob, len, &b->blob_len);
        return ACCEPT_BACKEND;
    }
    reject(reg, path, "its loading process sent a malformed descriptor");
    return ACCEPT_REJECTED;
}

/* Gives a kept descriptor the code of the file: the callbacks (and every
 * field past the texts) come from the loaded descriptor, the texts stay
 * the kept ones, equal to them. */
static void attach_plugin_code(rb_loaded_plugin *p, void *handle, const rb_plugin *real)
{
    rb_plugin *own = (rb_plugin *)p->desc;
    rb_plugin code;
    copy_descriptor(&code, sizeof code, real, real->size);
    code.name = own->name;
    code.summary = own->summary;
    code.version = own->version;
    code.backend = own->backend;
    code.params = own->params;
    code.n_params = own->n_params;
    *own = code;
    p->handle = handle;
}

static void attach_backend_code(rb_loaded_backend *b, void *handle, const rb_backend *real)
{
    rb_backend *own = (rb_backend *)b->desc;
    rb_backend code;
    copy_descriptor(&code, sizeof code, real, real->size);
    code.name = own->name;
    code.summary = own->summary;
    code.version = own->version;
    *own = code;
    b->handle = handle;
}

/* Runs fn with standard output pointing at standard error: what plugin
 * code prints while it loads must not reach machine-readable output. */
static int saved_stdout = -1;

static void stdout_to_stderr(void)
{
    fflush(stdout);
    saved_stdout = dup(STDOUT_FILENO);
    if (saved_stdout >= 0)
        dup2(STDERR_FILENO, STDOUT_FILENO);
}

static void stdout_back(void)
{
    fflush(stdout);
    if (saved_stdout >= 0) {
        dup2(saved_stdout, STDOUT_FILENO);
        close(saved_stdout);
    }
    saved_stdout = -1;
}

static int known_path(const rb_registry *reg, const char *path)
{
    for (size_t k = 0; k < reg->n_plugins; k++)
        if (strcmp(reg->plugins[k].path, path) == 0)
            return 1;
    for (size_t k = 0; k < reg->n_backends; k++)
        if (strcmp(reg->backends[k].path, path) == 0)
            return 1;
    return 0;
}

int registry_load_file(rb_registry *reg, const char *path, const char *pack)
{
    if (known_path(reg, path))
        return 0;
    bytes blob = {0};
    char why[1024];
    void *handle;
    const void *real;
    stdout_to_stderr();
    int kind = probe_file(path, &blob, why, sizeof why, &handle, &real);
    stdout_back();
    if (kind == PROBE_REJECTED) {
        reject(reg, path, "%s", why);
        return -1;
    }
    int accepted = accept_blob(reg, path, pack, blob.data, blob.len);
    free(blob.data);
    if (accepted == ACCEPT_PLUGIN && kind == PROBE_PLUGIN)
        attach_plugin_code(&reg->plugins[reg->n_plugins - 1], handle, real);
    else if (accepted == ACCEPT_BACKEND && kind == PROBE_BACKEND)
        attach_backend_code(&reg->backends[reg->n_backends - 1], handle, real);
    else
        dlclose(handle);
    return accepted == ACCEPT_REJECTED ? -1 : 0;
}

/* ---- the loading process ---- */

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* REDBENCH_LOAD_TIMEOUT when it is a positive number of seconds, else 10. */
static double load_timeout(void)
{
    const char *env = getenv("REDBENCH_LOAD_TIMEOUT");
    double t;
    const char *why;
    if (env && *env && parse_double(env, &t, &why) == 0 && t > 0 && t < 86400)
        return t;
    return LOAD_TIMEOUT_DEFAULT;
}

/* The loading process: reads a path, opens the file, answers with its
 * kind and the serialized descriptor (or the reason it was rejected), until
 * the socket closes. Never returns. */
static void loader_main(int fd)
{
#ifdef __linux__
    prctl(PR_SET_PDEATHSIG, SIGKILL);
#endif
    setpgid(0, 0);
    int null = open("/dev/null", O_RDWR | O_CLOEXEC);
    if (null < 0 || dup2(null, STDIN_FILENO) < 0 || dup2(null, STDOUT_FILENO) < 0 ||
        dup2(null, STDERR_FILENO) < 0)
        _exit(3);
    signal(SIGPIPE, SIG_DFL);
    for (;;) {
        uint32_t len;
        if (read_full(fd, &len, sizeof len) != 0)
            _exit(0);
        if (len == 0 || len > PATH_MAX * 4)
            _exit(3);
        char *path = xmalloc((size_t)len + 1);
        if (read_full(fd, path, len) != 0)
            _exit(3);
        path[len] = '\0';
        bytes answer = {0}, blob = {0};
        char why[1024];
        void *handle;
        const void *real;
        uint32_t kind = (uint32_t)probe_file(path, &blob, why, sizeof why, &handle, &real);
        /* the file stays open: its destructors never run here */
        const void *payload = kind == PROBE_REJECTED ? (const void *)why : blob.data;
        uint32_t size = kind == PROBE_REJECTED ? (uint32_t)strlen(why) : (uint32_t)blob.len;
        put_u32(&answer, kind);
        put_u32(&answer, size);
        put(&answer, payload, size);
        if (write_full(fd, answer.data, answer.len) != 0)
            _exit(3);
        free(answer.data);
        free(blob.data);
        free(path);
    }
}

/* The parent's side of a loading process. */
typedef struct loader {
    pid_t pid;        /* 0: none running */
    int fd;           /* this end of the socket */
    unsigned char *buf;
    size_t len, cap;
    double timeout;
} loader;

static int loader_start(loader *ld, char *why, size_t why_len)
{
    int fds[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) != 0) {
        snprintf(why, why_len, "cannot make a socket for the loading process: %s",
                 strerror(errno));
        return -1;
    }
    fflush(NULL); /* what is buffered must not be written twice */
    pid_t pid = fork();
    if (pid < 0) {
        snprintf(why, why_len, "cannot start a loading process: %s", strerror(errno));
        close(fds[0]);
        close(fds[1]);
        return -1;
    }
    if (pid == 0) {
        close(fds[0]);
        loader_main(fds[1]);
    }
    setpgid(pid, pid); /* also done by the child: whichever runs first */
    close(fds[1]);
    ld->pid = pid;
    ld->fd = fds[0];
    ld->len = 0;
    return 0;
}

/* Whether the process has ended (it is left to be reaped). */
static int has_ended(pid_t pid)
{
    siginfo_t info;
    memset(&info, 0, sizeof info);
    return waitid(P_PID, (id_t)pid, &info, WEXITED | WNOHANG | WNOWAIT) == 0 && info.si_pid == pid;
}

/* Ends the loading process: kills it unless it has ended (or, with grace,
 * ends within grace seconds), kills what else runs in its process group,
 * reaps it and returns its wait status. */
static int loader_end(loader *ld, double grace)
{
    int status = 0;
    if (!ld->pid)
        return 0;
    close(ld->fd);
    ld->fd = -1;
    double until = now_seconds() + grace;
    while (!has_ended(ld->pid) && now_seconds() < until) {
        struct timespec nap = {0, 2000000};
        nanosleep(&nap, NULL);
    }
    kill(ld->pid, SIGKILL); /* a no-op on one that has ended and is not reaped */
    siginfo_t info;
    while (waitid(P_PID, (id_t)ld->pid, &info, WEXITED | WNOWAIT) < 0 && errno == EINTR)
        ;
    killpg(ld->pid, SIGKILL); /* before the reaping frees its number */
    while (waitpid(ld->pid, &status, 0) < 0 && errno == EINTR)
        ;
    ld->pid = 0;
    return status;
}

/* Asks the loading process (started when there is none) to open path.
 * Returns what it is, with the serialized descriptor or the reason in
 * *out; a loading process that dies or does not answer in time is ended,
 * and the reason names what happened. */
static int loader_ask(loader *ld, const char *path, bytes *out)
{
    char why[512];
    out->len = 0;
    if (!ld->pid && loader_start(ld, why, sizeof why) != 0) {
        put(out, why, strlen(why));
        return PROBE_REJECTED;
    }
    uint32_t len = (uint32_t)strlen(path);
    int sent = write_full(ld->fd, &len, sizeof len) == 0 && write_full(ld->fd, path, len) == 0;
    double deadline = now_seconds() + ld->timeout;
    int closed = !sent;
    for (;;) {
        /* a whole answer? */
        if (ld->len >= 8) {
            uint32_t kind, size;
            memcpy(&kind, ld->buf, 4);
            memcpy(&size, ld->buf + 4, 4);
            if (size > ANSWER_MAX || kind > PROBE_BACKEND) {
                loader_end(ld, 0);
                snprintf(why, sizeof why, "its loading process sent a malformed answer");
                put(out, why, strlen(why));
                return PROBE_REJECTED;
            }
            if (ld->len - 8 >= size) {
                put(out, ld->buf + 8, size);
                ld->len -= 8 + (size_t)size;
                memmove(ld->buf, ld->buf + 8 + size, ld->len);
                return (int)kind;
            }
        }
        if (closed || has_ended(ld->pid)) {
            /* what it sent before it ended is all there is */
            int status = loader_end(ld, 0.5);
            if (WIFSIGNALED(status))
                snprintf(why, sizeof why, "killed by %s while loading",
                         signal_name(WTERMSIG(status)));
            else if (WIFEXITED(status))
                snprintf(why, sizeof why, "exited with status %d while loading (its code "
                         "ended the process)", WEXITSTATUS(status));
            else
                snprintf(why, sizeof why, "ended while loading");
            put(out, why, strlen(why));
            return PROBE_REJECTED;
        }
        double left = deadline - now_seconds();
        if (left <= 0) {
            loader_end(ld, 0);
            snprintf(why, sizeof why, "did not load within %g s (killed)", ld->timeout);
            put(out, why, strlen(why));
            return PROBE_REJECTED;
        }
        struct pollfd pfd = {.fd = ld->fd, .events = POLLIN};
        int wait_ms = left > 0.1 ? 100 : (int)(left * 1000) + 1;
        if (poll(&pfd, 1, wait_ms) > 0) {
            if (ld->cap - ld->len < 65536) {
                ld->cap = ld->cap ? 2 * ld->cap : 131072;
                ld->buf = xrealloc(ld->buf, ld->cap);
            }
            ssize_t got = read(ld->fd, ld->buf + ld->len, ld->cap - ld->len);
            if (got > 0)
                ld->len += (size_t)got;
            else if (got == 0 || (errno != EINTR && errno != EAGAIN))
                closed = 1;
            if (ld->len > ANSWER_MAX + 8) {
                loader_end(ld, 0);
                snprintf(why, sizeof why, "its loading process sent a malformed answer");
                put(out, why, strlen(why));
                return PROBE_REJECTED;
            }
        }
    }
}

/* Loads one discovered file through the loading process. */
static void load_discovered(rb_registry *reg, loader *ld, const char *path, const char *pack)
{
    if (known_path(reg, path))
        return;
    for (size_t k = 0; k < reg->n_rejected; k++)
        if (strcmp(reg->rejected[k].path, path) == 0)
            return; /* two search folders lead to it */
    char why[512];
    if (!regular_file(path, why, sizeof why)) {
        reject(reg, path, "%s", why);
        return;
    }
    bytes answer = {0};
    int kind = loader_ask(ld, path, &answer);
    if (kind == PROBE_REJECTED) {
        reject(reg, path, "%.*s", (int)answer.len, answer.data ? (const char *)answer.data : "");
    } else {
        accept_blob(reg, path, pack, answer.data, answer.len);
    }
    free(answer.data);
}

/* ---- loading code in this process ---- */

static rb_loaded_backend *backend_entry(const rb_registry *reg, const char *name)
{
    for (size_t k = 0; k < reg->n_backends; k++)
        if (strcmp(reg->backends[k].desc->name, name) == 0)
            return &reg->backends[k];
    return NULL;
}

/* Loads the file of a kept descriptor and checks that it gives the same
 * descriptor. Returns the handle and the loaded descriptor, or NULL with
 * the reason. */
static void *load_same(const char *path, const unsigned char *blob, size_t blob_len, int want,
                       const void **real, char *why, size_t why_len)
{
    bytes now = {0};
    void *handle;
    char reason[1024];
    int kind = probe_file(path, &now, reason, sizeof reason, &handle, real);
    if (kind == PROBE_REJECTED) {
        snprintf(why, why_len, "%s can no longer be loaded: %s", path, reason);
        free(now.data);
        return NULL;
    }
    int same = kind == want && now.len == blob_len && memcmp(now.data, blob, blob_len) == 0;
    free(now.data);
    if (!same) {
        dlclose(handle);
        snprintf(why, why_len, "%s changed since it was discovered: it gives another descriptor "
                 "now", path);
        return NULL;
    }
    return handle;
}

static int load_backend_code(rb_loaded_backend *b, char *why, size_t why_len)
{
    if (b->handle || !b->blob)
        return 0;
    const void *real;
    void *handle = load_same(b->path, b->blob, b->blob_len, PROBE_BACKEND, &real, why, why_len);
    if (!handle)
        return -1;
    attach_backend_code(b, handle, real);
    return 0;
}

static int load_plugin_code(rb_loaded_plugin *p, char *why, size_t why_len)
{
    if (p->handle || !p->blob)
        return 0;
    const void *real;
    void *handle = load_same(p->path, p->blob, p->blob_len, PROBE_PLUGIN, &real, why, why_len);
    if (!handle)
        return -1;
    attach_plugin_code(p, handle, real);
    return 0;
}

int registry_load_code(const rb_loaded_plugin *p, char *why, size_t why_len)
{
    rb_loaded_plugin *own = (rb_loaded_plugin *)p;
    if (load_plugin_code(own, why, why_len) != 0)
        return -1;
    if (!p->registry || strcmp(p->desc->backend, "cpu") == 0)
        return 0;
    rb_loaded_backend *b = backend_entry(p->registry, p->desc->backend);
    char reason[1024];
    if (b && load_backend_code(b, reason, sizeof reason) != 0) {
        snprintf(why, why_len, "its backend '%s': %s", p->desc->backend, reason);
        return -1;
    }
    return 0;
}

void registry_load_here(rb_registry *reg)
{
    char why[1200];
    stdout_to_stderr();
    for (size_t k = 0; k < reg->n_backends; k++)
        if (load_backend_code(&reg->backends[k], why, sizeof why) != 0) {
            char *shown = printable_text(why);
            fprintf(stderr, "redbench: warning: %s\n", shown);
            free(shown);
        }
    for (size_t k = 0; k < reg->n_plugins; k++)
        if (load_plugin_code(&reg->plugins[k], why, sizeof why) != 0) {
            char *shown = printable_text(why);
            fprintf(stderr, "redbench: warning: %s; its configurations fail\n", shown);
            free(shown);
        }
    stdout_back();
}

static int has_suffix(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

static int compare_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The entries of a folder, sorted, hidden ones left out. */
static size_t sorted_entries(const char *dir, char ***names)
{
    size_t count = 0, cap = 0;
    char **out = NULL;
    DIR *d = opendir(dir);
    if (d) {
        struct dirent *e;
        while ((e = readdir(d)))
            if (e->d_name[0] != '.')
                *(char **)grow(&out, &count, &cap, sizeof *out) = xstrdup(e->d_name);
        closedir(d);
    }
    if (count)
        qsort(out, count, sizeof *out, compare_names);
    *names = out;
    return count;
}

static int is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash && slash[1] ? slash + 1 : path;
}

/* ---- pack manifests ---- */

enum manifest_key { MF_NAME, MF_VENDOR, MF_VERSION, MF_BACKEND, MF_DESCRIPTION, MF_COUNT_ };
static const char *const manifest_keys[MF_COUNT_] = {"name", "vendor", "version", "backend",
                                                     "description"};
static const char manifest_key_list[] = "name, vendor, version, backend, description";

/* "cuda" or "cpu, cuda": one or more backend names. */
static int backend_list_ok(const char *value)
{
    char **names;
    size_t n = split_list(value, &names);
    int ok = n > 0;
    for (size_t k = 0; k < n; k++)
        ok = ok && name_ok(names[k]);
    free_list(names, n);
    return ok;
}

/* Checks one `key = value` of a manifest; returns the key's index, or -1
 * after recording what is wrong. */
static int manifest_setting(rb_registry *reg, const char *path, int line, const char *key,
                            const char *value, const int *key_lines)
{
    int k = 0;
    while (k < MF_COUNT_ && strcmp(manifest_keys[k], key) != 0)
        k++;
    if (k == MF_COUNT_) {
        char *shown = printable_text(key);
        reject(reg, path, "line %d: unknown key '%s'; a pack manifest has: %s", line, shown,
               manifest_key_list);
        free(shown);
        return -1;
    }
    if (key_lines[k]) {
        reject(reg, path, "line %d: '%s' is set twice (first on line %d)", line, key,
               key_lines[k]);
        return -1;
    }
    if (k == MF_NAME && !name_ok(value)) {
        char *shown = printable_text(value);
        reject(reg, path, "line %d: name = '%s' is not a valid pack name (lower case letters, "
               "digits, - and _, at most %d characters)", line, shown, RB_NAME_MAX);
        free(shown);
        return -1;
    }
    if (k == MF_BACKEND && !backend_list_ok(value)) {
        char *shown = printable_text(value);
        reject(reg, path, "line %d: backend = '%s' is not a backend name or a comma list of "
               "them (e.g. 'cuda' or 'cpu, cuda')", line, shown);
        free(shown);
        return -1;
    }
    if (!*value || !text_ok(value, RB_TEXT_MAX)) {
        reject(reg, path, "line %d: %s is %s; write one line of at most %d characters", line,
               key, *value ? "too long or unprintable" : "empty", RB_TEXT_MAX);
        return -1;
    }
    return k;
}

/* A manifest being read (base/ini_text.c): the first mistake stops it. */
typedef struct manifest_reader {
    rb_registry *reg;
    const char *path;
    rb_ini_text ini;
    char **value;
    int key_lines[MF_COUNT_];
    int pack_line;
    int ok;
} manifest_reader;

static void manifest_failed(manifest_reader *m)
{
    m->ok = 0;
    m->ini.stop = 1;
}

static void manifest_section(void *user, int line, const char *name)
{
    manifest_reader *m = user;
    if (strcmp(name, "pack") != 0 || m->pack_line) {
        char *header = xasprintf("[%s]", name);
        char *shown = printable_text(header);
        reject(m->reg, m->path, "line %d: %s %s; a pack manifest has one section, [pack]", line,
               m->pack_line ? "another section" : "unknown section", shown);
        free(shown);
        free(header);
        manifest_failed(m);
        return;
    }
    m->pack_line = line;
}

static void manifest_key(void *user, int line, const char *key, const char *value)
{
    manifest_reader *m = user;
    if (!m->pack_line) {
        reject(m->reg, m->path, "line %d: expected the [pack] section first", line);
        manifest_failed(m);
        return;
    }
    int k = manifest_setting(m->reg, m->path, line, key, value, m->key_lines);
    if (k < 0) {
        manifest_failed(m);
        return;
    }
    m->key_lines[k] = line;
    m->value[k] = xstrdup(value);
}

static void manifest_problem(void *user, int line, int problem, const char *text, size_t length)
{
    manifest_reader *m = user;
    (void)length;
    if (problem == RB_INI_TOO_LONG) {
        reject(m->reg, m->path, "line %d is longer than %zu characters", line,
               ini_text_longest());
    } else if (problem == RB_INI_NUL) {
        reject(m->reg, m->path, "line %d holds a NUL byte", line);
    } else if (problem == RB_INI_NO_SEPARATOR && m->pack_line) {
        reject(m->reg, m->path, "line %d: expected 'key = value'", line);
    } else if (problem == RB_INI_NO_SEPARATOR) {
        reject(m->reg, m->path, "line %d: expected the [pack] section first", line);
    } else if (problem == RB_INI_AFTER_HEADER) {
        char *shown = printable_text(text);
        reject(m->reg, m->path, "line %d: unexpected text '%s' after the section header", line,
               shown);
        free(shown);
    } else {
        char *shown = printable_text(text);
        reject(m->reg, m->path, "line %d: unknown section %s; a pack manifest has one section, "
               "[pack]", line, shown);
        free(shown);
    }
    manifest_failed(m);
}

/* Reads a pack.ini into value[] (allocated). Returns 0, or -1 after
 * recording the first mistake as a rejection of the file. */
static int read_manifest(rb_registry *reg, const char *path, char *value[MF_COUNT_])
{
    char why[512];
    int fd = open_regular(path, MANIFEST_SIZE_MAX, why, sizeof why);
    char *text = NULL;
    size_t len = 0;
    int got = fd >= 0 ? ini_text_slurp(fd, MANIFEST_SIZE_MAX, &text, &len) : -1;
    if (fd >= 0 && got < 0)
        snprintf(why, sizeof why, "cannot be read: %s", strerror(errno));
    if (fd >= 0)
        close(fd);
    if (got > 0) {
        reject(reg, path, "is more than %d bytes, the most a pack manifest may have",
               MANIFEST_SIZE_MAX);
        return -1;
    }
    if (got < 0) {
        reject(reg, path, "cannot read the pack manifest: %s", why);
        return -1;
    }
    manifest_reader m = {.reg = reg, .path = path, .value = value, .ok = 1};
    m.ini = (rb_ini_text){.user = &m,
                          .section = manifest_section,
                          .key = manifest_key,
                          .problem = manifest_problem};
    int unread = ini_text_read(&m.ini, text, len);
    if (unread > 0 && m.ok) {
        reject(reg, path, "cannot read line %d; expected 'key = value'", unread);
        m.ok = 0;
    }
    free(text);
    for (int k = 0; m.ok && k < MF_COUNT_; k++)
        if (!m.key_lines[k]) {
            reject(reg, path, "no '%s' key; a pack manifest is [pack] followed by %s",
                   manifest_keys[k], manifest_key_list);
            m.ok = 0;
        }
    if (!m.ok)
        for (int k = 0; k < MF_COUNT_; k++) {
            free(value[k]);
            value[k] = NULL;
        }
    return m.ok ? 0 : -1;
}

/* The name of the pack in `dir`: its manifest's name, else `folder` (made
 * printable). A manifest read the first time the pack is seen describes
 * it. The caller frees the name. */
static char *pack_of_folder(rb_registry *reg, const char *dir, const char *folder)
{
    char *manifest = xasprintf("%s/%s", dir, RB_PACK_MANIFEST);
    char *value[MF_COUNT_] = {NULL};
    char *name;
    struct stat st;
    if (lstat(manifest, &st) == 0 && read_manifest(reg, manifest, value) == 0) {
        name = xstrdup(value[MF_NAME]);
        rb_pack *p = note_pack(reg, name, dir);
        if (!p->manifest) {
            p->manifest = manifest;
            manifest = NULL;
            p->vendor = value[MF_VENDOR];
            p->version = value[MF_VERSION];
            p->backend = value[MF_BACKEND];
            p->description = value[MF_DESCRIPTION];
            value[MF_VENDOR] = value[MF_VERSION] = value[MF_BACKEND] = NULL;
            value[MF_DESCRIPTION] = NULL;
        }
        for (int k = 0; k < MF_COUNT_; k++)
            free(value[k]);
    } else {
        name = printable_text(folder);
    }
    free(manifest);
    return name;
}

/* ---- scanning folders ---- */

/* Loads the .so files of one folder, under its pack's name. */
static void scan_files(rb_registry *reg, loader *ld, const char *dir, const char *folder)
{
    char **names;
    size_t n = sorted_entries(dir, &names);
    char *pack = pack_of_folder(reg, dir, folder);
    for (size_t k = 0; k < n; k++) {
        if (has_suffix(names[k], ".so")) {
            char *path = xasprintf("%s/%s", dir, names[k]);
            if (!is_dir(path))
                load_discovered(reg, ld, path, pack);
            free(path);
        }
    }
    free(pack);
    free_list(names, n);
}

/* A search folder: its own .so files, then each pack sub-folder's. */
static void scan_dir(rb_registry *reg, loader *ld, const char *dir)
{
    char *trimmed = xstrdup(dir);
    size_t len = strlen(trimmed);
    while (len > 1 && trimmed[len - 1] == '/')
        trimmed[--len] = '\0';
    scan_files(reg, ld, trimmed, base_name(trimmed));
    char **names;
    size_t n = sorted_entries(trimmed, &names);
    for (size_t k = 0; k < n; k++) {
        char *sub = xasprintf("%s/%s", trimmed, names[k]);
        if (is_dir(sub))
            scan_files(reg, ld, sub, names[k]);
        free(sub);
    }
    free_list(names, n);
    free(trimmed);
}

static void add_dir(rb_registry *reg, const char *dir)
{
    if (!*dir)
        return;
    char *abs = NULL;
    if (dir[0] != '/') {
        char cwd[PATH_MAX];
        if (getcwd(cwd, sizeof cwd))
            abs = xasprintf("%s/%s", cwd, dir);
    }
    if (!abs)
        abs = xstrdup(dir);
    for (size_t k = 0; k < reg->n_dirs; k++)
        if (strcmp(reg->dirs[k], abs) == 0) {
            free(abs);
            return;
        }
    reg->dirs = xrealloc(reg->dirs, (reg->n_dirs + 1) * sizeof *reg->dirs);
    reg->dirs[reg->n_dirs++] = abs;
}

void registry_discover(rb_registry *reg, char *const *extra, size_t n_extra)
{
    for (size_t k = 0; k < n_extra; k++)
        add_dir(reg, extra[k]);
    const char *env = getenv("REDBENCH_PLUGIN_PATH");
    if (env && *env) {
        char *copy = xstrdup(env);
        for (char *save = NULL, *tok = strtok_r(copy, ":", &save); tok;
             tok = strtok_r(NULL, ":", &save))
            add_dir(reg, tok);
        free(copy);
    }
    add_dir(reg, "plugins");
    add_dir(reg, RB_PLUGIN_DIR);
    loader ld;
    memset(&ld, 0, sizeof ld);
    ld.fd = -1;
    ld.timeout = load_timeout();
    for (size_t k = 0; k < reg->n_dirs; k++)
        if (is_dir(reg->dirs[k]))
            scan_dir(reg, &ld, reg->dirs[k]);
    loader_end(&ld, 1.0); /* it ends when its socket closes */
    free(ld.buf);
}

/* ---- lookup ---- */

/* How many packs offer a plugin of that name. */
static size_t packs_offering(const rb_registry *reg, const char *name)
{
    size_t count = 0;
    for (size_t k = 0; k < reg->n_plugins; k++)
        count += strcmp(reg->plugins[k].desc->name, name) == 0;
    return count;
}

const rb_loaded_plugin *registry_find(const rb_registry *reg, const char *name)
{
    const char *slash = strchr(name, '/');
    if (slash) {
        char *pack = xstrndup(name, (size_t)(slash - name));
        const rb_loaded_plugin *p = find_in_pack(reg, pack, slash + 1);
        free(pack);
        return p;
    }
    if (packs_offering(reg, name) != 1)
        return NULL;
    for (size_t k = 0; k < reg->n_plugins; k++)
        if (strcmp(reg->plugins[k].desc->name, name) == 0)
            return &reg->plugins[k];
    return NULL;
}

char *registry_ambiguity(const rb_registry *reg, const char *name)
{
    if (strchr(name, '/') || packs_offering(reg, name) < 2)
        return NULL;
    strbuf sb = {0};
    for (size_t k = 0; k < reg->n_plugins; k++)
        if (strcmp(reg->plugins[k].desc->name, name) == 0)
            sb_printf(&sb, "%s%s/%s", sb.len ? ", " : "", reg->plugins[k].pack, name);
    return sb.data;
}

const rb_pack *registry_pack(const rb_registry *reg, const char *name)
{
    for (size_t k = 0; k < reg->n_packs; k++)
        if (strcmp(reg->packs[k].name, name) == 0)
            return &reg->packs[k];
    return NULL;
}

const rb_loaded_backend *registry_backend(const rb_registry *reg, const char *name)
{
    static rb_loaded_backend builtin_cpu;
    if (strcmp(name, "cpu") == 0) {
        if (!builtin_cpu.desc) {
            builtin_cpu.path = "(built in)";
            builtin_cpu.pack = "cpu";
            builtin_cpu.desc = backend_cpu();
        }
        return &builtin_cpu;
    }
    return backend_entry(reg, name);
}

char *registry_plugin_names(const rb_registry *reg)
{
    const char **names = xcalloc(reg->n_plugins + 1, sizeof *names);
    char **qualified = xcalloc(reg->n_plugins + 1, sizeof *qualified);
    size_t n = 0, n_qualified = 0;
    for (size_t k = 0; k < reg->n_plugins; k++) {
        const rb_loaded_plugin *p = &reg->plugins[k];
        const char *name = p->desc->name;
        if (packs_offering(reg, name) > 1)
            name = qualified[n_qualified++] = xasprintf("%s/%s", p->pack, name);
        int seen = 0;
        for (size_t j = 0; j < n; j++)
            seen |= strcmp(names[j], name) == 0;
        if (!seen)
            names[n++] = name;
    }
    char *text = n ? join_words(names, n, ", ") : xstrdup("(none found)");
    free(names);
    free_list(qualified, n_qualified);
    return text;
}

void registry_free(rb_registry *reg)
{
    for (size_t k = 0; k < reg->n_plugins; k++) {
        free(reg->plugins[k].path);
        free(reg->plugins[k].pack);
        free(reg->plugins[k].blob);
        free_plugin_data((rb_plugin *)reg->plugins[k].desc);
        /* handles stay open: plugin code may still be referenced at exit */
    }
    for (size_t k = 0; k < reg->n_backends; k++) {
        free(reg->backends[k].path);
        free(reg->backends[k].pack);
        free(reg->backends[k].blob);
        free_backend_data((rb_backend *)reg->backends[k].desc);
    }
    for (size_t k = 0; k < reg->n_rejected; k++) {
        free(reg->rejected[k].path);
        free(reg->rejected[k].reason);
    }
    for (size_t k = 0; k < reg->n_packs; k++) {
        rb_pack *p = &reg->packs[k];
        free(p->name);
        free(p->dir);
        free(p->manifest);
        free(p->vendor);
        free(p->version);
        free(p->backend);
        free(p->description);
    }
    for (size_t k = 0; k < reg->n_shadowed; k++) {
        free(reg->shadowed[k].path);
        free(reg->shadowed[k].by);
    }
    free(reg->packs);
    free(reg->shadowed);
    free(reg->plugins);
    free(reg->backends);
    free(reg->rejected);
    free_list(reg->dirs, reg->n_dirs);
    memset(reg, 0, sizeof *reg);
}
