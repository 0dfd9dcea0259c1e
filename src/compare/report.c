/* src/compare/report.c: the reports of `redbench compare`: an aligned
 * table for a terminal, CSV, JSON and Markdown. Each shows, for every
 * configuration in both files (with its shape, rows, axis and lengths,
 * where some configuration has one), the old and new medians, the ratio new / old
 * with its interval, the p-value and the verdict, each side's
 * reproducibility level where some pair has one (the table and Markdown
 * as "old -> new", CSV and JSON as old_repro and new_repro), and marks a
 * configuration
 * measured differently in the two files (timing mode, cache regime) with a
 * note; then the configurations found in one file only, the device
 * differences (when compared anyway) and a summary. The table and Markdown
 * have the `note` column only when some configuration has a note. Where
 * either file has energy, every report shows energy beside time: the old
 * and new energy per call, their ratio with its interval and the energy
 * verdict (same, lower, higher, unclear), or why a pair has none ("no
 * energy in old"); files without energy give the reports they gave. */
#include "compare/comparison.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/json_writer.h"
#include "base/names.h"
#include "base/units.h"
#include "base/util.h"
#include "report/columns.h"
#include "report/output.h"

/* ---- cells of the table and Markdown (laid out by report/columns.c) ---- */

enum column {
    COL_NUM, COL_RUN, COL_PLUGIN, COL_PARAMS, COL_OP, COL_DTYPE, COL_N, COL_ROWS, COL_AXIS,
    COL_LENGTHS, COL_OLD, COL_NEW,
    COL_RATIO, COL_INTERVAL, COL_P, COL_REPRO, COL_VERDICT, COL_E_OLD, COL_E_NEW, COL_E_RATIO,
    COL_E_INTERVAL, COL_ENERGY, COL_NOTE, COL_COUNT
};

/* The table's and Markdown's columns, laid out by report/columns.c. */
static const rb_column columns[COL_COUNT] = {
    [COL_NUM] = {"#", 1},          [COL_RUN] = {"run", 0},     [COL_PLUGIN] = {"plugin", 0},
    [COL_PARAMS] = {"params", 0},  [COL_OP] = {"op", 0},       [COL_DTYPE] = {"dtype", 0},
    [COL_N] = {"n", 1},            [COL_ROWS] = {"rows", 1},   [COL_AXIS] = {"axis", 0},
    [COL_LENGTHS] = {"lengths", 0},
    [COL_OLD] = {"old", 1},        [COL_NEW] = {"new", 1},
    [COL_RATIO] = {"ratio", 1},    [COL_INTERVAL] = {"interval", 0},
    [COL_P] = {"p", 1},            [COL_VERDICT] = {"verdict", 0},
    [COL_E_OLD] = {"old J", 1},    [COL_E_NEW] = {"new J", 1},
    [COL_E_RATIO] = {"J ratio", 1}, [COL_E_INTERVAL] = {"J interval", 0},
    [COL_ENERGY] = {"energy", 0},  [COL_REPRO] = {"repro", 0},    [COL_NOTE] = {"note", 0},
};

/* The columns shown: `note` only when some pair was measured differently,
 * energy's only when either file has energy, the shape's as the run's
 * table shows them: rows when some pair is shaped, axis when one reduces
 * columns, lengths when one has ragged rows. */
static void shown_columns(const rb_comparison *cmp, int shown[COL_COUNT])
{
    for (int c = 0; c < COL_COUNT; c++)
        shown[c] = c == COL_NOTE                        ? cmp->n_differ > 0
                   : c == COL_REPRO                    ? cmp->repro_shown
                   : c >= COL_E_OLD && c <= COL_ENERGY ? cmp->energy_shown
                   : c >= COL_ROWS && c <= COL_LENGTHS ? 0
                                                       : 1;
    for (size_t k = 0; k < cmp->n_pairs; k++) {
        const rb_compare_row *row = cmp->pairs[k].old_row;
        shown[COL_ROWS] |= *row->shape != '\0';
        shown[COL_AXIS] |= row->axis == RB_AXIS_COLUMN;
        shown[COL_LENGTHS] |= row->lengths == RB_LENGTHS_RAGGED;
    }
}

/* Joules per call with a prefix: "1.25 mJ", "310 uJ"; "-" unknown. */
static char *energy_cell(double j)
{
    static const struct { double scale; const char *unit; } units[] = {
        {1, "J"}, {1e-3, "mJ"}, {1e-6, "uJ"}, {1e-9, "nJ"}};
    if (!isfinite(j) || j <= 0)
        return xstrdup("-");
    size_t u = 0;
    while (u + 1 < RB_ARRAY_LEN(units) && j < units[u].scale)
        u++;
    return xasprintf("%.3g %s", j / units[u].scale, units[u].unit);
}

/* The pair's energy verdict, or why it has none. */
static const char *energy_verdict_text(const rb_compare_pair *p)
{
    return p->no_energy ? p->no_energy : verdict_word(p->energy.verdict, RB_QUANTITY_ENERGY);
}

static char *duration_cell(double ns)
{
    if (!isfinite(ns))
        return xstrdup("-");
    char text[64];
    format_duration_ns(ns, text, sizeof text);
    return xstrdup(text);
}

/* The reproducibility levels of a pair: "run-to-run", or "exact ->
 * varies" where they differ; "-" unknown. */
