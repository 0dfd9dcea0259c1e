/* src/plot/data.c: from a result set to figures. It takes the ok rows
 * with a time, groups them into configurations (a run with its parameters,
 * and the op, dtype, distribution, bins or shape where those vary), and lays out
 * the bandwidth and time figures; plot/speedup.c and plot/heatmap.c add
 * the others, and plot/build.c puts them together.
 * Which figures and why are described in plot/figures.h. */
#include "plot/data.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "base/names.h"
#include "base/text_index.h"
#include "base/units.h"
#include "base/util.h"

const char *const plot_data_fields[PLOT_N_FIELDS] = {
    [PLOT_FIELD_OP] = "op",           [PLOT_FIELD_DTYPE] = "dtype",
    [PLOT_FIELD_DISTRIBUTION] = "distribution", [PLOT_FIELD_BINS] = "bins",
    [PLOT_FIELD_ROWS] = "rows",       [PLOT_FIELD_AXIS] = "axis",
    [PLOT_FIELD_LENGTHS] = "lengths",
};

void plot_field_words(strbuf *sb, int field, const char *text)
{
    if (field >= PLOT_FIELD_ROWS)
        sb_printf(sb, " %s=%s", plot_data_fields[field], text);
    else
        sb_printf(sb, " %s", text);
}

const char *plot_plugin_name(const rb_row *row)
{
    const rb_configuration *cfg = row->config;
    return cfg->plugin ? cfg->plugin->desc->name : cfg->run ? cfg->run->plugin : NULL;
}

const char *plot_param(const plot_row *r, const char *name, int *is_number)
{
    const rb_configuration *cfg = r->row->config;
    const rb_plugin *desc = cfg->plugin ? cfg->plugin->desc : NULL;
    *is_number = 0;
    for (uint32_t k = 0; k < cfg->n_params; k++)
        if (cfg->params[k].name && strcmp(cfg->params[k].name, name) == 0) {
            const char *text = cfg->params[k].text ? cfg->params[k].text : "";
            *is_number = desc && k < desc->n_params && desc->params[k].type == RB_PARAM_INT &&
                         strcmp(text, "auto") != 0;
            return text;
        }
    return "";
}

char *plot_file_name(const char *text)
{
    char *s = xstrdup(text);
    for (char *p = s; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
              *p == '-' || *p == '.' || *p == '_'))
            *p = '_';
    return s;
}

static int drawable(double v, double lo, double hi)
{
    return isfinite(v) && v >= lo && v <= hi;
}

/* Takes the rows that are ok with a time that can be drawn. Rows with a
 * number out of range (not finite, absurdly large) are left out, and
 * counted in a warning that names the first. */
void plot_read_rows(plot_builder *b)
{
    const rb_results *res = b->res;
    size_t cap = 0, n_dropped = 0, first_dropped = 0;
    for (size_t k = 0; k < res->n_rows; k++) {
        const rb_row *row = &res->rows[k];
        const rb_configuration *cfg = row->config;
        if (row->status != RB_ROW_OK || row->stats.count == 0)
            continue;
        double n = (double)cfg->n, median = row->stats.median, gbs = row->bandwidth_gbs;
        int gbs_known = gbs > 0 || !isfinite(gbs);
        if (!drawable(n, 0, PLOT_MAX_N) || !drawable(median, PLOT_MIN_NS, PLOT_MAX_NS) ||
            (gbs_known && !drawable(gbs, 0, PLOT_MAX_GBS))) {
            if (n_dropped++ == 0)
                first_dropped = k;
            continue;
        }
        plot_row *r = grow(&b->rows, &b->n_rows, &cap, sizeof *r);
        r->row = row;
        r->run = cfg->run && cfg->run->name ? cfg->run->name : "";
        r->plugin = plot_plugin_name(row);
        if (cfg->op == RB_OP_HISTOGRAM)
            snprintf(r->bins, sizeof r->bins, "%u", cfg->bins);
        r->field[PLOT_FIELD_OP] = op_name(cfg->op);
        r->field[PLOT_FIELD_DTYPE] = dtype_name(cfg->dtype);
        r->field[PLOT_FIELD_DISTRIBUTION] = distribution_name(cfg->distribution);
        r->field[PLOT_FIELD_AXIS] = axis_name(cfg->axis);
        r->field[PLOT_FIELD_LENGTHS] = lengths_name(cfg->lengths);
        r->field[PLOT_FIELD_BINS] = r->field[PLOT_FIELD_ROWS] = ""; /* set below */
        for (int f = 0; f < PLOT_N_FIELDS; f++)
            r->field[f] = r->field[f] ? r->field[f] : "";
        format_size(cfg->rows ? cfg->rows : 1, r->rows, sizeof r->rows);
        r->n = n;
        r->median_ns = median;
        r->gbs = gbs_known ? gbs : NAN;
        r->device = row->device_index >= 0 && (size_t)row->device_index < res->info.n_devices
                        ? row->device_index
                        : -1;
    }
    for (size_t k = 0; k < b->n_rows; k++) { /* now that the rows stay where they are */
        b->rows[k].field[PLOT_FIELD_BINS] = b->rows[k].bins;
        b->rows[k].field[PLOT_FIELD_ROWS] = b->rows[k].rows;
    }
    if (n_dropped)
        diag_warn("%s: %zu ok row%s left out of the plots: n, median_ns or bandwidth_gbs is not "
                  "finite or out of range (the first: results[%zu])",
                  b->path, n_dropped, n_dropped == 1 ? "" : "s", first_dropped);
}

