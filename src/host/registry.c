/* src/host/registry.c: what discovery keeps and how it is looked up: the
 * plugins and backends accepted (as data), the packs they came in, the
 * files shadowed; a plugin by "NAME" or "PACK/NAME", a pack, a backend (the
 * built-in cpu backend among them); and the registry freed. Discovery
 * (discovery.c) fills it, through the loading process (loader.c) and the
 * checks (descriptor_check.c). */
#include "host/registry.h"

#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "host/backend_cpu.h"
#include "host/descriptor_wire.h"
#include "host/registry_internal.h"

void note_shadowed(rb_registry *reg, const char *path, const char *by)
{
    rb_shadowed *s = grow(&reg->shadowed, &reg->n_shadowed, &reg->cap_shadowed, sizeof *s);
    s->path = xstrdup(path);
    s->by = xstrdup(by);
}

/* The pack of that name, added (without a manifest) if it is new. The
 * pointer is valid until the next pack is added. */
rb_pack *note_pack(rb_registry *reg, const char *name, const char *dir)
{
    for (size_t k = 0; k < reg->n_packs; k++)
        if (strcmp(reg->packs[k].name, name) == 0)
            return &reg->packs[k];
    rb_pack *p = grow(&reg->packs, &reg->n_packs, &reg->cap_packs, sizeof *p);
    p->name = xstrdup(name);
    p->dir = xstrdup(dir);
    return p;
}

/* ---- lookup ---- */

/* The plugin of exactly that pack and name, or NULL. */
const rb_loaded_plugin *find_in_pack(const rb_registry *reg, const char *pack, const char *name)
{
    for (size_t k = 0; k < reg->n_plugins; k++)
        if (strcmp(reg->plugins[k].pack, pack) == 0 &&
            strcmp(reg->plugins[k].desc->name, name) == 0)
            return &reg->plugins[k];
    return NULL;
}

int known_path(const rb_registry *reg, const char *path)
{
    for (size_t k = 0; k < reg->n_plugins; k++)
        if (strcmp(reg->plugins[k].path, path) == 0)
            return 1;
    for (size_t k = 0; k < reg->n_backends; k++)
        if (strcmp(reg->backends[k].path, path) == 0)
            return 1;
    return 0;
}

rb_loaded_backend *find_backend(const rb_registry *reg, const char *name)
{
    for (size_t k = 0; k < reg->n_backends; k++)
        if (strcmp(reg->backends[k].desc->name, name) == 0)
            return &reg->backends[k];
    return NULL;
}

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
    return find_backend(reg, name);
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

/* What a kept plugin or backend owns besides its descriptor. */
static void free_kept(char *path, char *pack, unsigned char *blob)
{
    free(path);
    free(pack);
    free(blob);
}

void registry_free(rb_registry *reg)
{
    /* handles stay open: plugin code may still be referenced at exit */
    for (size_t k = 0; k < reg->n_plugins; k++) {
        rb_loaded_plugin *p = &reg->plugins[k];
        free_kept(p->path, p->pack, p->blob);
        free_plugin_data((rb_plugin *)p->desc);
    }
    free(reg->plugins);
    for (size_t k = 0; k < reg->n_backends; k++) {
        rb_loaded_backend *b = &reg->backends[k];
        free_kept(b->path, b->pack, b->blob);
        free_backend_data((rb_backend *)b->desc);
    }
    free(reg->backends);
    for (size_t k = 0; k < reg->n_rejected; k++) {
        free(reg->rejected[k].path);
        free(reg->rejected[k].reason);
    }
    free(reg->rejected);
    for (size_t k = 0; k < reg->n_packs; k++) {
        rb_pack *p = &reg->packs[k];
        char *texts[] = {p->name,    p->dir,     p->manifest,   p->vendor,
                         p->version, p->backend, p->description};
        for (size_t t = 0; t < RB_ARRAY_LEN(texts); t++)
            free(texts[t]);
    }
    free(reg->packs);
    for (size_t k = 0; k < reg->n_shadowed; k++) {
        free(reg->shadowed[k].path);
        free(reg->shadowed[k].by);
    }
    free(reg->shadowed);
    free_list(reg->dirs, reg->n_dirs);
    memset(reg, 0, sizeof *reg);
}