static char *repro_cell(const rb_compare_pair *p)
{
    const char *old_level = p->old_row->repro ? p->old_row->repro : "-";
    const char *new_level = p->new_row->repro ? p->new_row->repro : "-";
    return strcmp(old_level, new_level) == 0 ? xstrdup(new_level)
                                             : xasprintf("%s -> %s", old_level, new_level);
}

/* "timing launch -> graph; cache hot -> cold": each setting that differs
 * between the two rows of a pair, old value first; "" when none. */
static char *note_text(const rb_compare_pair *p)
{
    strbuf sb = {0};
    sb_append(&sb, "");
    for (int s = 0; s < RB_SETTING_COUNT_; s++)
        if (p->differs & (1u << s))
            sb_printf(&sb, "%s%s %s -> %s", sb.len ? "; " : "", compare_setting_name(s),
                      p->old_row->settings[s], p->new_row->settings[s]);
    char *line = one_line(sb.data);
    sb_free(&sb);
    return line;
}

static void fill_cells(size_t number, const rb_compare_pair *p, char *cells[COL_COUNT])
{
    const rb_compare_row *row = p->old_row;
    const rb_sample_comparison *s = &p->stats;
    char n[32];
    format_size(row->n, n, sizeof n);
    cells[COL_NUM] = xasprintf("%zu", number);
    cells[COL_RUN] = one_line(row->run);
    cells[COL_PLUGIN] = one_line(row->plugin);
    char *params = compare_pair_params(p);
    cells[COL_PARAMS] = one_line(*params ? params : "-");
    free(params);
    cells[COL_OP] = one_line(row->op);
    cells[COL_DTYPE] = one_line(row->dtype);
    cells[COL_N] = xstrdup(n);
    char rows[32];
    format_size(row->rows, rows, sizeof rows);
    cells[COL_ROWS] = xstrdup(rows);
    cells[COL_AXIS] = xstrdup(axis_name(row->axis));
    cells[COL_LENGTHS] = xstrdup(lengths_name(row->lengths));
    cells[COL_OLD] = duration_cell(s->median_old);
    cells[COL_NEW] = duration_cell(s->median_new);
    cells[COL_RATIO] = isfinite(s->ratio) ? xasprintf("%.3f", s->ratio) : xstrdup("-");
    cells[COL_INTERVAL] = isfinite(s->ci_low) && isfinite(s->ci_high)
                              ? xasprintf("[%.3f, %.3f]", s->ci_low, s->ci_high)
                              : xstrdup("-");
    cells[COL_P] = isfinite(s->p_value) ? xasprintf("%.2g", s->p_value) : xstrdup("-");
    cells[COL_VERDICT] = xstrdup(verdict_name(s->verdict));
    const rb_sample_comparison *e = &p->energy;
    cells[COL_E_OLD] = energy_cell(e->median_old);
    cells[COL_E_NEW] = energy_cell(e->median_new);
    cells[COL_E_RATIO] = !p->no_energy && isfinite(e->ratio) ? xasprintf("%.3f", e->ratio)
                                                             : xstrdup("-");
    cells[COL_E_INTERVAL] = !p->no_energy && isfinite(e->ci_low) && isfinite(e->ci_high)
                                ? xasprintf("[%.3f, %.3f]", e->ci_low, e->ci_high)
                                : xstrdup("-");
    cells[COL_ENERGY] = xstrdup(energy_verdict_text(p));
    cells[COL_REPRO] = repro_cell(p);
    cells[COL_NOTE] = note_text(p);
}

/* The table's row of pair `k` (an rb_row_cells_fn). */
static void pair_cells(void *user, size_t k, char **cells)
{
    const rb_comparison *cmp = user;
    fill_cells(k + 1, &cmp->pairs[k], cells);
}

static void free_cells(char *cells[COL_COUNT])
{
    for (int c = 0; c < COL_COUNT; c++)
        free(cells[c]);
}

static double confidence_percent(const rb_comparison *cmp)
{
    return 100 * (1 - cmp->criteria.alpha);
}

static size_t count_slower(const rb_comparison *cmp) { return cmp->counts[RB_VERDICT_SLOWER]; }

/* Text on one line, control bytes escaped: the table's and warnings'. */
static void put_plain(FILE *out, const char *text)
{
    char *shown = one_line(text);
    fputs(shown, out);
    free(shown);
}

/* Under the table (plain lines) or the Markdown table: why each unclear
 * verdict is unclear, and each configuration that became wrong, failed or
 * unsupported. */
