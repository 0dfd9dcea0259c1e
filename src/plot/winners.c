/* src/plot/winners.c: the winner maps of shaped results. For each op,
 * dtype, axis and lengths (and device, distribution and bins where the
 * rows hold several), a grid of rows x n whose cells are coloured by the
 * strategy that was fastest there and labelled with its speedup over the
 * baseline (the baseline's fastest time in the cell / the winner's), or
 * with its GB/s where there is no baseline or it has no time in the cell.
 * A strategy is a plugin with the parameters that vary among its rows
 * ("rows strategy=warp"), whatever the runs that ran it: a grid split into
 * runs by bands of n (conf/shaped.ini) maps one strategy in one colour.
 * Rows of one reduction (rows 1 along rows) are the grid's rows = 1. Only
 * a file with some shaped row has winner maps. */
#include "plot/data.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "base/names.h"
#include "base/text_index.h"
#include "base/units.h"
#include "base/util.h"
#include "config/sweep.h"

/* A map with more values than this on an axis is not drawn (it could not
 * be read); a warning says so. */
#define MAX_AXIS_VALUES 64

/* A plugin among the rows, and the parameters that vary among its rows. */
typedef struct plugin_params {
    size_t first;                    /* its first row, in b->rows */
    const char *varying[PLOT_MAX_VARYING];
    size_t n_varying;
} plugin_params;

/* What the maps are made of: each row's strategy and group, and the
 * strategies' labels. */
typedef struct winner_data {
    size_t *strategy;    /* per row: index into labels */
    size_t *group;       /* per row: index of its map */
    size_t *group_first; /* per map: its first row */
    size_t n_groups;
    char **labels;       /* per strategy: "threads threads=2" */
    size_t n_strategies;
} winner_data;

static const char *row_pack(const plot_row *r)
{
    const rb_configuration *cfg = r->row->config;
    return cfg->plugin && cfg->plugin->pack ? cfg->plugin->pack : "";
}

/* The plugins of the rows (by pack and name), each with the parameters
 * whose value differs between its rows; plugin_of[k]: row k's. */
static plugin_params *find_plugins(const plot_builder *b, size_t *plugin_of, size_t *count)
{
    text_index by_name = {0}; /* its keys: in `keys`, which outlives it */
    plugin_params *plugins = NULL;
    char **keys = NULL;
    size_t n = 0, cap = 0, keys_cap = 0;
    for (size_t k = 0; k < b->n_rows; k++) {
        const plot_row *r = &b->rows[k];
        char *key = xasprintf("%s\x1f%s", row_pack(r), r->plugin ? r->plugin : "");
        int added;
        plugin_of[k] = *text_index_put(&by_name, key, n, &added);
        if (!added) {
            free(key);
            continue;
        }
        size_t n_keys = n;
        *(char **)grow(&keys, &n_keys, &keys_cap, sizeof *keys) = key;
        plugin_params *p = grow(&plugins, &n, &cap, sizeof *p);
        memset(p, 0, sizeof *p);
        p->first = k;
    }
    text_index_free(&by_name);
    free_list(keys, n);
    for (size_t k = 0; k < b->n_rows; k++) {
        plugin_params *p = &plugins[plugin_of[k]];
        const rb_configuration *cfg = b->rows[k].row->config;
        for (uint32_t m = 0; m < cfg->n_params; m++) {
            const char *name = cfg->params[m].name ? cfg->params[m].name : "";
            size_t v = 0;
            while (v < p->n_varying && strcmp(p->varying[v], name) != 0)
                v++;
            int is_number;
            if (v < p->n_varying || p->n_varying == PLOT_MAX_VARYING ||
                strcmp(plot_param(&b->rows[k], name, &is_number),
                       plot_param(&b->rows[p->first], name, &is_number)) == 0)
                continue;
            p->varying[p->n_varying++] = name;
        }
    }
    *count = n;
    return plugins;
}

