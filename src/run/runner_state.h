/* src/run/runner_state.h: what the files of the runner share: the run in
 * progress (its experiment, sweep and rows), the parts that each file owns
 * and declares beside itself (the backends opened, run/devices.h; the data
 * set in use, run/dataset.h; the rank's place and slice, run/rank_slice.h;
 * the group's state, run/group_state.h; the vector answers,
 * run/vector_answer.h; the shape, run/shape.h), and the
 * steps each file provides to run/runner.c, which runs the sweep:
 *   run/on_device.c one configuration on this process's device
 *   run/devices.c   the backends and devices opened, their measured peaks
 *   run/dataset.c   the data set: input, reference and its device copy
 *   run/timing.c    the timing plan, warm-up and timed repetitions
 *   run/judge.c     verify and the verdict, determinism, the probes
 *   run/energy_row.c  the row's energy, power and clocks over its calls */
#ifndef RB_RUNNER_STATE_H
#define RB_RUNNER_STATE_H

#include <stddef.h>
#include <stdint.h>

#include <redbench/backend.h>
#include <redbench/plugin.h>

#include "base/names.h"
#include "config/experiment.h"
#include "config/sweep.h"
#include "host/registry.h"
#include "host/services.h"
#include "procs/rank_service.h"
#include "results/rows.h"
#include "run/dataset.h"
#include "run/devices.h"
#include "run/group_state.h"
#include "run/input.h"
#include "run/rank_slice.h"
#include "run/reference.h"
#include "run/runner.h"
#include "run/shape.h"
#include "run/vector_answer.h"


typedef struct runner runner;

struct runner {
    const rb_experiment *exp;
    const rb_registry *reg;
    const rb_sweep *sweep;
    const rb_runner_options *opt;
    rb_results *res;
    device_set devices;    /* the backends this process opened (run/devices.c) */
    data_set data;         /* the data set in use (run/dataset.c) */
    double config_started; /* when the configuration's input was ready */
    /* In a rank's process (procs/rank_serve.c): its rank of how many
     * (0 and 0 or 1 elsewhere), and its slice of the data. */
    rank_place place;
    rank_slice slice;
    rank_service serve; /* procs/'s table of this runner (run/rank_entry.c) */
    group_state group; /* in a rank of a group that stays up (procs/rank_serve.c) */
    vector_state vec;      /* the vector answers (run/vector_answer.c) */
    shape_state shape;
    /* the round in progress: res is its results, whose row k is sweep
     * configuration order[k] */
    const size_t *order;
    int round, rounds;
};

/* ---- run/runner_state.c ---- */

/* Seconds on the monotonic clock. */
double runner_now(void);
/* Why a step failed: the plugin's text, else the backend's (a failed
 * synchronization or timer), else that none was given. */
const char *runner_failure_text(const rb_host_state *plugin, const open_backend *ob);

/* ---- run/on_device.c ---- */

/* Settles the rows that need no plugin code and no device: an absent plugin
 * or backend, an op or dtype the plugin does not declare. Returns 1 when the
 * row is final. The same for every configuration of a data group. */
int runner_settle(runner *r, const rb_configuration *cfg, rb_row *row);
/* Runs one configuration on this process's device: as the only rank, or
 * as rank r->place.rank of several (run/rank_entry.c), agreeing with the
 * others after each step that can fail on one rank alone. */
void runner_run_on_device(runner *r, const rb_configuration *cfg, rb_row *row);


/* ---- run/energy_row.c ---- */

/* The meter of the backend's device with `energy = on`, else NULL. */
struct rb_energy_meter *runner_energy_meter(runner *r, open_backend *ob);
/* After the timed repetitions (reading *timed, with the batch still
 * prepared under graph timing): the row's energy fields, measured again
 * over a longer batch where the timed ones are too short for the counter.
 * batch_calls: the calls of the prepared graph batch, else 0; rep_calls:
 * the calls each timed repetition made (the batch's, an eager batch's, or
 * 1). RB_OK, or RB_ERROR when a call of that batch failed. */
struct rb_energy_reading;
int runner_energy_finish(runner *r, const rb_plugin *p, void *state, open_backend *ob,
                         rb_row *row, struct rb_energy_reading *timed, uint32_t batch_calls,
                         uint32_t rep_calls);


/* ---- run/timing.c ---- */

/* The timing mode the experiment asks for. */
int runner_wanted_timing(const rb_experiment *exp);
/* Whether backend b can time in the mode asked for (graph: replay batches;
 * eager: time calls in launch mode); if not, says why in the row. */
int runner_timing_offered(const rb_backend *b, int want, rb_row *row);
/* The warm-up and the timed repetitions of an initialised configuration,
 * with the clocks sampled around them. Returns RB_OK, or another status
 * with the row's reason set. */
int runner_time_config(runner *r, const rb_plugin *p, void *state, open_backend *ob,
                       rb_host_state *host, rb_row *row);

/* ---- run/judge.c ---- */

/* Verifies the last run and judges it; the result is kept for the
 * determinism check (its bins in *bins, for the caller to free). */
int runner_verify_and_judge(runner *r, const rb_configuration *cfg, const rb_plugin *p,
                            void *state, rb_host_state *host, rb_row *row, rb_result *result,
                            uint64_t **bins);
/* Repeated runs compared bit for bit with the first result. */
void runner_check_determinism(runner *r, const rb_configuration *cfg, const rb_plugin *p,
                              void *state, open_backend *ob, rb_host_state *host,
                              const rb_result *first, rb_row *row);
/* Whether probes run: unless the experiment turns them off or --profile. */
int runner_probes_wanted(const rb_experiment *exp);

/* The configuration judged again on the probe inputs of run/probe.h. */
void runner_run_probes(runner *r, const rb_configuration *cfg, const rb_plugin *p, void **state,
                       int *inited, open_backend *ob, rb_host_state *host, const rb_config *c,
                       const rb_result *first, rb_row *row);

#endif
