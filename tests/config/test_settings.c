/* tests/config/test_settings.c: every [experiment] key of config/settings.c's table
 * round-trips: an experiment file that sets it away from its default, read,
 * written as a results file (report/json.c) and read back (results/read.c),
 * then written as the [experiment] section of a tuned experiment (what
 * `redbench tune` writes) and read again, keeps its value. A key the
 * experiments below leave at its default fails the test: a new row needs a
 * value here. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "base/json_reader.h"
#include "base/util.h"
#include "config/experiment.h"
#include "config/settings.h"
#include "report/reporters.h"
#include "results/read.h"
#include "results/rows.h"
#include "tap.h"

/* Two experiments, since some keys exclude each other (graph_calls needs
 * timing = graph, which cannot hold with cache = cold). */
static const char *const experiments[] = {
    "[experiment]\nname = every-key\nwarmup = 7\nmin_time = 0.123456789\nmin_reps = 11\n"
    "max_reps = 77\nnoise = 0.025\ncache = cold\nseed = 9007199254740993\noutput = out.json\n"
    "format = csv\ndevice = 3\ntimeout = 12.5\ntiming = launch\ndeterminism_runs = 5\n"
    "peak = measure\nprobes = off\ndevices = 0, 2, 1\nn_scope = total\nrounds = 4\n"
    "[run a]\nplugin = serial\n",
    "[experiment]\ntiming = graph\ngraph_calls = 250\nrounds = 1000\ndevices = 5\n"
    "energy = on\nenergy_min_time = 0.25\nobjective = edp\n"
    "[run a]\nplugin = serial\n",
};

/* The value of every setting as a file writes it; "" where it has none. */
static char *values(const rb_experiment *exp)
{
    size_t count;
    const rb_setting_spec *table = settings_table(&count);
    strbuf out = {0};
    char text[256];
    for (size_t k = 0; k < count; k++) {
        if (!setting_text(&table[k], exp, text, sizeof text))
            text[0] = '\0';
        sb_printf(&out, "%s=%s\n", table[k].name, text);
    }
    return out.data;
}

static char *value_of(const rb_experiment *exp, const rb_setting_spec *s)
{
    char text[256];
    if (!setting_text(s, exp, text, sizeof text))
        text[0] = '\0';
    return xstrdup(text);
}

/* The [experiment] section a tuned experiment opens with, and a run. */
static char *tuned_text(const rb_experiment *exp)
{
    char *text = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&text, &len);
    rb_ini_writer w;
    ini_writer_init(&w, mem);
    settings_write(&w, exp, NULL, 1);
    fputs("[run a]\nplugin = serial\n", mem);
    fclose(mem);
    return text;
}

/* exp as a results file, read back; NULL on failure. */
static rb_results_file *through_results(const rb_experiment *exp)
{
    rb_results res = {0};
    res.info.experiment = exp;
    res.info.rounds = experiment_rounds(exp, 1);
    char *text = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&text, &len);
    report_json(mem, &res);
    fclose(mem);
    json_error err;
    json_value *doc = json_parse(text, len, &err);
    rb_results_file *file = xcalloc(1, sizeof *file);
    int rc = doc ? results_from_doc("r.json", doc, file) : -1;
    json_free(doc);
    free(text);
    if (rc != 0) {
        results_file_free(file);
        free(file);
        return NULL;
    }
    return file;
}

int main(void)
{
    size_t count;
    const rb_setting_spec *table = settings_table(&count);
    plan((int)(count * 2 + 7));

    rb_experiment loaded[2], tuned[2], defaults;
    experiment_defaults(&defaults, "d.ini");
    for (int e = 0; e < 2; e++) {
        is_int(experiment_load_text("t.ini", experiments[e], &loaded[e]), 0,
               "experiment %d loads", e + 1);
        char *text = tuned_text(&loaded[e]);
        is_int(experiment_load_text("tuned.ini", text, &tuned[e]), 0,
               "its tuned experiment %d loads", e + 1);
        free(text);
        char *want = values(&loaded[e]), *got = values(&tuned[e]);
        is_str(got, want, "experiment %d: the tuned file keeps every setting", e + 1);
        free(want);
        free(got);
    }

    /* Every key is set away from its default by one of the experiments, and
     * is the same after a results file and a tuned file. */
    rb_results_file *back[2] = {through_results(&loaded[0]), through_results(&loaded[1])};
    ok(back[0] && back[1], "both read back from their results file");
    for (size_t k = 0; k < count; k++) {
        const rb_setting_spec *s = &table[k];
        char *initial = value_of(&defaults, s);
        int e = 0;
        char *set = value_of(&loaded[0], s);
        if (strcmp(set, initial) == 0) {
            free(set);
            e = 1;
            set = value_of(&loaded[1], s);
        }
        ok(strcmp(set, initial) != 0 || s->kind == RB_SETTING_FLAG,
           "%s is set away from its default (%s) by experiment %d", s->name, set, e + 1);
        if (s->results == RB_RESULTS_NONE || !back[e]) {
            skip("not in a results file");
        } else if (s->results == RB_RESULTS_RUN) {
            is_int(back[e]->res.info.rounds, (int)setting_whole(s, &loaded[e]),
                   "%s: the results carry it", s->name);
        } else {
            char *text = tuned_text(back[e]->experiment);
            rb_experiment again;
            int errors = experiment_load_text("tuned.ini", text, &again);
            char *got = value_of(&again, s);
            ok(errors == 0 && strcmp(got, set) == 0,
               "%s: experiment -> results -> tuned experiment keeps %s (got %s)", s->name, set,
               got);
            free(got);
            free(text);
            experiment_free(&again);
        }
        free(set);
        free(initial);
    }
    for (int e = 0; e < 2; e++) {
        if (back[e]) {
            results_file_free(back[e]);
            free(back[e]);
        }
        experiment_free(&loaded[e]);
        experiment_free(&tuned[e]);
    }
    experiment_free(&defaults);
    return done();
}
