/* src/tune/dispatch.c: the crossover map read from a winner map or worked
 * out from a results file, and written as a C header (tune/dispatch.h):
 * the header of a map without shapes, and the header of a map with them,
 * whose find() also takes the rows, axis and lengths. */
#include "tune/dispatch.h"

#include <ctype.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "base/names.h"
#include "base/util.h"
#include "config/keys.h"
#include "config/sweep.h"

void dispatch_free(rb_dispatch *d)
{
    for (size_t k = 0; k < d->count; k++) {
        rb_dispatch_entry *e = &d->entries[k];
        free(e->op); free(e->dtype); free(e->distribution);
        free(e->axis); free(e->lengths);
        free(e->pack); free(e->plugin); free(e->params); free(e->runner_up);
    }
    free(d->entries);
    free(d->source);
    free(d->device);
    memset(d, 0, sizeof *d);
}

static rb_dispatch_entry *add_entry(rb_dispatch *d, size_t *cap)
{
    if (d->count == *cap) {
        *cap = *cap ? 2 * *cap : 16;
        d->entries = xrealloc(d->entries, *cap * sizeof *d->entries);
    }
    rb_dispatch_entry *e = &d->entries[d->count++];
    memset(e, 0, sizeof *e);
    e->confidence = -1;
    e->rows = 1;
    return e;
}

/* Whether an entry has a shape: what config/sweep.c's sweep_is_shaped
 * says of its configuration. */
static int entry_shaped(const rb_dispatch_entry *e)
{
    return e->rows > 1 || strcmp(e->axis, axis_name(RB_AXIS_COLUMN)) == 0 ||
           strcmp(e->lengths, lengths_name(RB_LENGTHS_RAGGED)) == 0;
}

static void mark_shaped(rb_dispatch *d)
{
    d->shaped = 0;
    for (size_t k = 0; k < d->count; k++)
        d->shaped |= entry_shaped(&d->entries[k]);
}

/* ---- from a winner map ---- */

static const char *map_text(const char *path, const json_value *entry, size_t k, const char *key,
                            int *failed)
{
    const char *text = json_string(json_get(entry, key));
    if (!text && !*failed) {
        diag_at(path, entry->line, "winners[%zu]: '%s' must be a string", k, key);
        *failed = 1;
    }
    return text ? text : "";
}

static uint64_t map_count(const char *path, const json_value *entry, size_t k, const char *key,
                          int required, uint64_t fallback, int *failed)
{
    const json_value *v = json_get(entry, key);
    uint64_t n = fallback;
    if (!v && !required)
        return fallback;
    if (!json_uint64(v, &n) && !*failed) {
        diag_at(path, v ? v->line : entry->line,
                "winners[%zu]: '%s' must be a whole number of at least 0", k, key);
        *failed = 1;
    }
    return n;
}

/* A word of an entry that may be absent (`fallback` then): a string that
 * `from_name` knows, else an error naming the file, the line and the
 * words it may be. */
static const char *map_word(const char *path, const json_value *entry, size_t k, const char *key,
                            const char *fallback, int (*from_name)(const char *),
                            const char *choices, int *failed)
{
    const json_value *v = json_get(entry, key);
    if (!v || *failed)
        return fallback;
    const char *text = json_string(v);
    if (!text || from_name(text) < 0) {
        diag_at(path, v->line, "winners[%zu]: '%s' must be one of %s", k, key, choices);
        *failed = 1;
        return fallback;
    }
    return text;
}

/* A number of an entry: `required` (else `fallback` when absent or, with
 * `nullable`, null); a finite number (JSON allows 1e999, which no double
 * holds), at least `least` (-INFINITY: any). Another type, or a number
 * beyond a double's range, is an error naming the file and line. */