/* Whether another plugin of the rows has the same name in another pack. */
static int name_shared(const plot_builder *b, const plugin_params *plugins, size_t n, size_t p)
{
    const plot_row *r = &b->rows[plugins[p].first];
    for (size_t q = 0; q < n; q++) {
        const plot_row *o = &b->rows[plugins[q].first];
        if (q != p && r->plugin && o->plugin && strcmp(r->plugin, o->plugin) == 0)
            return 1;
    }
    return 0;
}

/* What a row's map is for: device, op, dtype, distribution, bins, axis
 * and lengths. */
static char *group_id(const plot_row *r)
{
    strbuf sb = {0};
    sb_printf(&sb, "%d", r->device);
    static const int fields[] = {PLOT_FIELD_OP, PLOT_FIELD_DTYPE, PLOT_FIELD_DISTRIBUTION,
                                 PLOT_FIELD_BINS, PLOT_FIELD_AXIS, PLOT_FIELD_LENGTHS};
    for (size_t f = 0; f < RB_ARRAY_LEN(fields); f++)
        sb_printf(&sb, "\x1f%s", r->field[fields[f]]);
    return sb.data;
}

/* Each row's strategy and map; 0 when no row has a shape (no maps). */
static int sort_rows(const plot_builder *b, winner_data *d)
{
    int shaped = 0;
    for (size_t k = 0; k < b->n_rows && !shaped; k++)
        shaped = sweep_is_shaped(b->rows[k].row->config);
    if (!shaped)
        return 0;
    size_t n_plugins;
    size_t *plugin_of = xcalloc(b->n_rows, sizeof *plugin_of);
    plugin_params *plugins = find_plugins(b, plugin_of, &n_plugins);
    d->strategy = xcalloc(b->n_rows, sizeof *d->strategy);
    d->group = xcalloc(b->n_rows, sizeof *d->group);
    text_index labels = {0}, groups = {0}; /* their keys: d->labels and group_ids */
    char **group_ids = NULL;
    size_t labels_cap = 0, groups_cap = 0, ids_cap = 0;
    for (size_t k = 0; k < b->n_rows; k++) {
        const plot_row *r = &b->rows[k];
        const plugin_params *p = &plugins[plugin_of[k]];
        strbuf label = {0};
        if (name_shared(b, plugins, n_plugins, plugin_of[k]))
            sb_printf(&label, "%s/", row_pack(r));
        sb_append(&label, r->plugin ? r->plugin : r->run);
        for (size_t v = 0; v < p->n_varying; v++) {
            int is_number;
            sb_printf(&label, " %s=%s", p->varying[v], plot_param(r, p->varying[v], &is_number));
        }
        int added;
        d->strategy[k] = *text_index_put(&labels, label.data, d->n_strategies, &added);
        if (added)
            *(char **)grow(&d->labels, &d->n_strategies, &labels_cap, sizeof *d->labels) =
                label.data;
        else
            sb_free(&label);
        char *id = group_id(r);
        d->group[k] = *text_index_put(&groups, id, d->n_groups, &added);
        if (added) {
            size_t n_ids = d->n_groups;
            *(char **)grow(&group_ids, &n_ids, &ids_cap, sizeof *group_ids) = id;
            *(size_t *)grow(&d->group_first, &d->n_groups, &groups_cap,
                            sizeof *d->group_first) = k;
        } else {
            free(id);
        }
    }
    text_index_free(&labels);
    text_index_free(&groups);
    free_list(group_ids, d->n_groups);
    free(plugins);
    free(plugin_of);
    return 1;
}

static void winner_data_free(winner_data *d)
{
    free(d->strategy);
    free(d->group);
    free(d->group_first);
    free_list(d->labels, d->n_strategies);
    memset(d, 0, sizeof *d);
}

static int by_number(const void *pa, const void *pb)
{
    double a = *(const double *)pa, b = *(const double *)pb;
    return a < b ? -1 : a > b;
}

