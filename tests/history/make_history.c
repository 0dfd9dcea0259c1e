/* tests/history/make_history.c: a synthetic history for the tests, made
 * fast: each run's results document is written as a run's JSON would
 * hold it (a few fields per row), read back as any results file is
 * (results/read.h), and appended by history_append, with the database's
 * syncs off (a test's scratch file).
 *
 *   make-history DB RUNS ROWS [KEY=VALUE]...
 *     noise=PCT        each run's medians off by a normal draw of PCT%
 *                      (default 1), the same draw for the whole run
 *                      and an own draw of PCT/4 per row
 *     step=RUN:FACTOR  runs from RUN on (1-based) take FACTOR times as long
 *     outlier=RUN:FACTOR  run RUN alone takes FACTOR times as long
 *     energy=J         each row measured its energy too, about J joules a
 *                      call (its own draw of the noise), from a counter
 *     energy_step=RUN:FACTOR  runs from RUN on take FACTOR times the energy
 *                      (their time unchanged)
 *     seed=N           of the draws (default 1)
 *     first=RUN        the first run's number (default 1): histories made
 *                      in parts continue their dates and revisions
 * Run k starts at 2026-01-01 plus k hours, at revision rev-k. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/json_reader.h"
#include "base/util.h"
#include "history/append.h"
#include "history/database.h"
#include "results/read.h"

static uint64_t state = 1;

static double uniform01(void)
{
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return ((state >> 11) + 0.5) / 9007199254740992.0;
}

static double normal(void)
{
    return sqrt(-2 * log(uniform01())) * cos(2 * M_PI * uniform01());
}

typedef struct plan {
    int runs, rows, first;
    double noise;
    int step_run, outlier_run;
    double step_factor, outlier_factor;
    double energy;
    int energy_step_run;
    double energy_step_factor;
} plan;

static int pair(const char *text, int *run, double *factor)
{
    return sscanf(text, "%d:%lf", run, factor) == 2 ? 0 : -1;
}

static char *document(const plan *p, int run)
{
    strbuf sb = {0};
    int hours = run - 1;
    sb_printf(&sb, "{\"tool\": \"redbench\", \"version\": \"0.1.0\", \"git_revision\": "
                   "\"rev-%d\", \"started\": \"2026-%02d-%02dT%02d:00:00Z\", \"host\": "
                   "{\"name\": \"gen\"},\n \"experiment\": {\"name\": \"synthetic\"},\n"
                   " \"devices\": [{\"backend\": \"cpu\", \"device\": 0, \"name\": \"Test CPU\", "
                   "\"peak_gbs\": 100}],\n \"results\": [\n",
              run, 1 + hours / (24 * 28), 1 + hours / 24 % 28, hours % 24);
    double shared = 1 + p->noise * normal();
    double factor = (p->step_run && run >= p->step_run ? p->step_factor : 1) *
                    (run == p->outlier_run ? p->outlier_factor : 1);
    double energy_factor = p->energy_step_run && run >= p->energy_step_run
                               ? p->energy_step_factor
                               : 1;
    for (int k = 0; k < p->rows; k++) {
        unsigned block = 32u << (k % 6), n = 1024u << (k / 6);
        double t = (n / 100.0 + block / 8.0) * factor * shared * (1 + p->noise / 4 * normal());
        char energy[96] = "";
        if (p->energy > 0)
            snprintf(energy, sizeof energy, ",\"energy_source\":\"counter\",\"energy_j\":%.6g",
                     p->energy * (1 + k % 4) * energy_factor * (1 + p->noise * normal()));
        sb_printf(&sb, "  {\"run\":\"r%d\",\"plugin\":\"p%d\",\"params\":{\"block\":%u},"
                       "\"op\":\"sum\",\"dtype\":\"f32\",\"n\":%u,\"distribution\":\"uniform\","
                       "\"status\":\"ok\",\"reason\":\"\",\"device\":0,\"timing\":\"launch\","
                       "\"median_ns\":%.6g,\"noise\":0.01,\"bandwidth_gbs\":%.6g,"
                       "\"samples_ns\":[%.6g,%.6g,%.6g,%.6g,%.6g]%s}%s\n",
                  k % 4, k % 4, block, n, t, 4.0 * n / t, t, t * 1.01, t * 0.99, t * 1.002,
                  t * 0.998, energy, k + 1 < p->rows ? "," : "");
    }
    sb_append(&sb, "]}\n");
    return sb.data;
}

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: make-history DB RUNS ROWS [noise=PCT] [step=RUN:FACTOR] "
                        "[outlier=RUN:FACTOR] [energy=J] [energy_step=RUN:FACTOR] [seed=N] "
                        "[first=RUN]\n");
        return 2;
    }
    plan p = {atoi(argv[2]), atoi(argv[3]), 1, 0.01, 0, 0, 1, 1, 0, 0, 1};
    for (int k = 4; k < argc; k++) {
        const char *a = argv[k];
        if (strncmp(a, "noise=", 6) == 0)
            p.noise = atof(a + 6) / 100;
        else if (strncmp(a, "step=", 5) == 0 && pair(a + 5, &p.step_run, &p.step_factor) == 0)
            ;
        else if (strncmp(a, "outlier=", 8) == 0 &&
                 pair(a + 8, &p.outlier_run, &p.outlier_factor) == 0)
            ;
        else if (strncmp(a, "energy=", 7) == 0)
            p.energy = atof(a + 7);
        else if (strncmp(a, "energy_step=", 12) == 0 &&
                 pair(a + 12, &p.energy_step_run, &p.energy_step_factor) == 0)
            ;
        else if (strncmp(a, "seed=", 5) == 0)
            state = strtoull(a + 5, NULL, 10) * 2654435761ULL + 1;
        else if (strncmp(a, "first=", 6) == 0)
            p.first = atoi(a + 6);
        else {
            fprintf(stderr, "make-history: unknown argument %s\n", a);
            return 2;
        }
    }
    rb_history h;
    if (history_open(&h, argv[1], RB_HISTORY_WRITE) != 0)
        return 1;
    sqlite3_exec(h.db, "PRAGMA synchronous = OFF", NULL, NULL, NULL);
    int status = 0;
    for (int run = p.first; run < p.first + p.runs && status == 0; run++) {
        char *text = document(&p, run);
        json_error err;
        json_value *doc = json_parse(text, strlen(text), &err);
        rb_results_file file;
        long long id;
        if (!doc || results_from_doc("generated", doc, &file) != 0) {
            fprintf(stderr, "make-history: run %d: %s\n", run, doc ? "not results" : err.message);
            status = 1;
        } else {
            status = history_append(&h, text, strlen(text), &file.res, NULL, &id) == 0 ? 0 : 1;
            results_file_free(&file);
        }
        json_free(doc);
        free(text);
    }
    history_close(&h);
    return status;
}