static void write_pair_notes(FILE *out, const rb_comparison *cmp, int markdown)
{
    void (*put)(FILE *, const char *) = markdown ? md_text : put_plain;
    int header_written = 0;
    for (size_t k = 0; k < cmp->n_pairs; k++) {
        const rb_compare_pair *p = &cmp->pairs[k];
        if (p->stats.verdict != RB_VERDICT_UNCLEAR)
            continue;
        if (!header_written)
            fputs(markdown ? "\nUnclear:\n\n" : "\nunclear:\n", out);
        header_written = 1;
        char *title = compare_row_title(p->old_row);
        fprintf(out, markdown ? "- #%zu " : "  #%zu ", k + 1);
        put(out, title);
        fputs(": ", out);
        put(out, compare_why(&p->stats));
        fputc('\n', out);
        free(title);
    }
    header_written = 0;
    for (size_t k = 0; k < cmp->n_pairs; k++) {
        const rb_compare_pair *p = &cmp->pairs[k];
        if (p->no_energy || p->energy.verdict != RB_VERDICT_UNCLEAR)
            continue;
        if (!header_written)
            fputs(markdown ? "\nEnergy unclear:\n\n" : "\nenergy unclear:\n", out);
        header_written = 1;
        char *title = compare_row_title(p->old_row);
        fprintf(out, markdown ? "- #%zu " : "  #%zu ", k + 1);
        put(out, title);
        fputs(": ", out);
        put(out, compare_why(&p->energy));
        fputc('\n', out);
        free(title);
    }
    for (size_t k = 0; k < cmp->n_pairs; k++) {
        const rb_compare_pair *p = &cmp->pairs[k];
        if (!p->became_bad)
            continue;
        char *title = compare_row_title(p->old_row);
        fputs(markdown ? "\n**Became " : "became ", out);
        put(out, p->new_row->status);
        fprintf(out, markdown ? ":** #%zu " : ": #%zu ", k + 1);
        put(out, title);
        if (*p->new_row->reason) {
            fputs(": ", out);
            put(out, p->new_row->reason);
        }
        fputc('\n', out);
        free(title);
    }
}

/* ---- table ---- */

static void write_file_line(FILE *out, const char *which, const rb_compare_file *f)
{
    char *texts[] = {one_line(f->path), one_line(f->version ? f->version : "?"),
                     one_line(f->git_revision ? f->git_revision : "unknown"),
                     one_line(f->started ? f->started : "time unknown"),
                     one_line(f->host ? f->host : "unknown")};
    fprintf(out, "%s: %s (redbench %s, revision %s, %s, host %s)\n", which, texts[0], texts[1],
            texts[2], texts[3], texts[4]);
    for (size_t k = 0; k < RB_ARRAY_LEN(texts); k++)
        free(texts[k]);
}

static void write_one_file_rows(FILE *out, const char *path, const rb_compare_row *const *rows,
                                size_t count)
{
    if (count == 0)
        return;
    char *name = one_line(path);
    fprintf(out, "\nonly in %s:\n", name);
    free(name);
    for (size_t k = 0; k < count; k++) {
        char *title = compare_row_title(rows[k]);
        fprintf(out, "  %s\n", title);
        free(title);
    }
}

/* What the energy verdicts came to, where either file has energy: plain
 * lines under the table, or Markdown sentences. */
static void write_energy_summary(FILE *out, const rb_comparison *cmp, int markdown)
{
    if (!cmp->energy_shown)
        return;
    const size_t *e = cmp->energy_counts;
    size_t without = cmp->n_pairs - cmp->n_energy_pairs;
    fprintf(out, markdown ? "\n**Energy:** %zu configuration%s with energy in both files: %zu same, "
                            "%zu lower, %zu higher, %zu unclear; %zu without energy on a side. "
                          : "energy: %zu configuration%s with energy in both files: %zu same, "
                            "%zu lower, %zu higher, %zu unclear; %zu without energy on a side\n",
            cmp->n_energy_pairs, cmp->n_energy_pairs == 1 ? "" : "s", e[RB_VERDICT_SAME],
            e[RB_VERDICT_FASTER], e[RB_VERDICT_SLOWER], e[RB_VERDICT_UNCLEAR], without);
    fprintf(out, markdown ? "Energy per call over the rounds' figures (one a round), %zu tested, "
                            "p-values adjusted over them with Holm's method.\n"
                          : "energy compared: %zu (J = energy per call, the median of the "
                            "rounds'; one figure a round, two rounds a side needed); p-values "
                            "adjusted over them with Holm's method\n",
            cmp->n_energy_tested);
    if (e[RB_VERDICT_SLOWER])
        fprintf(out, markdown ? "\n**Energy regression%s:** %zu configuration%s used more than "
                                "%g%% more energy per call.\n"
                              : "regression%s: %zu configuration%s used more than %g%% more "
                                "energy per call\n",
                cmp->energy_report_only ? " (reported only: --energy report)" : "",
                e[RB_VERDICT_SLOWER], e[RB_VERDICT_SLOWER] == 1 ? "" : "s",
                100 * cmp->criteria.threshold);
}

/* The test behind the p-values, as the pairs were judged: over their
 * rounds (the hierarchical bootstrap's distribution of the ratio), on one
 * run's samples a side (Mann-Whitney U), or some of each. */
static void test_used_text(const rb_comparison *cmp, char *buf, size_t len)
{
    size_t rounds = cmp->n_from_rounds, one_run = cmp->n_tested - cmp->n_from_rounds;
    if (cmp->n_tested == 0)
        snprintf(buf, len, "none tested");
    else if (one_run == 0)
        snprintf(buf, len, "from the hierarchical bootstrap over the rounds");
    else if (rounds == 0)
        snprintf(buf, len, "Mann-Whitney U on the samples, one run a side");
    else
        snprintf(buf, len, "from the hierarchical bootstrap over the rounds for %zu, "
                 "Mann-Whitney U on the samples for %zu with one run a side", rounds, one_run);
}

