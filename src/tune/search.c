/* src/tune/search.c: `redbench tune`'s search (tune/search.h): candidates
 * measured through the runner at settings scaled from brief to the
 * experiment's own, successive halving, coordinate descent, and the groups
 * searched in order until done or stopped. */
#include "tune/search.h"
#include "base/diag.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/names.h"
#include "base/units.h"
#include "base/util.h"
#include "run/runner.h"


/* Measures `count` candidates with settings scaled by `level` (0: brief,
 * larger: longer, up to the experiment's own settings). */
/* What the objective minimises for a row; INFINITY when it is not ok or
 * its energy was not measured. */
static double objective_score(int objective, const rb_row *row)
{
    if (row->status != RB_ROW_OK || row->stats.median <= 0)
        return INFINITY;
    if (objective == RB_OBJECTIVE_TIME)
        return row->stats.median;
    if (row->energy_source == RB_ENERGY_NONE || !(row->energy_j > 0))
        return INFINITY;
    return objective == RB_OBJECTIVE_ENERGY ? row->energy_j
                                            : row->energy_j * row->stats.median * 1e-9;
}

static void time_candidates(rb_tuner *t, rb_candidate **cands, size_t count, int level)
{
    if (count == 0)
        return;
    rb_experiment exp = *t->exp;
    double scale = level >= 3 ? 1.0 : pow(3.0, level - 3);
    exp.min_time = t->exp->min_time * scale;
    exp.max_reps = (long)fmax(3.0, floor((double)t->exp->max_reps * scale));
    exp.min_reps = t->exp->min_reps < exp.max_reps ? t->exp->min_reps : exp.max_reps;
    exp.warmup = level >= 3 ? t->exp->warmup : (t->exp->warmup > 0 ? 1 : 0);
    if (exp.objective != RB_OBJECTIVE_TIME)
        exp.energy = 1;

    rb_sweep sweep = {0};
    sweep.configs = xcalloc(count, sizeof *sweep.configs);
    sweep.n_configs = count;
    for (size_t k = 0; k < count; k++)
        sweep.configs[k] = *cands[k]->config; /* shallow: the original owns the parts */
    rb_results res = {0};
    rb_runner_options ropt = {.verbosity = 0, .progress = 0};
    runner_run(&exp, t->reg, &sweep, &ropt, &res);
    for (size_t k = 0; k < count; k++) {
        const rb_row *row = &res.rows[k];
        cands[k]->rounds++;
        cands[k]->status = row->status;
        cands[k]->median_ns = row->status == RB_ROW_OK ? row->stats.median : INFINITY;
        cands[k]->score = objective_score(exp.objective, row);
        cands[k]->bandwidth_gbs = row->bandwidth_gbs;
        cands[k]->noise = row->status == RB_ROW_OK ? row->stats.noise : 0;
    }
    if (!t->have_device && res.info.n_devices > 0) {
        t->device = res.info.devices[0];
        t->have_device = 1;
    }
    t->measured += count;
    results_free(&res);
    free(sweep.configs);
}

static int by_score(const void *a, const void *b)
{
    double x = (*(rb_candidate *const *)a)->score;
    double y = (*(rb_candidate *const *)b)->score;
    return x < y ? -1 : x > y ? 1 : 0;
}

/* Successive halving over `count` candidates; returns the survivor. */
static rb_candidate *halve(rb_tuner *t, rb_candidate **pool, size_t count, int level)
{
    while (count > 0) {
        time_candidates(t, pool, count, level);
        qsort(pool, count, sizeof *pool, by_score);
        if (count == 1 || !isfinite(pool[0]->score))
            break;
        size_t keep = (count + 2) / 3;
        count = keep;
        level++;
    }
    return count ? pool[0] : NULL;
}

static int same_params_but(const rb_configuration *a, const rb_configuration *b, uint32_t skip)
{
    for (uint32_t p = 0; p < a->n_params; p++)
        if (p != skip && a->params[p].i != b->params[p].i)
            return 0;
    return 1;
}

/* Coordinate descent from the defaults; returns the best after confirming
 * the best points visited with successive halving. */
