/* src/cli/info.c: the commands that describe what is installed: --list
 * (the plugins found, grouped by pack with each pack's manifest; backends;
 * shadowed and rejected files with the reason) and --describe PLUGIN
 * (parameters, ops, dtypes, and the pack it comes from). They print the
 * descriptors discovery read (no plugin code runs here), and every text
 * that comes from a plugin, a manifest or a file name is made printable
 * first: no control byte or escape sequence reaches the terminal. */
#include "config.h"

#include "cli/commands.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "base/names.h"
#include "base/util.h"

/* Column widths of the plugin table, wide enough for every row. */
typedef struct list_columns {
    int name, pack, backend, ops, dtypes;
} list_columns;

/* Text made printable (printable_text), kept until a few more are made:
 * enough for one printf. */
static const char *shown(const char *text)
{
    static char *ring[16];
    static size_t at;
    at = (at + 1) % RB_ARRAY_LEN(ring);
    free(ring[at]);
    ring[at] = printable_text(text);
    return ring[at];
}

static int wider(int width, const char *text)
{
    int n = (int)strlen(text);
    return n > width ? n : width;
}

static list_columns measure_columns(const rb_registry *reg)
{
    list_columns w = {4, 4, 7, 3, 6}; /* the headers: NAME PACK BACKEND OPS DTYPES */
    for (size_t k = 0; k < reg->n_plugins; k++) {
        const rb_loaded_plugin *p = &reg->plugins[k];
        char *ops = op_mask_text(p->desc->ops), *dtypes = dtype_mask_text(p->desc->dtypes);
        w.name = wider(w.name, shown(p->desc->name));
        w.pack = wider(w.pack, shown(p->pack));
        w.backend = wider(w.backend, shown(p->desc->backend));
        w.ops = wider(w.ops, ops);
        w.dtypes = wider(w.dtypes, dtypes);
        free(ops);
        free(dtypes);
    }
    return w;
}

static void print_plugin_row(const list_columns *w, const char *name, const char *pack,
                             const char *backend, const char *ops, const char *dtypes,
                             const char *path)
{
    printf("  %-*s %-*s %-*s %-*s %-*s %s\n", w->name, shown(name), w->pack, shown(pack),
           w->backend, shown(backend), w->ops, ops, w->dtypes, dtypes, shown(path));
}

/* One pack: its manifest, then its plugins. */
static void print_pack(const rb_registry *reg, const rb_pack *pack, const list_columns *w)
{
    size_t count = 0;
    for (size_t k = 0; k < reg->n_plugins; k++)
        count += strcmp(reg->plugins[k].pack, pack->name) == 0;
    if (pack->manifest) {
        printf("\nPack %s %s, by %s, backend %s: %zu plugin%s\n", shown(pack->name),
               shown(pack->version), shown(pack->vendor), shown(pack->backend), count,
               count == 1 ? "" : "s");
        printf("  %s\n  manifest: %s\n", shown(pack->description), shown(pack->manifest));
    } else {
        printf("\nPack %s (no %s): %zu plugin%s\n  folder:   %s\n", shown(pack->name),
               RB_PACK_MANIFEST, count, count == 1 ? "" : "s", shown(pack->dir));
    }
    if (!count) {
        printf("  (no plugin loaded from it)\n");
        return;
    }
    print_plugin_row(w, "NAME", "PACK", "BACKEND", "OPS", "DTYPES", "PATH");
    for (size_t k = 0; k < reg->n_plugins; k++) {
        const rb_loaded_plugin *p = &reg->plugins[k];
        if (strcmp(p->pack, pack->name) != 0)
            continue;
        char *ops = op_mask_text(p->desc->ops), *dtypes = dtype_mask_text(p->desc->dtypes);
        print_plugin_row(w, p->desc->name, p->pack, p->desc->backend, ops, dtypes, p->path);
        free(ops);
        free(dtypes);
    }
}