/* The parameters whose value differs between the rows of run `r`, in the
 * order of the run's params objects (at most PLOT_MAX_VARYING). */
static void varying_params(const plot_builder *b, plot_run *run)
{
    /* Every parameter name of the run, in order. */
    const char *all[64];
    size_t n_all = 0;
    for (size_t j = 0; j < run->n_rows; j++) {
        const rb_configuration *cfg = b->rows[run->rows[j]].row->config;
        for (uint32_t m = 0; m < cfg->n_params && n_all < RB_ARRAY_LEN(all); m++) {
            const char *name = cfg->params[m].name ? cfg->params[m].name : "";
            size_t seen = 0;
            while (seen < n_all && strcmp(all[seen], name) != 0)
                seen++;
            if (seen == n_all)
                all[n_all++] = name;
        }
    }
    /* Those that some row of the run gives another value than the first row. */
    run->n_varying = 0;
    for (size_t p = 0; p < n_all && run->n_varying < PLOT_MAX_VARYING; p++) {
        int is_number;
        const char *want = plot_param(&b->rows[run->rows[0]], all[p], &is_number);
        for (size_t j = 0; j < run->n_rows; j++) {
            if (strcmp(plot_param(&b->rows[run->rows[j]], all[p], &is_number), want) != 0) {
                run->varying[run->n_varying++] = all[p];
                break;
            }
        }
    }
}

/* The runs, in the order they first appear, each with its rows. */
static void group_runs(plot_builder *b)
{
    text_index by_name = {0};
    size_t cap = 0;
    for (size_t k = 0; k < b->n_rows; k++) {
        int added;
        size_t *slot = text_index_put(&by_name, b->rows[k].run, b->n_runs, &added);
        if (added) {
            plot_run *run = grow(&b->runs, &b->n_runs, &cap, sizeof *run);
            run->name = b->rows[k].run;
        }
        b->rows[k].run_index = *slot;
        b->runs[*slot].n_rows++;
    }
    text_index_free(&by_name);
    b->run_rows = xcalloc(b->n_rows ? b->n_rows : 1, sizeof *b->run_rows);
    size_t at = 0;
    for (size_t r = 0; r < b->n_runs; r++) {
        b->runs[r].rows = b->run_rows + at;
        at += b->runs[r].n_rows;
        b->runs[r].n_rows = 0;
    }
    for (size_t k = 0; k < b->n_rows; k++) {
        plot_run *run = &b->runs[b->rows[k].run_index];
        run->rows[run->n_rows++] = k;
    }
    for (size_t r = 0; r < b->n_runs; r++)
        varying_params(b, &b->runs[r]);
}

/* Groups the rows into configurations and labels each with its run, the
 * parameters that vary within the run and the data fields that vary. */