/* The distinct values of `values` (count of them), sorted; returns how many. */
static size_t distinct(double *values, size_t count)
{
    qsort(values, count, sizeof *values, by_number);
    size_t n = 0;
    for (size_t k = 0; k < count; k++)
        if (n == 0 || values[k] != values[n - 1])
            values[n++] = values[k];
    return n;
}

static size_t position(const double *values, size_t count, double v)
{
    const double *at = bsearch(&v, values, count, sizeof *values, by_number);
    return at ? (size_t)(at - values) : count;
}

/* A map's cells: the fastest row of each and the baseline's fastest time. */
typedef struct cell {
    const plot_row *winner;
    double base_ns; /* NaN: no baseline row */
} cell;

/* The map's title: its data, its shape, the device where there are several. */
static char *map_title(const plot_builder *b, const plot_row *r, int several_devices)
{
    strbuf sb = {0};
    sb_printf(&sb, "Winner at each rows x n: %s %s, %s, %s", r->field[PLOT_FIELD_OP],
              r->field[PLOT_FIELD_DTYPE],
              r->row->config->axis == RB_AXIS_COLUMN ? "per column" : "per row",
              r->row->config->lengths == RB_LENGTHS_RAGGED ? "ragged" : "fixed lengths");
    if (b->field_varies[PLOT_FIELD_DISTRIBUTION])
        sb_printf(&sb, ", %s", r->field[PLOT_FIELD_DISTRIBUTION]);
    if (b->field_varies[PLOT_FIELD_BINS] && *r->field[PLOT_FIELD_BINS])
        sb_printf(&sb, ", %s bins", r->field[PLOT_FIELD_BINS]);
    const rb_device_record *dev =
        r->device >= 0 ? &b->res->info.devices[r->device] : NULL;
    if (several_devices && dev && *dev->info.name)
        sb_printf(&sb, " on %s", dev->info.name);
    return sb.data;
}

/* "winners-sum-f32-row-fixed", with the distribution, bins and device
 * where they vary; fit for a file name. */
static char *map_name(const plot_builder *b, const plot_row *r, int several_devices)
{
    strbuf sb = {0};
    sb_printf(&sb, "winners-%s-%s-%s-%s", r->field[PLOT_FIELD_OP], r->field[PLOT_FIELD_DTYPE],
              r->field[PLOT_FIELD_AXIS], r->field[PLOT_FIELD_LENGTHS]);
    if (b->field_varies[PLOT_FIELD_DISTRIBUTION])
        sb_printf(&sb, "-%s", r->field[PLOT_FIELD_DISTRIBUTION]);
    if (b->field_varies[PLOT_FIELD_BINS] && *r->field[PLOT_FIELD_BINS])
        sb_printf(&sb, "-b%s", r->field[PLOT_FIELD_BINS]);
    if (several_devices)
        sb_printf(&sb, "-d%d", r->device);
    char *name = plot_file_name(sb.data);
    sb_free(&sb);
    return name;
}

/* A cell's tooltip: where it is, its winner with time and GB/s, and the
 * baseline's time with the speedup. */
static char *cell_note(const plot_figure *fig, size_t r, size_t c, const cell *x,
                       const char *label, const char *baseline)
{
    strbuf sb = {0};
    char t[32], g[32];
    plot_format(x->winner->median_ns, PLOT_UNIT_NS, t, sizeof t);
    sb_printf(&sb, "rows = %s, n = %s: %s, %s", fig->rows[r], fig->columns[c], label, t);
    if (x->winner->gbs > 0) {
        plot_format(x->winner->gbs, PLOT_UNIT_NUMBER, g, sizeof g);
        sb_printf(&sb, ", %s GB/s", g);
    }
    if (baseline && !isnan(x->base_ns)) {
        char base[32], times[32];
        plot_format(x->base_ns, PLOT_UNIT_NS, base, sizeof base);
        plot_format(x->base_ns / x->winner->median_ns, PLOT_UNIT_TIMES, times, sizeof times);
        sb_printf(&sb, "; %s: %s, %s faster", baseline, base, times);
    } else if (baseline) {
        sb_printf(&sb, "; %s has no time here", baseline);
    }
    return sb.data;
}