static void write_summary(FILE *out, const rb_comparison *cmp)
{
    fprintf(out, "\n%zu configuration%s in both files: %zu same, %zu faster, %zu slower, "
                 "%zu unclear; %zu only in old, %zu only in new\n",
            cmp->n_pairs, cmp->n_pairs == 1 ? "" : "s", cmp->counts[RB_VERDICT_SAME],
            cmp->counts[RB_VERDICT_FASTER], cmp->counts[RB_VERDICT_SLOWER],
            cmp->counts[RB_VERDICT_UNCLEAR], cmp->n_only_old, cmp->n_only_new);
    char test[192];
    test_used_text(cmp, test, sizeof test);
    fprintf(out, "ratio = new / old median (of the rounds' medians); %g%% bootstrap interval; "
                 "p of no change (%s); threshold %g%%\n",
            confidence_percent(cmp), test, 100 * cmp->criteria.threshold);
    fprintf(out, "compared: %zu configuration%s (both ok, enough samples); p-values adjusted "
                 "over them with Holm's method\n",
            cmp->n_tested, cmp->n_tested == 1 ? "" : "s");
    if (cmp->n_from_rounds)
        fprintf(out, "judged over their rounds: %zu (hierarchical bootstrap: rounds, then "
                     "samples within a round)\n", cmp->n_from_rounds);
    if (cmp->n_tested > cmp->n_from_rounds)
        fprintf(out, "one run a side: %zu, run-to-run variation unknown; intervals widened by "
                     "%g%% each way\n", cmp->n_tested - cmp->n_from_rounds,
                100 * cmp->criteria.run_allowance);
    if (cmp->n_became_bad)
        fprintf(out, "regression: %zu configuration%s became wrong, failed or unsupported\n",
                cmp->n_became_bad, cmp->n_became_bad == 1 ? "" : "s");
    if (cmp->require_all && cmp->n_only_old)
        fprintf(out, "regression: %zu configuration%s of old missing from new "
                     "(--require-all)\n",
                cmp->n_only_old, cmp->n_only_old == 1 ? "" : "s");
    if (cmp->n_differ)
        fprintf(out, "measured differently: %zu configuration%s (see note); %s verdict%s "
                     "compare%s different measurements\n",
                cmp->n_differ, cmp->n_differ == 1 ? "" : "s", cmp->n_differ == 1 ? "its" : "their",
                cmp->n_differ == 1 ? "" : "s", cmp->n_differ == 1 ? "s" : "");
    write_energy_summary(out, cmp, 0);
    if (count_slower(cmp)) {
        size_t differ = 0;
        for (size_t k = 0; k < cmp->n_pairs; k++)
            differ += cmp->pairs[k].stats.verdict == RB_VERDICT_SLOWER && cmp->pairs[k].differs;
        fprintf(out, "regression: %zu configuration%s slower by more than %g%%", count_slower(cmp),
                count_slower(cmp) == 1 ? "" : "s", 100 * cmp->criteria.threshold);
        if (differ)
            fprintf(out, " (%zu measured differently)", differ);
        fputc('\n', out);
    }
}

int compare_report_table(FILE *out, const rb_comparison *cmp)
{
    write_file_line(out, "old", &cmp->old_file);
    write_file_line(out, "new", &cmp->new_file);
    for (size_t k = 0; k < cmp->n_device_changes; k++) {
        char *change = one_line(cmp->device_changes[k]);
        fprintf(out, "devices differ (compared anyway): %s\n", change);
        free(change);
    }

    if (cmp->n_pairs > 0) {
        int shown[COL_COUNT];
        shown_columns(cmp, shown);
        fputc('\n', out);
        text_table_rows(out, columns, shown, COL_COUNT, cmp->n_pairs, pair_cells, (void *)cmp);
    }

    write_pair_notes(out, cmp, 0);
    write_one_file_rows(out, cmp->old_file.path, cmp->only_old, cmp->n_only_old);
    write_one_file_rows(out, cmp->new_file.path, cmp->only_new, cmp->n_only_new);
    write_summary(out, cmp);
    return fflush(out) != 0 || ferror(out) ? -1 : 0;
}

/* ---- CSV ---- */

static void csv_number(FILE *out, double v)
{
    if (isfinite(v)) {
        char text[32];
        json_format_double(v, text, sizeof text);
        fputs(text, out);
    }
}

/* The settings of each side (empty where a side is absent or does not
 * say), then the names of those that differ, space-separated. */
static void csv_settings(FILE *out, const rb_compare_row *old_row, const rb_compare_row *new_row,
                         unsigned differs)
{
    for (int s = 0; s < RB_SETTING_COUNT_; s++) {
        fputc(',', out);
        csv_field(out, old_row ? old_row->settings[s] : NULL, 1);
        fputc(',', out);
        csv_field(out, new_row ? new_row->settings[s] : NULL, 1);
    }
    fputc(',', out);
    int named = 0;
    for (int s = 0; s < RB_SETTING_COUNT_; s++)
        if (differs & (1u << s))
            fprintf(out, "%s%s", named++ ? " " : "", compare_setting_name(s));
}

/* The energy columns, where either file has energy: each side's energy
 * per call, then for a pair the ratio, interval, p, verdict (or "none")
 * and why. */