static rb_candidate *descend(rb_tuner *t, rb_tune_group *g)
{
    const rb_plugin *desc = g->cands[0].config->plugin->desc;
    rb_candidate **line = xcalloc(g->count, sizeof *line);
    /* start: the configuration whose parameters are the defaults, else the first */
    rb_candidate *at = &g->cands[0];
    for (size_t k = 0; k < g->count; k++) {
        int all_default = 1;
        for (uint32_t p = 0; p < desc->n_params && all_default; p++)
            all_default = strcmp(g->cands[k].config->params[p].text,
                                 desc->params[p].default_value) == 0;
        if (all_default) {
            at = &g->cands[k];
            break;
        }
    }
    for (int pass = 0; pass < 4; pass++) {
        rb_candidate *start = at;
        for (uint32_t p = 0; p < desc->n_params; p++) {
            size_t n = 0;
            for (size_t k = 0; k < g->count; k++)
                if (same_params_but(g->cands[k].config, at->config, p))
                    line[n++] = &g->cands[k];
            if (n < 2)
                continue;
            size_t fresh = 0;
            for (size_t k = 0; k < n; k++)
                if (line[k]->rounds == 0)
                    line[fresh++] = line[k];
            time_candidates(t, line, fresh, 0);
            for (size_t k = 0; k < g->count; k++)
                if (same_params_but(g->cands[k].config, at->config, p) &&
                    g->cands[k].score < at->score)
                    at = &g->cands[k];
        }
        if (at == start)
            break;
    }
    size_t n = 0;
    for (size_t k = 0; k < g->count; k++)
        if (g->cands[k].rounds > 0 && isfinite(g->cands[k].score))
            line[n++] = &g->cands[k];
    qsort(line, n, sizeof *line, by_score);
    rb_candidate *best = halve(t, line, n < TUNE_KEEP_VISITED ? n : TUNE_KEEP_VISITED, 1);
    free(line);
    return best;
}

static void tune_group(rb_tuner *t, rb_tune_group *g)
{
    rb_candidate *best;
    if (!g->cands[0].config->plugin) {
        best = NULL;
    } else if (g->count <= TUNE_EXHAUSTIVE) {
        rb_candidate **pool = xcalloc(g->count, sizeof *pool);
        for (size_t k = 0; k < g->count; k++)
            pool[k] = &g->cands[k];
        best = halve(t, pool, g->count, 0);
        free(pool);
    } else {
        best = descend(t, g);
    }
    g->winner = g->count;
    if (best && isfinite(best->score)) {
        time_candidates(t, &best, 1, 3);
        if (isfinite(best->score)) {
            g->final_score = best->score;
            g->winner = (size_t)(best - g->cands);
            g->final_median_ns = best->median_ns;
            g->final_gbs = best->bandwidth_gbs;
            g->final_noise = best->noise;
        }
    }
}

static int same_data(const rb_configuration *a, const rb_configuration *b)
{
    return a->run == b->run && a->op == b->op && a->dtype == b->dtype && a->n == b->n &&
           a->distribution == b->distribution && a->bins == b->bins && a->ranks == b->ranks &&
           a->rows == b->rows && a->axis == b->axis && a->lengths == b->lengths;
}

/* Consecutive configurations of one run at one data set form a group. */
size_t make_groups(const rb_sweep *sweep, rb_tune_group **out)
{
    size_t count = 0, cap = 0;
    rb_tune_group *groups = NULL;
    for (size_t k = 0; k < sweep->n_configs;) {
        size_t end = k + 1;
        while (end < sweep->n_configs && same_data(&sweep->configs[k], &sweep->configs[end]))
            end++;
        rb_tune_group *g = grow(&groups, &count, &cap, sizeof *g);
        g->count = end - k;
        g->winner = g->count; /* none until searched */
        g->cands = xcalloc(g->count, sizeof *g->cands);
        for (size_t j = 0; j < g->count; j++) {
            g->cands[j].config = &sweep->configs[k + j];
            g->cands[j].median_ns = g->cands[j].score = INFINITY;
        }
        k = end;
    }
    *out = groups;
    return count;
}

/* The stage of a candidate's latest measurement, 1 for the briefest: the
 * search measures a candidate once per level it reaches, from level 0 (a
 * fresh candidate in halving or descent) up, so `rounds` is its level plus
 * one; the winner's latest measurement is the final one (level 3 again). */
static int stage_of(const rb_candidate *c) { return c->rounds; }

/* "stage 1 (1/27 time)": the stage and how long its measurements are,
 * against the experiment's own min_time and max_reps (time_candidates). */
static void stage_label(int stage, char *buf, size_t len)
{
    static const char *const length[] = {"1/27 time", "1/9 time", "1/3 time"};
    snprintf(buf, len, "stage %d (%s)", stage,
             stage >= 1 && stage <= 3 ? length[stage - 1] : "full time");
}