/* Lays out map `g` (its rows: members, count of them) into a new figure;
 * marks in `used` the strategies that win a cell. */
static void add_map(const plot_builder *b, plot_set *set, const winner_data *d,
                    const size_t *members, size_t count, const char *baseline, int by,
                    int several_devices, int *used)
{
    double *ys = xcalloc(count, sizeof *ys), *xs = xcalloc(count, sizeof *xs);
    for (size_t k = 0; k < count; k++) {
        const rb_configuration *cfg = b->rows[members[k]].row->config;
        ys[k] = (double)(cfg->rows ? cfg->rows : 1);
        xs[k] = b->rows[members[k]].n;
    }
    size_t n_y = distinct(ys, count), n_x = distinct(xs, count);
    const plot_row *first = &b->rows[members[0]];
    if (n_y > MAX_AXIS_VALUES || n_x > MAX_AXIS_VALUES) {
        char *title = map_title(b, first, several_devices), *shown = printable_text(title);
        diag_warn("the winner map \"%s\" is not drawn: %zu rows x %zu sizes, more than %d on "
                  "an axis", shown, n_y, n_x, MAX_AXIS_VALUES);
        free(shown);
        free(title);
        free(ys);
        free(xs);
        return;
    }
    cell *cells = xcalloc(n_y * n_x, sizeof *cells);
    for (size_t k = 0; k < n_y * n_x; k++)
        cells[k].base_ns = NAN;
    for (size_t k = 0; k < count; k++) {
        const plot_row *r = &b->rows[members[k]];
        const rb_configuration *cfg = r->row->config;
        cell *x = &cells[position(ys, n_y, (double)(cfg->rows ? cfg->rows : 1)) * n_x +
                         position(xs, n_x, r->n)];
        if (!x->winner || r->median_ns < x->winner->median_ns)
            x->winner = r;
        if (baseline && plot_in_baseline(r, baseline, by) &&
            (isnan(x->base_ns) || r->median_ns < x->base_ns))
            x->base_ns = r->median_ns;
    }
    plot_figure *fig = plot_add_figure(set);
    fig->kind = PLOT_WINNERS;
    fig->name = map_name(b, first, several_devices);
    fig->title = map_title(b, first, several_devices);
    fig->subtitle =
        baseline ? xasprintf("each cell: the winner's speedup over %s; GB/s (no x) where "
                             "it has no time", baseline)
                 : xstrdup("each cell: the winner's GB/s (--baseline PLUGIN: its speedup)");
    fig->x_label = xstrdup("n (elements per row)");
    fig->y_label = xstrdup("rows");
    fig->x_unit = fig->y_unit = PLOT_UNIT_SIZE;
    fig->value_label = xstrdup(baseline ? "x" : "GB/s");
    fig->n_rows = n_y;
    fig->n_columns = n_x;
    fig->rows = xcalloc(n_y, sizeof *fig->rows);
    fig->columns = xcalloc(n_x, sizeof *fig->columns);
    char text[32];
    for (size_t y = 0; y < n_y; y++) {
        format_size((uint64_t)ys[y], text, sizeof text);
        fig->rows[y] = xstrdup(text);
    }
    for (size_t x = 0; x < n_x; x++) {
        plot_format(xs[x], PLOT_UNIT_SIZE, text, sizeof text);
        fig->columns[x] = xstrdup(text);
    }
    fig->winners = xcalloc(n_y * n_x, sizeof *fig->winners);
    fig->cell_texts = xcalloc(n_y * n_x, sizeof *fig->cell_texts);
    fig->cell_notes = xcalloc(n_y * n_x, sizeof *fig->cell_notes);
    for (size_t y = 0; y < n_y; y++)
        for (size_t x = 0; x < n_x; x++) {
            size_t k = y * n_x + x;
            const cell *c = &cells[k];
            fig->winners[k] = SIZE_MAX;
            if (!c->winner)
                continue;
            size_t s = d->strategy[c->winner - b->rows];
            fig->winners[k] = s;
            used[s] = 1;
            if (baseline && !isnan(c->base_ns))
                plot_format(c->base_ns / c->winner->median_ns, PLOT_UNIT_TIMES, text,
                            sizeof text);
            else if (c->winner->gbs > 0)
                plot_format(c->winner->gbs, PLOT_UNIT_NUMBER, text, sizeof text);
            else
                snprintf(text, sizeof text, "?");
            fig->cell_texts[k] = xstrdup(text);
            fig->cell_notes[k] = cell_note(fig, y, x, c, d->labels[s], baseline);
        }
    free(cells);
    free(ys);
    free(xs);
}

