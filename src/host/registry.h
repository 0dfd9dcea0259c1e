/* src/host/registry.h: plugin discovery. Finds shared objects in the plugin
 * search path, has a loading process open them and check their ABI and
 * descriptor, and keeps the accepted plugins and backends (as data), the
 * packs they came in (with each pack's manifest), and the rejected files
 * with the reason.
 *
 * This process runs no plugin code while it discovers: every file is opened
 * in a loading process (forked, with its own process group, standard
 * streams on /dev/null and a time limit: REDBENCH_LOAD_TIMEOUT seconds,
 * default 10), which sends the descriptor back as data. A file whose code
 * crashes, exits or hangs while it loads is rejected with the reason, and a
 * fresh loading process goes on with the next. The descriptors kept here
 * have no plugin code behind them: their callbacks are stubs that fail. A
 * worker process that runs configurations loads its plugin's code with
 * registry_load_code, which checks that the file still gives the
 * descriptor discovery saw; with --isolation none registry_load_here loads
 * every accepted file into this process.
 *
 * A pack is a folder of plugins. Its name is the `name` of the folder's
 * manifest (pack.ini), or the folder's name when it has none. Plugins are
 * named "NAME" or, where several packs offer the same NAME, "PACK/NAME". */
#ifndef RB_REGISTRY_H
#define RB_REGISTRY_H

#include <stddef.h>

#include <redbench/backend.h>
#include <redbench/plugin.h>

struct rb_registry;

typedef struct rb_loaded_plugin {
    char *path;               /* the .so file */
    char *pack;               /* the folder it came from, e.g. "cpu" */
    void *handle;             /* dlopen handle; NULL until its code is loaded
                                 in this process */
    const rb_plugin *desc;    /* validated descriptor: data read by the
                                 loading process, with the plugin's
                                 callbacks once its code is loaded here */
    /* appended: older initializers of this struct stay valid */
    unsigned char *blob;      /* the descriptor as discovery received it */
    size_t blob_len;
    const struct rb_registry *registry; /* where it was found (its backend) */
    const char *sha256;       /* read back from a results file: its file's
                                 digest then (results/read.c); NULL here */
} rb_loaded_plugin;

typedef struct rb_loaded_backend {
    char *path;               /* the .so file, or "(built in)" */
    char *pack;
    void *handle;             /* NULL for the built-in cpu backend, and until
                                 its code is loaded in this process */
    const rb_backend *desc;
    /* appended */
    unsigned char *blob;
    size_t blob_len;
} rb_loaded_backend;

typedef struct rb_rejected {
    char *path;
    char *reason;
} rb_rejected;

/* A pack's manifest, pack.ini in the pack's folder:
 *     [pack]
 *     name = acme              ; lower case letters, digits, - and _
 *     vendor = Acme Corp.
 *     version = 2.1
 *     backend = cuda           ; what its strategies run on (a comma list
 *                              ; where they run on several)
 *     description = one line
 * All five keys are required. A manifest with a mistake is reported as
 * rejected ("line N: ...") and the pack is known by its folder's name. */
#define RB_PACK_MANIFEST "pack.ini"

typedef struct rb_pack {
    char *name;               /* the manifest's name, else the folder's */
    char *dir;                /* the first folder it was found in */
    char *manifest;           /* the pack.ini read; NULL when none */
    char *vendor, *version, *backend, *description; /* NULL without a manifest */
} rb_pack;

/* A plugin not loaded because an earlier folder of the search path already
 * gave one of the same pack and name (e.g. the build tree's copy of an
 * installed pack). */
typedef struct rb_shadowed {
    char *path;
    char *by;                 /* the path of the plugin used instead */
} rb_shadowed;

typedef struct rb_registry {
    char **dirs;              /* the search path actually used, in order */
    size_t n_dirs;
    rb_loaded_plugin *plugins;
    size_t n_plugins, cap_plugins;
    rb_loaded_backend *backends;
    size_t n_backends, cap_backends;
    rb_rejected *rejected;
    size_t n_rejected, cap_rejected;
    /* appended: older initializers of this struct stay valid */
    rb_pack *packs;           /* in the order first found */
    size_t n_packs, cap_packs;
    rb_shadowed *shadowed;
    size_t n_shadowed, cap_shadowed;
} rb_registry;

/* Builds the search path: each of `extra` (--plugin-path), then
 * REDBENCH_PLUGIN_PATH, then ./plugins, then the installed plugin folder;
 * and loads everything found there: the .so files of each folder, then those
 * of each sub-folder (a pack), reading the pack.ini of every folder it scans.
 * A plugin already loaded from an earlier folder with the same pack and name
 * shadows later ones. */
void registry_discover(rb_registry *reg, char *const *extra, size_t n_extra);

/* Loads one file into `pack` in this process, its code included (for tests
 * and fuzzing; discovery uses a loading process). Returns 0 when accepted or
 * shadowed, -1 when rejected (the reason is recorded). */
int registry_load_file(rb_registry *reg, const char *path, const char *pack);

/* In a worker process: loads the code of plugin p and of the backend it
 * names, after checking that each file still gives the descriptor that
 * discovery saw. Returns 0, or -1 with the reason in why. */
int registry_load_code(const rb_loaded_plugin *p, char *why, size_t why_len);

/* --isolation none: loads the code of every accepted plugin and backend
 * into this process. A file that cannot be loaded is reported on standard
 * error; its configurations then fail with the reason. */
void registry_load_here(rb_registry *reg);

/* The plugin named "NAME" or "PACK/NAME", or NULL when there is none or when
 * a plain NAME is offered by more than one pack (see registry_ambiguity). */
const rb_loaded_plugin *registry_find(const rb_registry *reg, const char *name);
/* When a plain NAME is offered by more than one pack: the candidates, e.g.
 * "cpu/serial, acme/serial" (the caller frees it); otherwise NULL. */
char *registry_ambiguity(const rb_registry *reg, const char *name);
/* The pack of that name, or NULL. */
const rb_pack *registry_pack(const rb_registry *reg, const char *name);
/* The backend of that name (the built-in cpu backend included), or NULL. */
const rb_loaded_backend *registry_backend(const rb_registry *reg, const char *name);

/* "serial, unrolled, ..." for error messages, with "PACK/NAME" for names
 * that several packs offer; the caller frees it. */
char *registry_plugin_names(const rb_registry *reg);

void registry_free(rb_registry *reg);

#endif
