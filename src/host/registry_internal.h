/* src/host/registry_internal.h: what the registry's own files (discovery,
 * the checks, the loading of code, pack manifests) add to and ask of the
 * registry (registry.c); the rest of the program uses host/registry.h. */
#ifndef RB_REGISTRY_INTERNAL_H
#define RB_REGISTRY_INTERNAL_H

#include "host/registry.h"

/* Notes that path was not loaded because `by` gives the same plugin. */
void note_shadowed(rb_registry *reg, const char *path, const char *by);
/* The pack of that name, added (without a manifest) if it is new. The
 * pointer is valid until the next pack is added. */
rb_pack *note_pack(rb_registry *reg, const char *name, const char *dir);
/* The plugin of exactly that pack and name, or NULL. */
const rb_loaded_plugin *find_in_pack(const rb_registry *reg, const char *pack, const char *name);
/* Whether a plugin or backend was kept from that path. */
int known_path(const rb_registry *reg, const char *path);
/* The backend of that name loaded from a file (not the built-in one), or
 * NULL. */
rb_loaded_backend *find_backend(const rb_registry *reg, const char *name);

#endif