void plot_group_configs(plot_builder *b)
{
    for (int f = 0; f < PLOT_N_FIELDS; f++)
        for (size_t k = 1; k < b->n_rows; k++)
            if (strcmp(b->rows[k].field[f], b->rows[0].field[f]) != 0)
                b->field_varies[f] = 1;
    group_runs(b);
    text_index by_id = {0};
    size_t cap = 0;
    for (size_t k = 0; k < b->n_rows; k++) {
        plot_row *r = &b->rows[k];
        strbuf id = {0};
        const char *params_text = r->row->config->params_text;
        sb_printf(&id, "%s\x1f%s", r->run, params_text ? params_text : "");
        for (int f = 0; f < PLOT_N_FIELDS; f++)
            if (b->field_varies[f])
                sb_printf(&id, "\x1f%s", r->field[f]);
        size_t *known = text_index_find(&by_id, id.data);
        if (known) {
            size_t c = *known;
            sb_free(&id);
            r->config = c;
            if (r->gbs > b->configs[c].best_gbs)
                b->configs[c].best_gbs = r->gbs;
            continue;
        }
        size_t c = b->n_configs;
        plot_config *cfg = grow(&b->configs, &b->n_configs, &cap, sizeof *cfg);
        cfg->id = id.data;
        text_index_put(&by_id, cfg->id, c, NULL);
        cfg->run = r->run;
        cfg->best_gbs = isfinite(r->gbs) ? r->gbs : 0;
        r->config = c;
        strbuf label = {0};
        sb_append(&label, r->run);
        const plot_run *run = &b->runs[r->run_index];
        for (size_t p = 0; p < run->n_varying; p++) {
            int is_number;
            sb_printf(&label, " %s=%s", run->varying[p],
                      plot_param(r, run->varying[p], &is_number));
        }
        for (int f = 0; f < PLOT_N_FIELDS; f++)
            if (b->field_varies[f])
                plot_field_words(&label, f, r->field[f]);
        cfg->label = label.data;
    }
    text_index_free(&by_id);
}

/* Marks in `chosen` the configurations to draw among those `eligible`: all
 * of them, or the PLOT_MAX_SERIES with the highest score. Returns how many
 * were eligible. */
size_t plot_choose(const plot_builder *b, const int *eligible, const double *score, int *chosen)
{
    size_t n_eligible = 0;
    for (size_t c = 0; c < b->n_configs; c++) {
        chosen[c] = 0;
        n_eligible += eligible[c] != 0;
    }
    for (size_t picked = 0; picked < PLOT_MAX_SERIES && picked < n_eligible; picked++) {
        size_t best = b->n_configs;
        for (size_t c = 0; c < b->n_configs; c++)
            if (eligible[c] && !chosen[c] &&
                (best == b->n_configs || score[c] > score[best] ||
                 (isnan(score[best]) && !isnan(score[c]))))
                best = c;
        chosen[best] = 1;
    }
    return n_eligible;
}

char *plot_left_out_note(size_t eligible)
{
    if (eligible <= PLOT_MAX_SERIES)
        return NULL;
    return xasprintf("the %d fastest of %zu configurations", PLOT_MAX_SERIES, eligible);
}

/* Doubles in increasing order; a point (x first) by its x. */
static int by_value(const void *pa, const void *pb)
{
    const double *a = pa, *b = pb;
    return a[0] < b[0] ? -1 : a[0] > b[0];
}

/* The quartile at q (0.25, 0.75) of sorted values, interpolated. */
static double quartile(const double *sorted, size_t n, double q)
{
    double at = q * (double)(n - 1);
    size_t k = (size_t)at;
    return k + 1 < n ? sorted[k] + (at - (double)k) * (sorted[k + 1] - sorted[k]) : sorted[k];
}

/* The interquartile range of a row's times, as the figure's y: times
 * themselves, or the bandwidths they give (the slower quartile the lower
 * bandwidth). 0 when the row has fewer than four samples, or none kept. */
static int spread(const plot_row *r, int bandwidth, double *lo, double *hi)
{
    const rb_row *row = r->row;
    size_t n = row->samples_ns ? row->stats.count : 0;
    if (n < 4)
        return 0;
    double *sorted = xcalloc(n, sizeof *sorted);
    memcpy(sorted, row->samples_ns, n * sizeof *sorted);
    qsort(sorted, n, sizeof *sorted, by_value);
    double q1 = quartile(sorted, n, 0.25), q3 = quartile(sorted, n, 0.75);
    free(sorted);
    if (!(q1 > 0) || !isfinite(q3))
        return 0;
    *lo = bandwidth ? r->gbs * r->median_ns / q3 : q1;
    *hi = bandwidth ? r->gbs * r->median_ns / q1 : q3;
    return isfinite(*lo) && isfinite(*hi) && *lo > 0;
}

/* One line per chosen configuration: y of its rows on `device` (-2: any),
 * with the interquartile range of each point where its samples give one.
 * The rows are read twice whatever the number of lines: to count each
 * line's points, then to place them. */