int command_list(const rb_registry *reg)
{
    printf("Plugin search path:\n");
    for (size_t k = 0; k < reg->n_dirs; k++)
        printf("  %s\n", shown(reg->dirs[k]));

    list_columns w = measure_columns(reg);
    printf("\nPlugins (%zu) in %zu pack%s:\n", reg->n_plugins, reg->n_packs,
           reg->n_packs == 1 ? "" : "s");
    for (size_t k = 0; k < reg->n_packs; k++)
        print_pack(reg, &reg->packs[k], &w);

    printf("\nBackends:\n  %-*s %-*s %s\n", w.name, "cpu", w.pack, "cpu", "(built in)");
    for (size_t k = 0; k < reg->n_backends; k++)
        printf("  %-*s %-*s %s\n", w.name, shown(reg->backends[k].desc->name), w.pack,
               shown(reg->backends[k].pack), shown(reg->backends[k].path));

    if (reg->n_shadowed) {
        printf("\nShadowed (%zu): an earlier folder of the search path has the same pack and "
               "name\n", reg->n_shadowed);
        for (size_t k = 0; k < reg->n_shadowed; k++)
            printf("  %s\n      used instead: %s\n", shown(reg->shadowed[k].path),
                   shown(reg->shadowed[k].by));
    }
    printf("\nRejected (%zu):\n", reg->n_rejected);
    for (size_t k = 0; k < reg->n_rejected; k++)
        printf("  %s\n      %s\n", shown(reg->rejected[k].path), shown(reg->rejected[k].reason));
    return 0;
}

static void print_param(const rb_param_spec *s)
{
    char range[320];
    switch (s->type) {
    case RB_PARAM_INT:
        snprintf(range, sizeof range, "%lld..%lld%s%s", (long long)s->min, (long long)s->max,
                 (s->flags & RB_PARAM_POW2) ? ", power of two" : "",
                 (s->flags & RB_PARAM_AUTO) ? ", or auto" : "");
        break;
    case RB_PARAM_BOOL:
        snprintf(range, sizeof range, "true|false");
        break;
    default: {
        size_t n = 0;
        while (s->choices[n])
            n++;
        char *words = join_words((const char *const *)s->choices, n, "|");
        snprintf(range, sizeof range, "%s", shown(words));
        free(words);
    }
    }
    const char *type = s->type == RB_PARAM_INT ? "int" : s->type == RB_PARAM_BOOL ? "bool"
                                                                                   : "choice";
    printf("  %-18s %-7s %-10s %s\n", shown(s->name), type, shown(s->default_value), range);
    if (s->help)
        printf("  %-18s %s\n", "", shown(s->help));
}

int command_describe(const rb_registry *reg, const char *name)
{
    const rb_loaded_plugin *p = registry_find(reg, name);
    if (!p) {
        char *candidates = registry_ambiguity(reg, name);
        if (candidates) {
            diag_error("plugin '%s' is offered by more than one pack: %s; name one as PACK/NAME",
                       shown(name), shown(candidates));
            free(candidates);
        } else {
            char *names = registry_plugin_names(reg);
            diag_error("unknown plugin '%s'; available: %s", shown(name), shown(names));
            free(names);
        }
        return 2;
    }
    const rb_plugin *d = p->desc;
    const rb_pack *pack = registry_pack(reg, p->pack);
    char *ops = op_mask_text(d->ops), *dtypes = dtype_mask_text(d->dtypes);
    printf("%s %s: %s\n", shown(d->name), shown(d->version), shown(d->summary));
    if (pack && pack->manifest)
        printf("  pack:     %s %s, by %s\n", shown(p->pack), shown(pack->version),
               shown(pack->vendor));
    else
        printf("  pack:     %s\n", shown(p->pack));
    printf("  backend:  %s\n  path:     %s\n  ABI:      %u.%u\n", shown(d->backend),
           shown(p->path), d->abi_major, d->abi_minor);
    printf("  ops:      %s\n  dtypes:   %s\n", ops, dtypes);
    free(ops);
    free(dtypes);
    printf("\nParameters (%u):\n", d->n_params);
    if (d->n_params)
        printf("  %-18s %-7s %-10s %s\n", "NAME", "TYPE", "DEFAULT", "VALID");
    for (uint32_t k = 0; k < d->n_params; k++)
        print_param(&d->params[k]);
    return 0;
}
