/* src/host/discovery.c: finding the plugins. The search path is built from
 * --plugin-path, REDBENCH_PLUGIN_PATH, ./plugins and the installed plugin
 * folder; each folder's .so files, then those of each sub-folder (a pack),
 * are sorted by name and handed one at a time to the loading process
 * (loader.c), whose answer is kept or rejected (descriptor_check.c). This
 * process runs no plugin code while it discovers. */
#include "host/registry.h"

#include <dirent.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/util.h"
#include "host/descriptor_check.h"
#include "host/loader.h"
#include "host/pack_manifest.h"
#include "host/paths.h"
#include "host/registry_internal.h"

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
