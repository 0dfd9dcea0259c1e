/* core/registry.h: plugin discovery. Finds shared objects in the plugin
 * search path, opens them, checks their ABI and descriptor, and keeps the
 * accepted plugins and backends, and the rejected files with the reason. */
#ifndef RB_REGISTRY_H
#define RB_REGISTRY_H

#include <stddef.h>

#include <redbench/backend.h>
#include <redbench/plugin.h>

typedef struct rb_loaded_plugin {
    char *path;               /* the .so file */
    char *pack;               /* the folder it came from, e.g. "cpu" */
    void *handle;             /* dlopen handle */
    const rb_plugin *desc;    /* validated descriptor */
} rb_loaded_plugin;

typedef struct rb_loaded_backend {
    char *path;               /* the .so file, or "(built in)" */
    char *pack;
    void *handle;             /* NULL for the built-in cpu backend */
    const rb_backend *desc;
} rb_loaded_backend;

typedef struct rb_rejected {
    char *path;
    char *reason;
} rb_rejected;

typedef struct rb_registry {
    char **dirs;              /* the search path actually used, in order */
    size_t n_dirs;
    rb_loaded_plugin *plugins;
    size_t n_plugins, cap_plugins;
    rb_loaded_backend *backends;
    size_t n_backends, cap_backends;
    rb_rejected *rejected;
    size_t n_rejected, cap_rejected;
} rb_registry;

/* Builds the search path: each of `extra` (--plugin-path), then
 * REDBENCH_PLUGIN_PATH, then ./plugins, then the installed plugin folder;
 * and loads everything found there. A name already loaded from an earlier
 * folder of the same pack shadows later ones. */
void registry_discover(rb_registry *reg, char *const *extra, size_t n_extra);

/* Loads one file (used by discovery and by tests). Returns 0 when accepted. */
int registry_load_file(rb_registry *reg, const char *path, const char *pack);

/* The plugin of that name, or NULL. */
const rb_loaded_plugin *registry_find(const rb_registry *reg, const char *name);
/* The backend of that name (the built-in cpu backend included), or NULL. */
const rb_loaded_backend *registry_backend(const rb_registry *reg, const char *name);

/* "serial, unrolled, ..." for error messages; the caller frees it. */
char *registry_plugin_names(const rb_registry *reg);

void registry_free(rb_registry *reg);

#endif