void plot_winner_maps(const plot_builder *b, plot_set *set, const char *baseline, int by)
{
    winner_data d = {0};
    if (!sort_rows(b, &d))
        return;
    int several_devices = 0;
    for (size_t k = 1; k < b->n_rows; k++)
        several_devices |= b->rows[k].device != b->rows[0].device;
    /* each map's rows together (a counting sort), in the order of the maps */
    size_t *start = xcalloc(d.n_groups + 1, sizeof *start);
    size_t *members = xcalloc(b->n_rows, sizeof *members);
    for (size_t k = 0; k < b->n_rows; k++)
        start[d.group[k] + 1]++;
    for (size_t g = 0; g < d.n_groups; g++)
        start[g + 1] += start[g];
    size_t *fill = xcalloc(d.n_groups, sizeof *fill);
    for (size_t k = 0; k < b->n_rows; k++)
        members[start[d.group[k]] + fill[d.group[k]]++] = k;
    free(fill);
    int *used = xcalloc(d.n_strategies, sizeof *used);
    size_t first_map = set->n_figures, n_maps = 0, n_wanted = 0;
    for (size_t g = 0; g < d.n_groups; g++) {
        const size_t *rows = members + start[g];
        size_t count = start[g + 1] - start[g];
        int shaped = 0;
        for (size_t k = 0; k < count && !shaped; k++)
            shaped = sweep_is_shaped(b->rows[rows[k]].row->config);
        if (!shaped)
            continue; /* one reduction only: the other figures show it */
        n_wanted++;
        if (n_maps < PLOT_MAX_WINNER_MAPS) {
            size_t before = set->n_figures;
            add_map(b, set, &d, rows, count, baseline, by, several_devices, used);
            n_maps += set->n_figures - before;
        }
    }
    if (n_wanted > n_maps && n_maps == PLOT_MAX_WINNER_MAPS)
        diag_warn("%zu winner maps were possible; the first %d are drawn", n_wanted,
                  PLOT_MAX_WINNER_MAPS);
    /* the strategies that win somewhere, in the order of the rows: every
     * map names them alike, so that each has one colour in all */
    size_t *slot = xcalloc(d.n_strategies, sizeof *slot);
    size_t n_used = 0;
    for (size_t s = 0; s < d.n_strategies; s++)
        slot[s] = used[s] ? n_used++ : SIZE_MAX;
    for (size_t f = first_map; f < set->n_figures; f++) {
        plot_figure *fig = &set->figures[f];
        fig->series = xcalloc(n_used ? n_used : 1, sizeof *fig->series);
        fig->n_series = n_used;
        for (size_t s = 0; s < d.n_strategies; s++)
            if (used[s])
                fig->series[slot[s]].label = xstrdup(d.labels[s]);
        for (size_t k = 0; k < fig->n_rows * fig->n_columns; k++)
            if (fig->winners[k] != SIZE_MAX)
                fig->winners[k] = slot[fig->winners[k]];
    }
    free(slot);
    free(used);
    free(start);
    free(members);
    winner_data_free(&d);
}