/* Later stages first; within a stage the fastest first, rows not ok last. */
static int by_stage_then_time(const void *a, const void *b)
{
    const rb_candidate *x = *(rb_candidate *const *)a, *y = *(rb_candidate *const *)b;
    if (stage_of(x) != stage_of(y))
        return stage_of(y) - stage_of(x);
    int fx = isfinite(x->median_ns), fy = isfinite(y->median_ns);
    if (fx != fy)
        return fy - fx;
    return x->median_ns < y->median_ns ? -1 : x->median_ns > y->median_ns ? 1 : 0;
}

static void print_candidate(FILE *out, const rb_candidate *cand, int winner)
{
    char t[32], stage[48];
    format_duration_ns(cand->median_ns, t, sizeof t);
    if (winner)
        snprintf(stage, sizeof stage, "final (full time)");
    else if (isfinite(cand->median_ns))
        stage_label(stage_of(cand), stage, sizeof stage);
    else
        stage[0] = '\0';
    char *params = printable_text(cand->config->params_text);
    fprintf(out, "  %s %-40s %10s  %-11s %s\n", winner ? "*" : " ", params,
            isfinite(cand->median_ns) ? t : "-", row_status_name(cand->status), stage);
    free(params);
}

void print_tried(FILE *out, const rb_tune_group *groups, size_t n_groups)
{
    fprintf(out, "How the search works: each candidate tried is measured briefly (stage 1, 1/27 of "
                 "min_time), the best third of each stage 3x longer in the next, and the winner "
                 "(*) once more at the experiment's own settings (final); a time is from the "
                 "last stage its candidate reached, so compare times within one stage.\n");
    for (size_t k = 0; k < n_groups; k++) {
        const rb_tune_group *g = &groups[k];
        const rb_configuration *c = g->cands[0].config;
        char n[32];
        format_size(c->n, n, sizeof n);
        size_t tried = 0;
        for (size_t j = 0; j < g->count; j++)
            tried += g->cands[j].rounds > 0;
        char ranks[128] = "";
        if (c->ranks > 1)
            snprintf(ranks, sizeof ranks, " ranks=%u", c->ranks);
        sweep_shape_text(c, ranks + strlen(ranks), sizeof ranks - strlen(ranks));
        char *run = printable_text(c->run->name);
        char *plugin = printable_text(c->plugin ? c->plugin->desc->name : c->run->plugin);
        fprintf(out, "[%s] %s %s %s n=%s%s: %zu of %zu configurations tried (%s)\n", run, plugin,
                op_name(c->op),
                dtype_name(c->dtype), n, ranks, tried, g->count,
                g->count <= TUNE_EXHAUSTIVE
                    ? "successive halving"
                    : "coordinate descent from the defaults at stage 1, then halving of the "
                      "best points visited");
        free(run);
        free(plugin);
        const rb_candidate **order = xcalloc(tried ? tried : 1, sizeof *order);
        size_t n_order = 0;
        for (size_t j = 0; j < g->count; j++)
            if (g->cands[j].rounds > 0 && j != g->winner)
                order[n_order++] = &g->cands[j];
        qsort(order, n_order, sizeof *order, by_stage_then_time);
        if (g->winner < g->count)
            print_candidate(out, &g->cands[g->winner], 1);
        for (size_t j = 0; j < n_order; j++)
            print_candidate(out, order[j], 0);
        free(order);
        if (g->interrupted)
            fprintf(out, "  no winner: interrupted while it was searched\n");
        else if (tried == 0)
            fprintf(out, "  not searched (interrupted before)\n");
        else if (g->winner == g->count)
            fprintf(out, "  no configuration ran ok\n");
    }
}


void free_groups(rb_tune_group *groups, size_t n_groups)
{
    for (size_t k = 0; k < n_groups; k++)
        free(groups[k].cands);
    free(groups);
}

static int tune_interrupted(void) { return runner_stop_requested || runner_stop_now; }

/* Searches the groups in order until done or interrupted; the group in
 * progress at an interruption keeps no winner. Returns the groups done. */
size_t search_groups(rb_tuner *t, rb_tune_group *groups, size_t n_groups, int quiet)
{
    size_t k = 0;
    for (; k < n_groups && !tune_interrupted(); k++) {
        tune_group(t, &groups[k]);
        if (tune_interrupted()) {
            groups[k].winner = groups[k].count;
            groups[k].interrupted = 1;
            break;
        }
        if (!quiet)
            diag_line("tune: %zu/%zu data sets done", k + 1, n_groups);
    }
    return k;
}
