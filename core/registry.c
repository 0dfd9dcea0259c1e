/* core/registry.c: plugin discovery, ABI checks and packs. Every .so in a
 * search folder (or in a pack sub-folder of it) is opened; one exporting
 * redbench_plugin_entry or redbench_backend_entry whose descriptor passes
 * the checks below is kept, anything else is recorded as rejected with the
 * reason. The host reads no field past the size a descriptor declares. Each
 * folder's pack.ini names its pack and says who made it; a plugin of a pack
 * and name already loaded from an earlier folder is shadowed. */
#include "registry.h"

#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "backend_cpu.h"
#include "util.h"

#ifndef RB_PLUGIN_DIR
#define RB_PLUGIN_DIR "/usr/local/lib/redbench"
#endif

#define RB_NAME_MAX 64
#define RB_TEXT_MAX 256
#define RB_PARAMS_MAX 64
#define RB_CHOICES_MAX 64

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

/* A printable string of at most `max` characters, or NULL. */
static int text_ok(const char *s, size_t max)
{
    if (!s)
        return 0;
    size_t n = strnlen(s, max + 1);
    if (n > max)
        return 0;
    for (size_t k = 0; k < n; k++)
        if ((unsigned char)s[k] < 0x20)
            return 0;
    return 1;
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

static int param_spec_ok(rb_registry *reg, const char *path, const rb_param_spec *p, uint32_t k)
{
    if (!name_ok(p->name)) {
        reject(reg, path, "parameter %u has no valid name (lower case letters, digits, - and _, "
               "at most %d characters)", k, RB_NAME_MAX);
        return 0;
    }
    if (!text_ok(p->default_value, RB_TEXT_MAX) || !*p->default_value) {
        reject(reg, path, "parameter '%s' has no default value", p->name);
        return 0;
    }
    if (p->help && !text_ok(p->help, RB_TEXT_MAX)) {
        reject(reg, path, "parameter '%s' has an unprintable or overlong help text", p->name);
        return 0;
    }
    switch (p->type) {
    case RB_PARAM_INT:
        if (p->min > p->max) {
            reject(reg, path, "parameter '%s' has min %lld > max %lld", p->name,
                   (long long)p->min, (long long)p->max);
            return 0;
        }
        return 1;
    case RB_PARAM_BOOL:
        return 1;
    case RB_PARAM_CHOICE: {
        if (!p->choices || !p->choices[0]) {
            reject(reg, path, "parameter '%s' is a choice with no choices", p->name);
            return 0;
        }
        size_t c = 0;
        for (; p->choices[c]; c++) {
            if (c >= RB_CHOICES_MAX || !text_ok(p->choices[c], RB_NAME_MAX) || !*p->choices[c]) {
                reject(reg, path, "parameter '%s' has an invalid choice list (at most %d words "
                       "of at most %d characters)", p->name, RB_CHOICES_MAX, RB_NAME_MAX);
                return 0;
            }
        }
        return 1;
    }
    default:
        reject(reg, path, "parameter '%s' has unknown type %d (valid: 1 int, 2 choice, 3 bool)",
               p->name, p->type);
        return 0;
    }
}

static int plugin_ok(rb_registry *reg, const char *path, const rb_plugin *d)
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
    if ((d->summary && !text_ok(d->summary, RB_TEXT_MAX)) ||
        (d->version && !text_ok(d->version, RB_NAME_MAX))) {
        reject(reg, path, "plugin '%s' has an unprintable or overlong summary or version",
               d->name);
        return 0;
    }
    const char *missing = !d->init ? "init" : !d->run ? "run" : !d->verify ? "verify"
                        : !d->teardown ? "teardown" : NULL;
    if (missing) {
        reject(reg, path, "plugin '%s' is missing the required callback '%s'", d->name, missing);
        return 0;
    }
    if (!(d->ops & ((1u << RB_OP_COUNT_) - 1)) || !(d->dtypes & ((1u << RB_DTYPE_COUNT_) - 1))) {
        reject(reg, path, "plugin '%s' declares no known op or dtype", d->name);
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

static int backend_ok(rb_registry *reg, const char *path, const rb_backend *d)
{
    if (!name_ok(d->name)) {
        reject(reg, path, "backend has no valid name");
        return 0;
    }
    if (strcmp(d->name, "cpu") == 0) {
        reject(reg, path, "backend 'cpu' is built into redbench and cannot be replaced");
        return 0;
    }
    if (!d->device_count || !d->open || !d->close || !d->queue || !d->alloc || !d->release ||
        !d->upload || !d->time_begin || !d->time_end || !d->synchronize || !d->flush_cache ||
        !d->measure_peak || !d->recover) {
        reject(reg, path, "backend '%s' is missing a required callback", d->name);
        return 0;
    }
    return 1;
}

static const char *dl_reason(const char *err)
{
    if (err && (strstr(err, "invalid ELF header") || strstr(err, "file too short") ||
                strstr(err, "not a dynamic")))
        return "not a shared object";
    return "cannot be loaded";
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

static int load_file(rb_registry *reg, const char *path, const char *pack)
{
    for (size_t k = 0; k < reg->n_plugins; k++)
        if (strcmp(reg->plugins[k].path, path) == 0)
            return 0;
    for (size_t k = 0; k < reg->n_backends; k++)
        if (strcmp(reg->backends[k].path, path) == 0)
            return 0;

    dlerror();
    void *handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        const char *err = dlerror();
        reject(reg, path, "%s: %s", dl_reason(err), err ? err : "unknown dlopen error");
        return -1;
    }
    rb_plugin_entry_fn plugin_entry;
    rb_backend_entry_fn backend_entry;
    *(void **)&plugin_entry = dlsym(handle, REDBENCH_PLUGIN_ENTRY_NAME);
    *(void **)&backend_entry = dlsym(handle, REDBENCH_BACKEND_ENTRY_NAME);

    if (plugin_entry) {
        const rb_plugin *d = plugin_entry();
        if (!d) {
            reject(reg, path, "%s() returned no descriptor", REDBENCH_PLUGIN_ENTRY_NAME);
        } else if (version_ok(reg, path, "plugin", d->abi_major, d->abi_minor, d->size,
                              PLUGIN_SIZE_1_0)) {
            rb_plugin *copy = xcalloc(1, sizeof *copy);
            memcpy(copy, d, d->size < sizeof *copy ? d->size : sizeof *copy);
            if (plugin_ok(reg, path, copy)) {
                const rb_loaded_plugin *same = find_in_pack(reg, pack, copy->name);
                if (same) {
                    note_shadowed(reg, path, same->path);
                    free(copy);
                    dlclose(handle);
                    return 0;
                }
                char *dir = folder_of(path);
                note_pack(reg, pack, dir);
                free(dir);
                rb_loaded_plugin *p =
                    grow(&reg->plugins, &reg->n_plugins, &reg->cap_plugins, sizeof *p);
                p->path = xstrdup(path);
                p->pack = xstrdup(pack);
                p->handle = handle;
                p->desc = copy;
                return 0;
            }
            free(copy);
        }
    } else if (backend_entry) {
        const rb_backend *d = backend_entry();
        if (!d) {
            reject(reg, path, "%s() returned no descriptor", REDBENCH_BACKEND_ENTRY_NAME);
        } else if (version_ok(reg, path, "backend", d->abi_major, d->abi_minor, d->size,
                              BACKEND_SIZE_1_0)) {
            rb_backend *copy = xcalloc(1, sizeof *copy);
            memcpy(copy, d, d->size < sizeof *copy ? d->size : sizeof *copy);
            if (backend_ok(reg, path, copy)) {
                const rb_loaded_backend *same = registry_backend(reg, copy->name);
                if (same) { /* a backend of that name came from an earlier folder */
                    note_shadowed(reg, path, same->path);
                    free(copy);
                    dlclose(handle);
                    return 0;
                }
                rb_loaded_backend *b =
                    grow(&reg->backends, &reg->n_backends, &reg->cap_backends, sizeof *b);
                b->path = xstrdup(path);
                b->pack = xstrdup(pack);
                b->handle = handle;
                b->desc = copy;
                return 0;
            }
            free(copy);
        }
    } else {
        reject(reg, path, "no entry point: exports neither %s nor %s (not a redbench plugin)",
               REDBENCH_PLUGIN_ENTRY_NAME, REDBENCH_BACKEND_ENTRY_NAME);
    }
    dlclose(handle);
    return -1;
}

/* Plugin code runs while a file is loaded (constructors, the entry point):
 * whatever it prints goes to standard error, never into the machine-readable
 * output on standard output. */
int registry_load_file(rb_registry *reg, const char *path, const char *pack)
{
    fflush(stdout);
    int saved = dup(STDOUT_FILENO);
    if (saved >= 0)
        dup2(STDERR_FILENO, STDOUT_FILENO);
    int status = load_file(reg, path, pack);
    fflush(stdout);
    if (saved >= 0) {
        dup2(saved, STDOUT_FILENO);
        close(saved);
    }
    return status;
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

#define MANIFEST_LINE_MAX 400

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
        reject(reg, path, "line %d: unknown key '%s'; a pack manifest has: %s", line, key,
               manifest_key_list);
        return -1;
    }
    if (key_lines[k]) {
        reject(reg, path, "line %d: '%s' is set twice (first on line %d)", line, key,
               key_lines[k]);
        return -1;
    }
    if (k == MF_NAME && !name_ok(value)) {
        reject(reg, path, "line %d: name = '%s' is not a valid pack name (lower case letters, "
               "digits, - and _, at most %d characters)", line, value, RB_NAME_MAX);
        return -1;
    }
    if (k == MF_BACKEND && !backend_list_ok(value)) {
        reject(reg, path, "line %d: backend = '%s' is not a backend name or a comma list of "
               "them (e.g. 'cuda' or 'cpu, cuda')", line, value);
        return -1;
    }
    if (!*value || !text_ok(value, RB_TEXT_MAX)) {
        reject(reg, path, "line %d: %s is %s; write one line of at most %d characters", line,
               key, *value ? "too long or unprintable" : "empty", RB_TEXT_MAX);
        return -1;
    }
    return k;
}

/* Reads a pack.ini into value[] (allocated). Returns 0, or -1 after
 * recording the first mistake as a rejection of the file. */
static int read_manifest(rb_registry *reg, const char *path, char *value[MF_COUNT_])
{
    FILE *file = fopen(path, "r");
    if (!file) {
        reject(reg, path, "cannot read the pack manifest: %s", strerror(errno));
        return -1;
    }
    int key_lines[MF_COUNT_] = {0};
    int line = 0, pack_line = 0, ok = 1;
    char *buf = NULL;
    size_t cap = 0;
    ssize_t len;
    while (ok && (len = getline(&buf, &cap, file)) >= 0) {
        line++;
        if (len > MANIFEST_LINE_MAX) {
            reject(reg, path, "line %d is longer than %d characters", line, MANIFEST_LINE_MAX);
            ok = 0;
            break;
        }
        for (char *c = buf; *c; c++) /* an inline comment: ';' after white space */
            if (*c == ';' && c > buf && (c[-1] == ' ' || c[-1] == '\t')) {
                *c = '\0';
                break;
            }
        char *text = trim(buf);
        if (!*text || *text == ';' || *text == '#')
            continue;
        if (*text == '[') {
            if (strcmp(text, "[pack]") != 0 || pack_line) {
                reject(reg, path, "line %d: %s %s; a pack manifest has one section, [pack]",
                       line, pack_line ? "another section" : "unknown section", text);
                ok = 0;
            }
            pack_line = line;
            continue;
        }
        char *eq = strchr(text, '=');
        if (!pack_line || !eq) {
            reject(reg, path, "line %d: expected %s", line,
                   pack_line ? "'key = value'" : "the [pack] section first");
            ok = 0;
            break;
        }
        *eq = '\0';
        const char *key = trim(text), *val = trim(eq + 1);
        int k = manifest_setting(reg, path, line, key, val, key_lines);
        if (k < 0) {
            ok = 0;
        } else {
            key_lines[k] = line;
            value[k] = xstrdup(val);
        }
    }
    free(buf);
    fclose(file);
    for (int k = 0; ok && k < MF_COUNT_; k++)
        if (!key_lines[k]) {
            reject(reg, path, "no '%s' key; a pack manifest is [pack] followed by %s",
                   manifest_keys[k], manifest_key_list);
            ok = 0;
        }
    if (!ok)
        for (int k = 0; k < MF_COUNT_; k++) {
            free(value[k]);
            value[k] = NULL;
        }
    return ok ? 0 : -1;
}

/* The name of the pack in `dir`: its manifest's name, else `folder`. A
 * manifest read the first time the pack is seen describes it. The caller
 * frees the name. */
static char *pack_of_folder(rb_registry *reg, const char *dir, const char *folder)
{
    char *manifest = xasprintf("%s/%s", dir, RB_PACK_MANIFEST);
    char *value[MF_COUNT_] = {NULL};
    char *name;
    struct stat st;
    if (stat(manifest, &st) == 0 && read_manifest(reg, manifest, value) == 0) {
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
        name = xstrdup(folder);
    }
    free(manifest);
    return name;
}

/* ---- scanning folders ---- */

/* Loads the .so files of one folder, under its pack's name. */
static void scan_files(rb_registry *reg, const char *dir, const char *folder)
{
    char **names;
    size_t n = sorted_entries(dir, &names);
    char *pack = pack_of_folder(reg, dir, folder);
    for (size_t k = 0; k < n; k++) {
        if (has_suffix(names[k], ".so")) {
            char *path = xasprintf("%s/%s", dir, names[k]);
            if (!is_dir(path))
                registry_load_file(reg, path, pack);
            free(path);
        }
    }
    free(pack);
    free_list(names, n);
}

/* A search folder: its own .so files, then each pack sub-folder's. */
static void scan_dir(rb_registry *reg, const char *dir)
{
    char *trimmed = xstrdup(dir);
    size_t len = strlen(trimmed);
    while (len > 1 && trimmed[len - 1] == '/')
        trimmed[--len] = '\0';
    scan_files(reg, trimmed, base_name(trimmed));
    char **names;
    size_t n = sorted_entries(trimmed, &names);
    for (size_t k = 0; k < n; k++) {
        char *sub = xasprintf("%s/%s", trimmed, names[k]);
        if (is_dir(sub))
            scan_files(reg, sub, names[k]);
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
    for (size_t k = 0; k < reg->n_dirs; k++)
        if (is_dir(reg->dirs[k]))
            scan_dir(reg, reg->dirs[k]);
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
    for (size_t k = 0; k < reg->n_backends; k++)
        if (strcmp(reg->backends[k].desc->name, name) == 0)
            return &reg->backends[k];
    return NULL;
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
        free((void *)reg->plugins[k].desc);
        /* handles stay open: plugin code may still be referenced at exit */
    }
    for (size_t k = 0; k < reg->n_backends; k++) {
        free(reg->backends[k].path);
        free(reg->backends[k].pack);
        free((void *)reg->backends[k].desc);
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