static void csv_energy(FILE *out, const rb_compare_row *old_row, const rb_compare_row *new_row,
                       const rb_compare_pair *pair)
{
    const rb_sample_comparison *e = pair ? &pair->energy : NULL;
    const rb_compare_row *sides[] = {old_row, new_row};
    for (size_t k = 0; k < RB_ARRAY_LEN(sides); k++) {
        fputc(',', out);
        if (sides[k] && sides[k]->energy_j > 0)
            csv_number(out, e ? (k ? e->median_new : e->median_old) : sides[k]->energy_j);
    }
    if (!pair) {
        fputs(",,,,,,", out);
        return;
    }
    const double numbers[] = {e->ratio, e->ci_low, e->ci_high, e->p_value};
    for (size_t k = 0; k < RB_ARRAY_LEN(numbers); k++) {
        fputc(',', out);
        if (!pair->no_energy)
            csv_number(out, numbers[k]);
    }
    fputc(',', out);
    csv_field(out, pair->no_energy ? "none" : verdict_word(e->verdict, RB_QUANTITY_ENERGY), 1);
    fputc(',', out);
    csv_field(out, pair->no_energy ? pair->no_energy : compare_why(e), 1);
}

/* Whether some row of either file has a shape: the CSV then ends with
 * its columns (a comparison of one reduction each has the columns it
 * always had). */
static int csv_shaped(const rb_comparison *cmp)
{
    for (size_t k = 0; k < cmp->n_pairs; k++)
        if (*cmp->pairs[k].old_row->shape || *cmp->pairs[k].new_row->shape)
            return 1;
    for (size_t k = 0; k < cmp->n_only_old; k++)
        if (*cmp->only_old[k]->shape)
            return 1;
    for (size_t k = 0; k < cmp->n_only_new; k++)
        if (*cmp->only_new[k]->shape)
            return 1;
    return 0;
}

static void csv_row(FILE *out, const char *in, const rb_compare_row *row,
                    const rb_compare_row *old_row, const rb_compare_row *new_row,
                    const rb_compare_pair *pair, const rb_comparison *cmp, int shaped)
{
    int energy = cmp->energy_shown;
    const rb_sample_comparison *s = pair ? &pair->stats : NULL;
    csv_field(out, in, 1);
    fputc(',', out);
    /* a pair of different runs or parameters: "old -> new", as the table says */
    char *params = pair ? compare_pair_params(pair) : NULL;
    int other_run = pair && strcmp(pair->old_row->run, pair->new_row->run) != 0;
    char *run = other_run ? xasprintf("%s -> %s", pair->old_row->run, pair->new_row->run) : NULL;
    const char *fields[] = {run ? run : row->run, row->plugin, params ? params : row->params->shown,
                            row->op, row->dtype};
    for (size_t k = 0; k < RB_ARRAY_LEN(fields); k++) {
        csv_field(out, fields[k], 1);
        fputc(',', out);
    }
    free(params);
    free(run);
    fprintf(out, "%llu,", (unsigned long long)row->n);
    csv_field(out, row->distribution, 1);
    fputc(',', out);
    csv_field(out, old_row ? old_row->status : "", 1);
    fputc(',', out);
    csv_field(out, new_row ? new_row->status : "", 1);
    fputc(',', out);
    if (old_row)
        fprintf(out, "%zu", old_row->n_samples);
    fputc(',', out);
    if (new_row)
        fprintf(out, "%zu", new_row->n_samples);
    if (s) {
        const double numbers[] = {s->median_old, s->median_new, s->ratio,
                                  s->ci_low,     s->ci_high,   s->p_value};
        for (size_t k = 0; k < RB_ARRAY_LEN(numbers); k++) {
            fputc(',', out);
            csv_number(out, numbers[k]);
        }
        fputc(',', out);
        csv_field(out, verdict_name(s->verdict), 1);
        fputc(',', out);
        csv_field(out, compare_why(s), 1);
    } else {
        double median = sample_median(row->samples, row->n_samples);
        fputc(',', out);
        if (old_row)
            csv_number(out, median);
        fputc(',', out);
        if (new_row)
            csv_number(out, median);
        fputs(",,,,,,", out);
    }
    csv_settings(out, old_row, new_row, pair ? pair->differs : 0);
    if (energy)
        csv_energy(out, old_row, new_row, pair);
    if (shaped) /* a row of one reduction among shaped ones is one row */
        fprintf(out, ",%llu,%s,%s", (unsigned long long)row->rows, axis_name(row->axis),
                lengths_name(row->lengths));
    if (cmp->repro_shown) { /* each side's level, empty where it has none */
        fputc(',', out);
        csv_field(out, old_row ? old_row->repro : NULL, 1);
        fputc(',', out);
        csv_field(out, new_row ? new_row->repro : NULL, 1);
    }
    fputc('\n', out);
}

int compare_report_csv(FILE *out, const rb_comparison *cmp)
{
    fputs("in,run,plugin,params,op,dtype,n,distribution,old_status,new_status,old_reps,"
          "new_reps,old_median_ns,new_median_ns,ratio,ci_low,ci_high,p_value,verdict,why,"
          "old_timing,new_timing,old_cache,new_cache,measured_differently",
          out);
    if (cmp->energy_shown)
        fputs(",old_energy_j,new_energy_j,energy_ratio,energy_ci_low,energy_ci_high,"
              "energy_p_value,energy_verdict,energy_why",
              out);
    int shaped = csv_shaped(cmp);
    if (shaped)
        fputs(",rows,axis,lengths", out);
    if (cmp->repro_shown)
        fputs(",old_repro,new_repro", out);
    fputc('\n', out);
    for (size_t k = 0; k < cmp->n_pairs; k++) {
        const rb_compare_pair *p = &cmp->pairs[k];
        csv_row(out, "both", p->old_row, p->old_row, p->new_row, p, cmp, shaped);
    }
    for (size_t k = 0; k < cmp->n_only_old; k++)
        csv_row(out, "old", cmp->only_old[k], cmp->only_old[k], NULL, NULL, cmp, shaped);
    for (size_t k = 0; k < cmp->n_only_new; k++)
        csv_row(out, "new", cmp->only_new[k], NULL, cmp->only_new[k], NULL, cmp, shaped);
    return fflush(out) != 0 || ferror(out) ? -1 : 0;
}