static double map_number(const char *path, const json_value *entry, size_t k, const char *key,
                         int required, int nullable, double least, double fallback, int *failed)
{
    const json_value *v = json_get(entry, key);
    if (*failed || (!v && !required) || (v && nullable && json_is_null(v)))
        return fallback;
    if (!v || v->type != JSON_NUMBER) {
        diag_at(path, v ? v->line : entry->line, "winners[%zu]: '%s' must be a number%s%s", k,
                key, nullable ? " or null" : "",
                v ? "" : " (it is missing)");
        *failed = 1;
        return fallback;
    }
    if (!isfinite(v->number)) {
        diag_at(path, v->line, "winners[%zu]: '%s' is %s, beyond the range of a double "
                "(a C header cannot hold it)", k, key, v->text);
        *failed = 1;
        return fallback;
    }
    if (v->number < least) {
        diag_at(path, v->line, "winners[%zu]: '%s' is %s; it must be at least %g", k, key,
                v->text, least);
        *failed = 1;
        return fallback;
    }
    return v->number;
}

/* A params object as "key=value ...". */
static char *params_text(const json_value *params)
{
    strbuf sb = {0};
    sb_append(&sb, "");
    for (size_t k = 0; k < json_count(params) && params->type == JSON_OBJECT; k++) {
        const json_value *v = &params->items[k];
        const char *text = v->type == JSON_STRING || v->type == JSON_NUMBER ? v->text
                           : v->type == JSON_BOOL ? (v->boolean ? "true" : "false")
                                                  : "";
        sb_printf(&sb, "%s%s=%s", sb.len ? " " : "", json_key_at(params, k), text);
    }
    return sb.data;
}

int dispatch_from_map(const char *path, const json_value *doc, rb_dispatch *out)
{
    memset(out, 0, sizeof *out);
    const json_value *winners = json_get(doc, "winners");
    if (!winners || winners->type != JSON_ARRAY) {
        diag_at(path, doc ? doc->line : 1, "a winner map has a 'winners' array (redbench tune -m "
                "MAP.json writes one)");
        return -1;
    }
    const char *experiment = json_string(json_get(doc, "experiment"));
    out->source = xstrdup(experiment ? experiment : path);
    const char *device = json_string(json_get(json_get(doc, "device"), "name"));
    out->device = xstrdup(device ? device : "");
    size_t cap = 0;
    int failed = 0;
    for (size_t k = 0; k < json_count(winners) && !failed; k++) {
        const json_value *w = json_at(winners, k);
        if (!w || w->type != JSON_OBJECT) {
            diag_at(path, w ? w->line : winners->line, "winners[%zu] must be an object", k);
            failed = 1;
            break;
        }
        rb_dispatch_entry *e = add_entry(out, &cap);
        e->op = xstrdup(map_text(path, w, k, "op", &failed));
        e->dtype = xstrdup(map_text(path, w, k, "dtype", &failed));
        e->pack = xstrdup(map_text(path, w, k, "pack", &failed));
        e->plugin = xstrdup(map_text(path, w, k, "plugin", &failed));
        const char *dist = json_string(json_get(w, "distribution"));
        e->distribution = xstrdup(dist ? dist : "uniform");
        e->n_min = map_count(path, w, k, "n_min", 1, 0, &failed);
        e->n_max = map_count(path, w, k, "n_max", 1, 0, &failed);
        uint64_t ranks = map_count(path, w, k, "ranks", 0, 1, &failed);
        if (!failed && (ranks < 1 || ranks > UINT32_MAX || e->n_min > e->n_max)) {
            diag_at(path, w->line, "winners[%zu]: %s", k,
                       ranks < 1 || ranks > UINT32_MAX ? "'ranks' must be 1 or more"
                                                       : "'n_min' is above 'n_max'");
            failed = 1;
        }
        e->ranks = (uint32_t)ranks;
        /* the shape: absent in a map of unshaped reductions */
        e->rows = map_count(path, w, k, "rows", 0, 1, &failed);
        if (!failed && (e->rows < 1 || e->rows > RB_DATA_LARGEST_ROWS)) {
            diag_at(path, json_get(w, "rows")->line, "winners[%zu]: 'rows' must be 1 to %" PRIu64,
                    k, RB_DATA_LARGEST_ROWS);
            failed = 1;
        }
        e->axis = xstrdup(map_word(path, w, k, "axis", axis_name(RB_AXIS_ROW), axis_from_name,
                                   axis_choices(), &failed));
        e->lengths = xstrdup(map_word(path, w, k, "lengths", lengths_name(RB_LENGTHS_FIXED),
                                      lengths_from_name, lengths_choices(), &failed));
        e->params = params_text(json_get(w, "params"));
        e->median_ns = map_number(path, w, k, "median_ns", 1, 0, 0, 0, &failed);
        const json_value *r = json_get(w, "runner_up");
        if (r && r->type == JSON_OBJECT) {
            char *p = params_text(json_get(r, "params"));
            const char *rp = json_string(json_get(r, "pack")), *rn = json_string(json_get(r, "plugin"));
            e->runner_up = xasprintf("%s/%s%s%s", rp ? rp : "?", rn ? rn : "?", *p ? " " : "", p);
            free(p);
            e->margin = map_number(path, w, k, "margin", 1, 0, -INFINITY, 0, &failed);
            e->confidence = map_number(path, w, k, "confidence", 0, 1, -INFINITY, -1, &failed);
        } else {
            e->runner_up = xstrdup("");
        }
    }
    if (!failed && out->count == 0) {
        diag_at(path, winners->line, "the winner map has no winners (every group failed?)");
        failed = 1;
    }
    if (failed)
        dispatch_free(out);
    else
        mark_shaped(out);
    return failed ? -1 : 0;
}

