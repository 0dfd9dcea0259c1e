/* src/host/pack_manifest.c: a pack's manifest, pack.ini in the pack's
 * folder (host/registry.h shows it): read through base/ini_text.c, every
 * key checked, the first mistake recorded as a rejection of the manifest
 * ("line N: ..."). A folder's pack is named by its manifest, else by the
 * folder; the first manifest read of a pack describes it. */
#include "host/pack_manifest.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/ini_text.h"
#include "base/util.h"
#include "host/descriptor_check.h"
#include "host/loader.h"
#include "host/registry_internal.h"

/* The largest pack manifest read. */
#define MANIFEST_SIZE_MAX 65536

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
char *pack_of_folder(rb_registry *reg, const char *dir, const char *folder)
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