/* ---- JSON ---- */

/* A parameter read from a result file, written back as it was. */
static void write_param(json_writer *w, const rb_compare_param *p)
{
    char *end;
    int integer = p->type == JSON_NUMBER && !strpbrk(p->text, ".eE");
    switch (p->type) {
    case JSON_BOOL: jw_bool(w, strcmp(p->text, "true") == 0); return;
    case JSON_NULL: jw_null(w); return;
    case JSON_NUMBER: break;
    default: jw_string(w, p->text); return;
    }
    errno = 0;
    long long i = strtoll(p->text, &end, 10);
    if (integer && !*end && errno != ERANGE) {
        jw_int(w, i);
        return;
    }
    errno = 0;
    unsigned long long u = strtoull(p->text, &end, 10);
    if (integer && p->text[0] != '-' && !*end && errno != ERANGE)
        jw_uint(w, u);
    else
        jw_double(w, strtod(p->text, NULL));
}

static void write_configuration(json_writer *w, const rb_compare_row *row)
{
    json_member_string(w, "run", row->run);
    json_member_string(w, "plugin", row->plugin);
    jw_key(w, "params");
    jw_begin_object(w);
    for (size_t k = 0; row->params && k < row->params->count; k++) {
        jw_key(w, row->params->items[k].key);
        write_param(w, &row->params->items[k]);
    }
    jw_end_object(w);
    json_member_string(w, "op", row->op);
    json_member_string(w, "dtype", row->dtype);
    json_member_uint(w, "n", row->n);
    json_member_string(w, "distribution", *row->distribution ? row->distribution : NULL);
    if (*row->shape) /* " rows=64 axis=column": a shape's, absent for one reduction */
        json_member_string(w, "shape", row->shape + 1);
}

/* Where a pair matched rows of different runs, plugins or parameters
 * (--match run, --ignore PARAM): NEW's, as "new_run", "new_plugin" and
 * "new_params" (the members above are OLD's). */
static void write_new_side(json_writer *w, const rb_compare_row *old_row,
                           const rb_compare_row *new_row)
{
    if (strcmp(old_row->run, new_row->run) != 0)
        json_member_string(w, "new_run", new_row->run);
    if (strcmp(old_row->plugin, new_row->plugin) != 0)
        json_member_string(w, "new_plugin", new_row->plugin);
    if (strcmp(old_row->params_text, new_row->params_text) == 0)
        return;
    jw_key(w, "new_params");
    jw_begin_object(w);
    for (size_t k = 0; new_row->params && k < new_row->params->count; k++) {
        jw_key(w, new_row->params->items[k].key);
        write_param(w, &new_row->params->items[k]);
    }
    jw_end_object(w);
}

/* "old_timing", "new_timing", "old_cache", "new_cache" for the sides
 * present (null where a row does not say). */
static void write_settings(json_writer *w, const rb_compare_row *old_row,
                           const rb_compare_row *new_row)
{
    for (int s = 0; s < RB_SETTING_COUNT_; s++) {
        char key[32];
        if (old_row) {
            snprintf(key, sizeof key, "old_%s", compare_setting_name(s));
            json_member_string(w, key, old_row->settings[s]);
        }
        if (new_row) {
            snprintf(key, sizeof key, "new_%s", compare_setting_name(s));
            json_member_string(w, key, new_row->settings[s]);
        }
    }
}

static void write_file_info(json_writer *w, const char *key, const rb_compare_file *f)
{
    jw_key(w, key);
    jw_begin_object(w);
    json_member_string(w, "path", f->path);
    json_member_string(w, "version", f->version);
    json_member_string(w, "git_revision", f->git_revision);
    json_member_string(w, "started", f->started);
    json_member_string(w, "host", f->host);
    jw_end_object(w);
}

static void write_one_file_list(json_writer *w, const char *key, const rb_compare_row *const *rows,
                                size_t count, int old_side)
{
    jw_key(w, key);
    jw_begin_array(w);
    for (size_t k = 0; k < count; k++) {
        jw_begin_object(w);
        write_configuration(w, rows[k]);
        json_member_string(w, "status", rows[k]->status);
        json_member_number(w, "median_ns", sample_median(rows[k]->samples, rows[k]->n_samples));
        write_settings(w, old_side ? rows[k] : NULL, old_side ? NULL : rows[k]);
        jw_end_object(w);
    }
    jw_end_array(w);
}

/* A pair's energy, where either file has energy: an object beside the
 * time's figures; its verdict "none" with why where a row has none. */