/* ---- from a results file ---- */

static int same_data(const rb_row *a, const rb_row *b)
{
    return sweep_data_order(a->config, b->config) == 0;
}

static int same_strategy(const rb_row *a, const rb_row *b)
{
    const rb_configuration *x = a->config, *y = b->config;
    return x->plugin && y->plugin && strcmp(x->plugin->pack, y->plugin->pack) == 0 &&
           strcmp(x->plugin->desc->name, y->plugin->desc->name) == 0;
}

static int by_data(const void *pa, const void *pb)
{
    return sweep_data_order((*(const rb_row *const *)pa)->config,
                            (*(const rb_row *const *)pb)->config);
}

static int usable(const rb_row *row)
{
    return row->status == RB_ROW_OK && row->config && row->config->plugin &&
           row->stats.count > 0 && row->stats.median > 0;
}

/* The line of row k of a results file's document; 0 when unknown. */
static int row_line(const json_value *doc, const rb_results *res, const rb_row *row)
{
    const json_value *v = json_at(json_get(doc, "results"), (size_t)(row - res->rows));
    return v ? v->line : 0;
}

/* A number of a row, or one worked out from two rows, that is not finite:
 * an error naming the file and the row's line. Returns 1 then. */
static int not_finite(const char *path, int line, double value, const char *what)
{
    if (isfinite(value))
        return 0;
    diag_at(path, line, "%s is %s, beyond the range of a double; a C header cannot hold it",
            what, isnan(value) ? "not a number" : "infinite");
    return 1;
}

