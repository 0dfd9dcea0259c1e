/* core/cmd_info.c: the commands that describe what is installed: --list
 * (plugins found, backends, and rejected files with the reason) and
 * --describe PLUGIN (parameters, ops, dtypes). */
#include "config.h"

#include "commands.h"

#include <stdio.h>
#include <stdlib.h>

#include "diag.h"
#include "names.h"
#include "util.h"

int command_list(const rb_registry *reg)
{
    printf("Plugin search path:\n");
    for (size_t k = 0; k < reg->n_dirs; k++)
        printf("  %s\n", reg->dirs[k]);
    printf("\nPlugins (%zu):\n", reg->n_plugins);
    if (reg->n_plugins)
        printf("  %-18s %-8s %-8s %-28s %-22s %s\n", "NAME", "PACK", "BACKEND", "OPS", "DTYPES",
               "PATH");
    for (size_t k = 0; k < reg->n_plugins; k++) {
        const rb_loaded_plugin *p = &reg->plugins[k];
        char *ops = op_mask_text(p->desc->ops), *dtypes = dtype_mask_text(p->desc->dtypes);
        printf("  %-18s %-8s %-8s %-28s %-22s %s\n", p->desc->name, p->pack, p->desc->backend,
               ops, dtypes, p->path);
        free(ops);
        free(dtypes);
    }
    printf("\nBackends:\n  %-18s %-8s %s\n", "cpu", "cpu", "(built in)");
    for (size_t k = 0; k < reg->n_backends; k++)
        printf("  %-18s %-8s %s\n", reg->backends[k].desc->name, reg->backends[k].pack,
               reg->backends[k].path);
    printf("\nRejected (%zu):\n", reg->n_rejected);
    for (size_t k = 0; k < reg->n_rejected; k++)
        printf("  %s\n      %s\n", reg->rejected[k].path, reg->rejected[k].reason);
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
        snprintf(range, sizeof range, "%s", words);
        free(words);
    }
    }
    const char *type = s->type == RB_PARAM_INT ? "int" : s->type == RB_PARAM_BOOL ? "bool"
                                                                                   : "choice";
    printf("  %-18s %-7s %-10s %s\n", s->name, type, s->default_value, range);
    if (s->help)
        printf("  %-18s %s\n", "", s->help);
}

int command_describe(const rb_registry *reg, const char *name)
{
    const rb_loaded_plugin *p = registry_find(reg, name);
    if (!p) {
        char *names = registry_plugin_names(reg);
        diag_error("unknown plugin '%s'; available: %s", name, names);
        free(names);
        return 2;
    }
    const rb_plugin *d = p->desc;
    char *ops = op_mask_text(d->ops), *dtypes = dtype_mask_text(d->dtypes);
    printf("%s %s: %s\n", d->name, d->version ? d->version : "", d->summary ? d->summary : "");
    printf("  pack:     %s\n  backend:  %s\n  path:     %s\n  ABI:      %u.%u\n", p->pack,
           d->backend, p->path, d->abi_major, d->abi_minor);
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