static void write_energy(json_writer *w, const rb_compare_pair *p)
{
    const rb_sample_comparison *e = &p->energy;
    jw_key(w, "energy");
    jw_begin_object(w);
    json_member_number(w, "old_j", e->median_old);
    json_member_number(w, "new_j", e->median_new);
    json_member_uint(w, "old_rounds", p->old_row->n_energy_rounds);
    json_member_uint(w, "new_rounds", p->new_row->n_energy_rounds);
    json_member_number(w, "ratio", p->no_energy ? NAN : e->ratio);
    json_member_number(w, "ci_low", p->no_energy ? NAN : e->ci_low);
    json_member_number(w, "ci_high", p->no_energy ? NAN : e->ci_high);
    json_member_number(w, "p_value", p->no_energy ? NAN : e->p_value);
    json_member_number(w, "p_adjusted", p->no_energy ? NAN : e->p_adjusted);
    json_member_string(w, "verdict",
                       p->no_energy ? "none" : verdict_word(e->verdict, RB_QUANTITY_ENERGY));
    json_member_string(w, "why", p->no_energy ? p->no_energy : compare_why(e));
    jw_end_object(w);
}

int compare_report_json(FILE *out, const rb_comparison *cmp)
{
    json_writer w;
    jw_init(&w, out, 2);
    jw_begin_object(&w);
    json_member_string(&w, "tool", "redbench compare");
    write_file_info(&w, "old", &cmp->old_file);
    write_file_info(&w, "new", &cmp->new_file);
    json_member_number(&w, "threshold", cmp->criteria.threshold);
    json_member_number(&w, "confidence", 1 - cmp->criteria.alpha);
    json_member_string(&w, "interval", "bootstrap percentile interval of median(new) / median(old)");
    char test[192];
    test_used_text(cmp, test, sizeof test);
    json_member_string(&w, "test", test);
    jw_key(&w, "device_changes");
    jw_begin_array(&w);
    for (size_t k = 0; k < cmp->n_device_changes; k++)
        jw_string(&w, cmp->device_changes[k]);
    jw_end_array(&w);

    jw_key(&w, "summary");
    jw_begin_object(&w);
    for (int v = 0; v < RB_VERDICT_COUNT_; v++) {
        json_member_uint(&w, verdict_name(v), cmp->counts[v]);
    }
    json_member_uint(&w, "only_old", cmp->n_only_old);
    json_member_uint(&w, "only_new", cmp->n_only_new);
    json_member_uint(&w, "measured_differently", cmp->n_differ);
    json_member_uint(&w, "compared", cmp->n_tested);
    json_member_uint(&w, "became_bad", cmp->n_became_bad);
    json_member_string(&w, "p_adjustment", "holm");
    json_member_number(&w, "run_allowance", cmp->criteria.run_allowance);
    json_member_uint(&w, "from_rounds", cmp->n_from_rounds);
    if (cmp->energy_shown) {
        jw_key(&w, "energy");
        jw_begin_object(&w);
        for (int v = 0; v < RB_VERDICT_COUNT_; v++)
            json_member_uint(&w, verdict_word(v, RB_QUANTITY_ENERGY), cmp->energy_counts[v]);
        json_member_uint(&w, "with_energy", cmp->n_energy_pairs);
        json_member_uint(&w, "without_energy", cmp->n_pairs - cmp->n_energy_pairs);
        json_member_uint(&w, "compared", cmp->n_energy_tested);
        json_member_bool(&w, "gate", !cmp->energy_report_only);
        jw_end_object(&w);
    }
    jw_end_object(&w);

    jw_key(&w, "comparisons");
    jw_begin_array(&w);
    for (size_t k = 0; k < cmp->n_pairs; k++) {
        const rb_compare_pair *p = &cmp->pairs[k];
        const rb_sample_comparison *s = &p->stats;
        jw_begin_object(&w);
        write_configuration(&w, p->old_row);
        write_new_side(&w, p->old_row, p->new_row);
        json_member_string(&w, "old_status", p->old_row->status);
        json_member_string(&w, "new_status", p->new_row->status);
        if (cmp->repro_shown) {
            json_member_string(&w, "old_repro", p->old_row->repro);
            json_member_string(&w, "new_repro", p->new_row->repro);
        }
        json_member_uint(&w, "old_reps", s->n_old);
        json_member_uint(&w, "new_reps", s->n_new);
        json_member_uint(&w, "old_rounds", s->rounds_old);
        json_member_uint(&w, "new_rounds", s->rounds_new);
        json_member_number(&w, "old_median_ns", s->median_old);
        json_member_number(&w, "new_median_ns", s->median_new);
        json_member_number(&w, "ratio", s->ratio);
        json_member_number(&w, "ci_low", s->ci_low);
        json_member_number(&w, "ci_high", s->ci_high);
        json_member_number(&w, "p_value", s->p_value);
        json_member_number(&w, "p_adjusted", s->p_adjusted);
        json_member_bool(&w, "became_bad", p->became_bad);
        json_member_string(&w, "verdict", verdict_name(s->verdict));
        json_member_string(&w, "why", compare_why(s));
        write_settings(&w, p->old_row, p->new_row);
        jw_key(&w, "measured_differently");
        jw_begin_array_compact(&w);
        for (int c = 0; c < RB_SETTING_COUNT_; c++)
            if (p->differs & (1u << c))
                jw_string(&w, compare_setting_name(c));
        jw_end_array(&w);
        if (cmp->energy_shown)
            write_energy(&w, p);
        jw_end_object(&w);
    }
    jw_end_array(&w);
    write_one_file_list(&w, "only_in_old", cmp->only_old, cmp->n_only_old, 1);
    write_one_file_list(&w, "only_in_new", cmp->only_new, cmp->n_only_new, 0);
    jw_end_object(&w);
    return jw_finish(&w);
}

/* ---- Markdown ---- */

