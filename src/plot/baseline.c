/* src/plot/baseline.c: the baseline that speedups are measured against:
 * which rows a name given with --baseline names (a run named so, else a
 * plugin, else PACK/PLUGIN), the error listing what it could name, and
 * the winner maps' default baseline (PLOT_DEFAULT_BASELINE, where the
 * results hold it). */
#include "plot/data.h"

#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "base/text_index.h"
#include "base/util.h"

/* The row's pack ("" when unknown). */
static const char *row_pack(const rb_row *row)
{
    const rb_configuration *cfg = row->config;
    return cfg->plugin && cfg->plugin->pack ? cfg->plugin->pack : "";
}

/* Whether `name` is PACK/PLUGIN of the row. */
static int names_pack_plugin(const rb_row *row, const char *name)
{
    const char *plugin = plot_plugin_name(row), *pack = row_pack(row);
    size_t len = strlen(pack);
    return plugin && *pack && strncmp(name, pack, len) == 0 && name[len] == '/' &&
           strcmp(name + len + 1, plugin) == 0;
}

int plot_in_baseline(const plot_row *r, const char *baseline, int by)
{
    switch (by) {
    case PLOT_BY_RUN: return r->run && strcmp(r->run, baseline) == 0;
    case PLOT_BY_PLUGIN: return r->plugin && strcmp(r->plugin, baseline) == 0;
    case PLOT_BY_PACK_PLUGIN: return names_pack_plugin(r->row, baseline);
    default: return 0;
    }
}

/* A row's run and plugin names ("" when unknown). */
static void row_names(const rb_row *row, const char *words[2])
{
    const char *plugin = plot_plugin_name(row);
    words[0] = row->config->run && row->config->run->name ? row->config->run->name : "";
    words[1] = plugin ? plugin : "";
}

int plot_resolve_baseline(const plot_builder *b, const char *baseline, int *by)
{
    const rb_results *res = b->res;
    int plugin_match = 0, pack_match = 0;
    for (size_t k = 0; k < res->n_rows; k++) {
        const char *words[2];
        row_names(&res->rows[k], words);
        if (strcmp(words[0], baseline) == 0) {
            *by = PLOT_BY_RUN;
            return 0;
        }
        plugin_match |= strcmp(words[1], baseline) == 0;
        pack_match |= names_pack_plugin(&res->rows[k], baseline);
    }
    if (plugin_match || pack_match) {
        *by = plugin_match ? PLOT_BY_PLUGIN : PLOT_BY_PACK_PLUGIN;
        return 0;
    }
    /* The first few different runs and plugins, each once. */
    strbuf runs = {0}, plugins = {0};
    text_index seen[2] = {{0}, {0}};
    size_t listed[2] = {0, 0};
    for (size_t k = 0; k < res->n_rows; k++) {
        const char *words[2];
        row_names(&res->rows[k], words);
        strbuf *lists[2] = {&runs, &plugins};
        for (int w = 0; w < 2; w++) {
            int added;
            if (!*words[w] || listed[w] > 20)
                continue;
            text_index_put(&seen[w], words[w], 0, &added);
            if (!added)
                continue;
            if (++listed[w] > 20) {
                sb_append(lists[w], " ...,");
                continue;
            }
            char *shown = printable_text(words[w]);
            sb_printf(lists[w], " %s,", shown);
            free(shown);
        }
    }
    text_index_free(&seen[0]);
    text_index_free(&seen[1]);
    if (runs.len)
        runs.data[--runs.len] = '\0';
    if (plugins.len)
        plugins.data[--plugins.len] = '\0';
    char *shown_baseline = printable_text(baseline);
    diag_error("--baseline %s: %s has no run, plugin or PACK/PLUGIN of that name; runs:%s; "
               "plugins:%s",
               shown_baseline, b->path, runs.data ? runs.data : " none",
               plugins.data ? plugins.data : " none");
    free(shown_baseline);
    sb_free(&runs);
    sb_free(&plugins);
    return -1;
}

const char *plot_default_baseline(const plot_builder *b, int *by)
{
    for (size_t k = 0; k < b->n_rows; k++)
        if (names_pack_plugin(b->rows[k].row, PLOT_DEFAULT_BASELINE)) {
            *by = PLOT_BY_PACK_PLUGIN;
            return PLOT_DEFAULT_BASELINE;
        }
    return NULL;
}