static void add_lines(plot_figure *fig, const plot_builder *b, const int *chosen, int device,
                      int bandwidth)
{
    enum { X, Y, LO, HI, WIDTH };
    size_t *count = xcalloc(b->n_configs ? b->n_configs : 1, sizeof *count);
    for (size_t k = 0; k < b->n_rows; k++) {
        const plot_row *r = &b->rows[k];
        double y = bandwidth ? r->gbs : r->median_ns;
        if (chosen[r->config] && (device == -2 || r->device == device) && y > 0)
            count[r->config]++;
    }
    double **pts = xcalloc(b->n_configs ? b->n_configs : 1, sizeof *pts);
    for (size_t c = 0; c < b->n_configs; c++) {
        pts[c] = count[c] ? xcalloc(WIDTH * count[c], sizeof *pts[c]) : NULL;
        count[c] = 0;
    }
    for (size_t k = 0; k < b->n_rows; k++) {
        const plot_row *r = &b->rows[k];
        double y = bandwidth ? r->gbs : r->median_ns;
        if (!chosen[r->config] || (device != -2 && r->device != device) || !(y > 0))
            continue;
        double *p = &pts[r->config][WIDTH * count[r->config]++];
        p[X] = r->n;
        p[Y] = p[LO] = p[HI] = y;
        if (spread(r, bandwidth, &p[LO], &p[HI])) {
            p[LO] = fmin(p[LO], y);
            p[HI] = fmax(p[HI], y);
            fig->has_spread = 1;
        }
    }
    for (size_t c = 0; c < b->n_configs; c++) {
        size_t n = count[c];
        if (n == 0)
            continue;
        qsort(pts[c], n, WIDTH * sizeof *pts[c], by_value);
        size_t cap = fig->n_series;
        plot_series *s = grow(&fig->series, &fig->n_series, &cap, sizeof *s);
        s->label = xstrdup(b->configs[c].label);
        s->x = xcalloc(n, sizeof *s->x);
        s->y = xcalloc(n, sizeof *s->y);
        s->lo = xcalloc(n, sizeof *s->lo);
        s->hi = xcalloc(n, sizeof *s->hi);
        for (size_t p = 0; p < n; p++) {
            s->x[p] = pts[c][WIDTH * p + X];
            s->y[p] = pts[c][WIDTH * p + Y];
            s->lo[p] = pts[c][WIDTH * p + LO];
            s->hi[p] = pts[c][WIDTH * p + HI];
        }
        s->n = n;
        free(pts[c]);
    }
    free(pts);
    free(count);
}

/* "bars: the middle half of the samples" under a figure that draws them. */
static void note_spread(plot_figure *fig)
{
    if (!fig->has_spread)
        return;
    char *subtitle = xasprintf("%s%sbars: the middle half of each point's samples "
                               "(interquartile range)",
                               fig->subtitle ? fig->subtitle : "", fig->subtitle ? "; " : "");
    free(fig->subtitle);
    fig->subtitle = subtitle;
}

/* Bandwidths that span two decades or more (small sizes far below the
 * peak) are drawn on a log axis, where a linear one would flatten the
 * smaller ones to zero. */
#define PLOT_DECADES_RATIO 100.0

static int spans_decades(const plot_figure *fig)
{
    double lo = INFINITY, hi = 0;
    for (size_t s = 0; s < fig->n_series; s++)
        for (size_t p = 0; p < fig->series[s].n; p++) {
            lo = fmin(lo, fig->series[s].y[p]);
            hi = fmax(hi, fig->series[s].y[p]);
        }
    return lo > 0 && hi / lo >= PLOT_DECADES_RATIO;
}

/* A new figure of lines against n (log2), named and titled (both taken),
 * with the note of how many configurations were left out. */
static plot_figure *lines_figure(plot_set *set, char *name, char *title, size_t n_eligible,
                                 const char *y_label, int y_unit)
{
    plot_figure *fig = plot_add_figure(set);
    fig->kind = PLOT_LINES;
    fig->name = name;
    fig->title = title;
    fig->subtitle = plot_left_out_note(n_eligible);
    fig->x_label = xstrdup("n (elements)");
    fig->y_label = xstrdup(y_label);
    fig->x_unit = PLOT_UNIT_SIZE;
    fig->y_unit = y_unit;
    fig->x_log2 = 1;
    return fig;
}