int dispatch_from_results(const char *path, const json_value *doc, const rb_results_file *file,
                          rb_dispatch *out)
{
    memset(out, 0, sizeof *out);
    const rb_results *res = &file->res;
    const rb_row **rows = xcalloc(res->n_rows ? res->n_rows : 1, sizeof *rows);
    size_t n = 0;
    for (size_t k = 0; k < res->n_rows; k++)
        if (usable(&res->rows[k]))
            rows[n++] = &res->rows[k];
    if (n == 0) {
        diag_at(path, 0, "no row is ok with a time: there is no winner to dispatch to");
        free(rows);
        return -1;
    }
    qsort(rows, n, sizeof *rows, by_data);
    out->source = xstrdup(path);
    out->device = xstrdup(res->info.n_devices ? res->info.devices[0].info.name : "");
    size_t cap = 0;
    rb_dispatch_entry *range = NULL; /* the range being grown */
    const rb_row *range_winner = NULL;
    for (size_t k = 0; k < n;) {
        size_t end = k + 1;
        while (end < n && same_data(rows[k], rows[end]))
            end++;
        const rb_row *best = NULL, *second = NULL;
        for (size_t j = k; j < end; j++)
            if (!best || rows[j]->stats.median < best->stats.median)
                best = rows[j];
        for (size_t j = k; j < end; j++)
            if (!same_strategy(rows[j], best) &&
                (!second || rows[j]->stats.median < second->stats.median))
                second = rows[j];
        const rb_configuration *c = best->config;
        int extends = range && range_winner->config->op == c->op &&
                      range_winner->config->dtype == c->dtype &&
                      range_winner->config->distribution == c->distribution &&
                      range_winner->config->bins == c->bins &&
                      range_winner->config->ranks == c->ranks &&
                      range_winner->config->rows == c->rows &&
                      range_winner->config->axis == c->axis &&
                      range_winner->config->lengths == c->lengths &&
                      same_strategy(range_winner, best) &&
                      strcmp(range_winner->config->params_text, c->params_text) == 0;
        if (!extends) {
            range = add_entry(out, &cap);
            range->op = xstrdup(op_name(c->op));
            range->dtype = xstrdup(dtype_name(c->dtype));
            range->distribution = xstrdup(distribution_name(c->distribution));
            range->ranks = c->ranks ? c->ranks : 1;
            range->rows = c->rows ? c->rows : 1;
            range->axis = xstrdup(axis_name(c->axis));
            range->lengths = xstrdup(lengths_name(c->lengths));
            range->n_min = c->n;
            range->pack = xstrdup(c->plugin->pack);
            range->plugin = xstrdup(c->plugin->desc->name);
            range->params = xstrdup(c->params_text ? c->params_text : "");
        }
        int line = row_line(doc, res, best);
        if (not_finite(path, line, best->stats.median, "the winner's median_ns")) {
            free(rows);
            dispatch_free(out);
            return -1;
        }
        range_winner = best;
        range->n_max = c->n;
        range->median_ns = best->stats.median;
        free(range->runner_up);
        if (second) {
            const rb_configuration *s = second->config;
            range->runner_up = xasprintf("%s/%s%s%s", s->plugin->pack, s->plugin->desc->name,
                                        s->params_text && *s->params_text ? " " : "",
                                        s->params_text ? s->params_text : "");
            range->margin = second->stats.median / best->stats.median - 1.0;
            double noise = best->stats.noise + second->stats.noise;
            range->confidence = noise > 0 ? range->margin / noise : -1;
            int second_line = row_line(doc, res, second);
            char what[160];
            snprintf(what, sizeof what, "the margin over the runner-up (its median_ns, at line "
                     "%d, over this row's, less 1)", second_line);
            if (not_finite(path, line, range->margin, what) ||
                not_finite(path, line, range->confidence,
                           "the confidence (the margin over the two rows' noise)")) {
                free(rows);
                dispatch_free(out);
                return -1;
            }
        } else {
            range->runner_up = xstrdup("");
            range->margin = 0;
            range->confidence = -1;
        }
        k = end;
    }
    free(rows);
    mark_shaped(out);
    return 0;
}

/* ---- the header ---- */

int dispatch_prefix_valid(const char *prefix)
{
    size_t len = strlen(prefix);
    if (len == 0 || len > 64 || !(isalpha((unsigned char)prefix[0]) || prefix[0] == '_'))
        return 0;
    for (size_t k = 0; k < len; k++)
        if (!(isalnum((unsigned char)prefix[k]) || prefix[k] == '_'))
            return 0;
    return 1;
}

/* A C string literal of any bytes: printable ASCII as itself, except the
 * quote, the backslash and '?' (no trigraphs), and every other byte as a
 * three-digit octal escape. */
static void c_string(FILE *out, const char *text)
{
    fputc('"', out);
    for (const unsigned char *p = (const unsigned char *)text; *p; p++) {
        if (*p == '"' || *p == '\\' || *p == '?')
            fprintf(out, "\\%c", *p);
        else if (*p >= 0x20 && *p < 0x7f)
            fputc(*p, out);
        else
            fprintf(out, "\\%03o", *p);
    }
    fputc('"', out);
}

/* A double as a C constant: finite only (the readers refuse the rest; a
 * header with `inf` would not compile). */
static void c_number(FILE *out, double v)
{
    fprintf(out, "%.17g", v);
}

/* The header's opening comment, guard, includes and entry type: the
 * unshaped map's as it has always been; a shaped map's with each entry's
 * rows, axis and lengths after its ranks. */