static void md_file_line(FILE *out, const char *which, const rb_compare_file *f)
{
    fprintf(out, "- %s: `", which);
    char *path = printable_text(f->path);
    for (const char *p = path; *p; p++)
        fputc(*p == '`' ? ' ' : *p, out);
    free(path);
    fputs("`, redbench ", out);
    md_text(out, f->version ? f->version : "?");
    fputs(", revision ", out);
    md_text(out, f->git_revision ? f->git_revision : "unknown");
    fputs(", ", out);
    md_text(out, f->started ? f->started : "time unknown");
    fputs(", host ", out);
    md_text(out, f->host ? f->host : "unknown");
    fputc('\n', out);
}

static void md_one_file_rows(FILE *out, const char *which, const rb_compare_row *const *rows,
                             size_t count)
{
    if (count == 0)
        return;
    fprintf(out, "\nOnly in the %s file:\n\n", which);
    for (size_t k = 0; k < count; k++) {
        char *title = compare_row_title(rows[k]);
        fputs("- ", out);
        md_text(out, title);
        fputc('\n', out);
        free(title);
    }
}

int compare_report_md(FILE *out, const rb_comparison *cmp)
{
    fputs("# redbench compare\n\n", out);
    md_file_line(out, "old", &cmp->old_file);
    md_file_line(out, "new", &cmp->new_file);
    char test[192];
    test_used_text(cmp, test, sizeof test);
    fprintf(out, "- ratio = new / old median (of the rounds' medians), with its %g%% bootstrap "
                 "interval; p of no change (%s); threshold %g%%\n",
            confidence_percent(cmp), test, 100 * cmp->criteria.threshold);
    for (size_t k = 0; k < cmp->n_device_changes; k++) {
        fputs("- devices differ (compared anyway): ", out);
        md_text(out, cmp->device_changes[k]);
        fputc('\n', out);
    }
    if (cmp->n_pairs > 0) {
        int shown[COL_COUNT];
        shown_columns(cmp, shown);
        fputc('\n', out);
        md_table_head(out, columns, shown, COL_COUNT, "---:");
        for (size_t k = 0; k < cmp->n_pairs; k++) {
            char *cells[COL_COUNT];
            fill_cells(k + 1, &cmp->pairs[k], cells);
            md_table_row(out, cells, shown, COL_COUNT);
            free_cells(cells);
        }
    }
    write_pair_notes(out, cmp, 1);
    md_one_file_rows(out, "old", cmp->only_old, cmp->n_only_old);
    md_one_file_rows(out, "new", cmp->only_new, cmp->n_only_new);
    fprintf(out, "\n%zu in both files: %zu same, %zu faster, %zu slower, %zu unclear; "
                 "%zu only in old, %zu only in new.\n",
            cmp->n_pairs, cmp->counts[RB_VERDICT_SAME], cmp->counts[RB_VERDICT_FASTER],
            cmp->counts[RB_VERDICT_SLOWER], cmp->counts[RB_VERDICT_UNCLEAR], cmp->n_only_old,
            cmp->n_only_new);
    fprintf(out, "\n%zu compared (both ok, enough samples), p-values adjusted over them with "
                 "Holm's method.", cmp->n_tested);
    if (cmp->n_from_rounds)
        fprintf(out, " %zu judged over their rounds (hierarchical bootstrap: rounds, then "
                     "samples within a round).", cmp->n_from_rounds);
    if (cmp->n_tested > cmp->n_from_rounds)
        fprintf(out, " %zu with one run a side, so run-to-run variation is unknown and "
                     "intervals are widened by %g%% each way.",
                cmp->n_tested - cmp->n_from_rounds, 100 * cmp->criteria.run_allowance);
    fputc('\n', out);
    write_energy_summary(out, cmp, 1);
    if (cmp->require_all && cmp->n_only_old)
        fprintf(out, "\n**Missing from new (--require-all):** %zu configuration%s.\n",
                cmp->n_only_old, cmp->n_only_old == 1 ? "" : "s");
    if (cmp->n_differ)
        fprintf(out, "\n**Measured differently:** %zu configuration%s (see the note column); "
                     "%s verdict%s compare%s different measurements.\n",
                cmp->n_differ, cmp->n_differ == 1 ? "" : "s", cmp->n_differ == 1 ? "its" : "their",
                cmp->n_differ == 1 ? "" : "s", cmp->n_differ == 1 ? "s" : "");
    return fflush(out) != 0 || ferror(out) ? -1 : 0;
}

/* The reports of a comparison, by enum rb_format; none is HTML. */
static const rb_compare_reporter reporters[RB_FORMAT_COUNT_] = {
    [RB_FORMAT_TABLE] = compare_report_table, [RB_FORMAT_CSV] = compare_report_csv,
    [RB_FORMAT_JSON] = compare_report_json,   [RB_FORMAT_MD] = compare_report_md,
};

rb_compare_reporter compare_reporter_for(const char *format)
{
    int f = format ? format_from_name(format) : -1;
    return f >= 0 ? reporters[f] : NULL;
}

const char *compare_formats(const char *sep)
{
    static char text[2][128];
    char *buf = text[strcmp(sep, "|") == 0];
    if (!buf[0]) {
        size_t used = 0;
        for (int f = 0; f < RB_FORMAT_COUNT_ && used < sizeof text[0]; f++)
            if (reporters[f])
                used += (size_t)snprintf(buf + used, sizeof text[0] - used, "%s%s",
                                         used ? sep : "", format_name(f));
    }
    return buf;
}
