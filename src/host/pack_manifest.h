/* src/host/pack_manifest.h: a pack's manifest read and its pack named
 * (pack_manifest.c). For the registry's own files. */
#ifndef RB_PACK_MANIFEST_H
#define RB_PACK_MANIFEST_H

#include "host/registry.h"

/* The name of the pack in `dir`: its manifest's name, else `folder` (made
 * printable). A manifest read the first time the pack is seen describes
 * it; one with a mistake is recorded as rejected. The caller frees the
 * name. */
char *pack_of_folder(rb_registry *reg, const char *dir, const char *folder);

#endif