static void write_preamble(FILE *out, const rb_dispatch *d, const char *p, const char *guard)
{
    if (!d->shaped)
        fprintf(out,
                "/* Generated by `redbench dispatch`: the strategy that won for each op, dtype,\n"
                " * distribution and number of ranks, over ranges of n (elements per rank),\n"
                " * with its margin over the best other strategy. Regenerate rather than\n"
                " * edit; %s_source and %s_device say where it comes from. */\n",
                p, p);
    else
        fprintf(out,
                "/* Generated by `redbench dispatch`: the strategy that won for each op, dtype,\n"
                " * distribution, number of ranks and shape (rows of n elements, reduced\n"
                " * along each row or each column, of fixed or ragged lengths), over ranges\n"
                " * of n, with its margin over the best other strategy. Regenerate rather\n"
                " * than edit; %s_source and %s_device say where it comes from. */\n",
                p, p);
    fprintf(out,
            "#ifndef %s\n#define %s\n\n#include <stddef.h>\n#include <stdint.h>\n"
            "#include <string.h>\n\n",
            guard, guard);
    fprintf(out,
            "typedef struct %s_entry {\n"
            "    const char *op, *dtype, *distribution; /* as in experiment files */\n"
            "    uint32_t ranks;         /* the processes (GPUs) it spans; 1 on one device */\n",
            p);
    if (d->shaped)
        fputs("    uint64_t rows;          /* the rows it won at (1: one reduction of n) */\n"
              "    const char *axis;       /* \"row\": an answer per row; \"column\": per column */\n"
              "    const char *lengths;    /* \"fixed\": every row n long; \"ragged\": around n */\n"
              "    uint64_t n_min, n_max;  /* the n it won at, inclusive (elements per row) */\n",
              out);
    else
        fputs("    uint64_t n_min, n_max;  /* the n it won at, inclusive (elements per rank) */\n",
              out);
    fprintf(out,
            "    const char *pack, *plugin, *params; /* the winner: params as \"key=value ...\" */\n"
            "    double median_ns;       /* its time per call at n_max */\n"
            "    const char *runner_up;  /* the best other strategy at n_max; \"\" if none */\n"
            "    double margin;          /* runner-up time / winner time - 1 (0 if none) */\n"
            "    double confidence;      /* margin / the two times' noise: above 1 the rounds\n"
            "                               tell them apart; -1 unknown */\n"
            "} %s_entry;\n\n",
            p);
}

/* find(): the unshaped map's by op, dtype, ranks and n; the shaped map's
 * by the shape too, the nearest cell on log scales of rows and n. */