void plot_bandwidth_figures(plot_builder *b, plot_set *set)
{
    int devices[64];
    size_t n_devices = 0;
    for (size_t k = 0; k < b->n_rows; k++) {
        size_t d = 0;
        while (d < n_devices && devices[d] != b->rows[k].device)
            d++;
        if (d == n_devices && n_devices < RB_ARRAY_LEN(devices))
            devices[n_devices++] = b->rows[k].device;
    }
    int *eligible = xcalloc(b->n_configs, sizeof *eligible);
    int *chosen = xcalloc(b->n_configs, sizeof *chosen);
    double *score = xcalloc(b->n_configs, sizeof *score);
    for (size_t d = 0; d < n_devices; d++) {
        const rb_device_record *dev = devices[d] >= 0 ? &b->res->info.devices[devices[d]] : NULL;
        for (size_t c = 0; c < b->n_configs; c++)
            eligible[c] = 0;
        for (size_t k = 0; k < b->n_rows; k++)
            if (b->rows[k].device == devices[d] && b->rows[k].gbs > 0)
                eligible[b->rows[k].config] = 1;
        for (size_t c = 0; c < b->n_configs; c++)
            score[c] = b->configs[c].best_gbs;
        size_t n_eligible = plot_choose(b, eligible, score, chosen);
        if (n_eligible == 0)
            continue;
        const char *name = dev && *dev->info.name ? dev->info.name : NULL;
        const char *backend = dev && *dev->backend ? dev->backend : NULL;
        char *file = NULL;
        if (n_devices == 1)
            file = xstrdup("bandwidth");
        else if (backend) {
            char *safe = plot_file_name(backend);
            file = xasprintf("bandwidth-%s%d", safe, dev->device);
            free(safe);
        } else
            file = xasprintf("bandwidth-%d", devices[d]);
        double single_n = plot_single_n(b, devices[d]);
        plot_figure *fig;
        if (!isnan(single_n) && n_eligible > 1) {
            fig = plot_ranking_figure(b, set, devices[d], file, name, single_n);
        } else {
            fig = lines_figure(set, file,
                               xasprintf("Bandwidth against n%s%s", name ? " on " : "",
                                         name ? name : ""),
                               n_eligible, "bandwidth (GB/s)", PLOT_UNIT_NUMBER);
            fig->value_label = xstrdup("GB/s");
            add_lines(fig, b, chosen, devices[d], 1);
            note_spread(fig);
            fig->y_log10 = spans_decades(fig);
            if (fig->y_log10) {
                free(fig->y_label);
                fig->y_label = xstrdup("bandwidth (GB/s, log scale)");
            }
        }
        double peak = dev && dev->info.peak_gbs != 0 ? dev->info.peak_gbs : NAN;
        double measured = dev && dev->measured_peak_gbs != 0 ? dev->measured_peak_gbs : NAN;
        char value[32], text[96];
        if (drawable(peak, 1e-9, PLOT_MAX_GBS)) {
            plot_format(peak, PLOT_UNIT_NUMBER, value, sizeof value);
            snprintf(text, sizeof text, "theoretical peak %s GB/s", value);
            plot_add_hline(fig, peak, text);
        }
        if (drawable(measured, 1e-9, PLOT_MAX_GBS)) {
            plot_format(measured, PLOT_UNIT_NUMBER, value, sizeof value);
            snprintf(text, sizeof text, "measured peak %s GB/s", value);
            plot_add_hline(fig, measured, text);
        }
    }
    free(eligible);
    free(chosen);
    free(score);
}

/* The median time against n; none for a sweep at a single n, where it
 * would be a vertical stack of points: the bandwidth figure ranks those
 * configurations as bars (plot/ranking.c). */
void plot_time_figure(plot_builder *b, plot_set *set)
{
    double one_n = b->n_rows ? b->rows[0].n : NAN;
    for (size_t k = 1; k < b->n_rows && !isnan(one_n); k++)
        if (b->rows[k].n != one_n)
            one_n = NAN;
    if (!isnan(one_n) && b->n_configs > 1)
        return;
    int *eligible = xcalloc(b->n_configs, sizeof *eligible);
    int *chosen = xcalloc(b->n_configs, sizeof *chosen);
    double *score = xcalloc(b->n_configs, sizeof *score);
    for (size_t c = 0; c < b->n_configs; c++) {
        eligible[c] = 1;
        score[c] = b->configs[c].best_gbs;
    }
    size_t n_eligible = plot_choose(b, eligible, score, chosen);
    plot_figure *fig = lines_figure(set, xstrdup("time"), xstrdup("Median time against n"),
                                    n_eligible, "median time of one reduction", PLOT_UNIT_NS);
    fig->y_log10 = 1;
    add_lines(fig, b, chosen, -2, 0);
    note_spread(fig);
    free(eligible);
    free(chosen);
    free(score);
}