static void write_find(FILE *out, const rb_dispatch *d, const char *p)
{
    if (!d->shaped) {
        fprintf(out,
                "/* The entry for op, dtype and ranks whose range of n holds n; between\n"
                " * ranges or beyond them, the nearest (by the ratio of n to the range's\n"
                " * edge); NULL when no entry has that op, dtype and ranks. */\n"
                "static inline const %s_entry *%s_find(const char *op, const char *dtype,\n"
                "                                       uint32_t ranks, uint64_t n)\n{\n"
                "    const %s_entry *best = NULL;\n    double best_ratio = 0;\n"
                "    for (size_t k = 0; k < %s_count; k++) {\n"
                "        const %s_entry *e = &%s_table[k];\n"
                "        if (strcmp(e->op, op) != 0 || strcmp(e->dtype, dtype) != 0 || e->ranks != ranks)\n"
                "            continue;\n"
                "        double ratio = n < e->n_min ? (double)e->n_min / (double)(n ? n : 1)\n"
                "                     : n > e->n_max ? (double)n / (double)e->n_max : 1.0;\n"
                "        if (!best || ratio < best_ratio) {\n"
                "            best = e;\n            best_ratio = ratio;\n        }\n    }\n"
                "    return best;\n}\n\n#endif\n",
                p, p, p, p, p, p);
        return;
    }
    fprintf(out,
            "/* The entry for op, dtype, ranks, axis and lengths nearest to rows x n:\n"
            " * the one of those rows whose range of n holds n; else the nearest, by\n"
            " * the ratio of rows to the entry's rows times the ratio of n to the edge\n"
            " * of its range of n (a distance on log scales of both; the first entry\n"
            " * wins a tie). axis NULL is \"row\", lengths NULL \"fixed\"; rows 1 along\n"
            " * rows is the one reduction of n elements. NULL when no entry has that\n"
            " * op, dtype, ranks, axis and lengths. */\n"
            "static inline const %s_entry *%s_find(const char *op, const char *dtype,\n"
            "                                       uint32_t ranks, uint64_t rows,\n"
            "                                       const char *axis, const char *lengths,\n"
            "                                       uint64_t n)\n{\n"
            "    const %s_entry *best = NULL;\n    double best_ratio = 0;\n"
            "    double r = (double)(rows ? rows : 1);\n"
            "    for (size_t k = 0; k < %s_count; k++) {\n"
            "        const %s_entry *e = &%s_table[k];\n"
            "        if (strcmp(e->op, op) != 0 || strcmp(e->dtype, dtype) != 0 || e->ranks != ranks ||\n"
            "            strcmp(e->axis, axis ? axis : \"row\") != 0 ||\n"
            "            strcmp(e->lengths, lengths ? lengths : \"fixed\") != 0)\n"
            "            continue;\n"
            "        double ratio = n < e->n_min ? (double)e->n_min / (double)(n ? n : 1)\n"
            "                     : n > e->n_max ? (double)n / (double)e->n_max : 1.0;\n"
            "        ratio *= r < (double)e->rows ? (double)e->rows / r : r / (double)e->rows;\n"
            "        if (!best || ratio < best_ratio) {\n"
            "            best = e;\n            best_ratio = ratio;\n        }\n    }\n"
            "    return best;\n}\n\n#endif\n",
            p, p, p, p, p, p);
}

int dispatch_write_header(FILE *out, const rb_dispatch *d, const char *p)
{
    for (size_t k = 0; k < d->count; k++) {
        const rb_dispatch_entry *e = &d->entries[k];
        if (!isfinite(e->median_ns) || !isfinite(e->margin) || !isfinite(e->confidence)) {
            diag_at(d->source ? d->source : "(dispatch)", 0, "entry %zu holds a number beyond "
                    "the range of a double; no header is written", k);
            return -1;
        }
    }
    char guard[80];
    size_t g = 0;
    for (const char *c = p; *c && g < sizeof guard - 3; c++)
        guard[g++] = (char)toupper((unsigned char)*c);
    memcpy(guard + g, "_H", 3);
    write_preamble(out, d, p, guard);
    fprintf(out, "static const char %s_source[] = ", p);
    c_string(out, d->source ? d->source : "");
    fprintf(out, ";\nstatic const char %s_device[] = ", p);
    c_string(out, d->device ? d->device : "");
    fprintf(out, ";\n\nstatic const %s_entry %s_table[] = {\n", p, p);
    for (size_t k = 0; k < d->count; k++) {
        const rb_dispatch_entry *e = &d->entries[k];
        fputs("    {", out);
        c_string(out, e->op); fputs(", ", out);
        c_string(out, e->dtype); fputs(", ", out);
        c_string(out, e->distribution);
        fprintf(out, ", %" PRIu32 "u, ", e->ranks);
        if (d->shaped) {
            fprintf(out, "%" PRIu64 "u, ", e->rows);
            c_string(out, e->axis); fputs(", ", out);
            c_string(out, e->lengths); fputs(", ", out);
        }
        fprintf(out, "%" PRIu64 "u, %" PRIu64 "u,\n     ", e->n_min, e->n_max);
        c_string(out, e->pack); fputs(", ", out);
        c_string(out, e->plugin); fputs(", ", out);
        c_string(out, e->params);
        fputs(", ", out);
        c_number(out, e->median_ns);
        fputs(",\n     ", out);
        c_string(out, e->runner_up ? e->runner_up : "");
        fputs(", ", out);
        c_number(out, e->margin);
        fputs(", ", out);
        c_number(out, e->confidence);
        fputs("},\n", out);
    }
    fprintf(out, "};\n\nstatic const size_t %s_count = %zu;\n\n", p, d->count);
    write_find(out, d, p);
    return ferror(out) ? -1 : 0;
}
