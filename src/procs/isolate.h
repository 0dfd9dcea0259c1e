/* src/procs/isolate.h: running configurations in child processes. The parent
 * forks a worker for a span of configurations of one plugin; the worker, in
 * a process group of its own, loads the plugin's code, runs them one by one
 * through a callback and streams each finished row (and each device it
 * opened) back over a pipe. The parent enforces the time limit with poll()
 * and turns a worker that crashes, exits or hangs into a `failed` row naming
 * the signal, exit status or timeout and the step it was in; the rest of the
 * span goes to a fresh worker. Whatever a plugin started (processes,
 * threads) ends with its configuration or its worker. The parent never runs
 * plugin code or opens a device itself. */
#ifndef RB_ISOLATE_H
#define RB_ISOLATE_H

#include <signal.h>
#include <stddef.h>
#include <sys/types.h>

#include "results/rows.h"

/* What a worker is doing, recorded where the parent can read it after the
 * worker died. The runner sets it before each step. */
enum rb_step {
    RB_STEP_STARTING = 0,  /* between configurations */
    RB_STEP_OPEN,          /* opening the backend's device */
    RB_STEP_PEAK,          /* measuring the peak bandwidth */
    RB_STEP_INPUT,         /* generating and uploading the input */
    RB_STEP_DESCRIBE,
    RB_STEP_INIT,
    RB_STEP_WARMUP,        /* run, during the warm-up */
    RB_STEP_RUN,
    RB_STEP_VERIFY,
    RB_STEP_TEARDOWN,
    RB_STEP_RECOVER,       /* the backend's recover() */
    RB_STEP_LOAD,          /* loading the plugin's code in the worker */
    RB_STEP_LEFTOVER,      /* after teardown, with threads the plugin left */
    RB_STEP_COUNT_
};

/* "run", "init", "run (warm-up)", "preparing the input", ... */
const char *isolate_step_name(int step);

/* Called in the worker before each step: records it in shared memory, and
 * restarts the parent's clock when the worker goes from preparing (opening
 * the device, measuring its peak, making the input) to the plugin's
 * callbacks or back. Outside a worker it does nothing. */
void isolate_step(int step);

/* In a rank's process (procs/rank_link.c): each step goes to `forward` instead of
 * this process's parent, which is the ranks' leader. */
void isolate_forward_steps(void (*forward)(int step));

/* In a worker that waits on processes of its own (the ranks' leader): they
 * are making progress, so the parent's clock starts again (the leader
 * enforces its own limit on them). Outside a worker it does nothing. */
void isolate_still_working(void);

/* How the parent drives workers over a range of configurations. */
typedef struct rb_isolation {
    rb_results *res;            /* rows are stored in res->rows[index] and
                                   devices in res->info.devices */
    double timeout;             /* seconds the plugin's callbacks of a
                                   configuration may take (describe; then
                                   init to teardown); preparing (the device,
                                   the input) gets as long, at least two
                                   minutes */
    /* In the worker: runs configuration `index`, filling res->rows[index]
     * (and appending to res->info.devices). Returns 1 when this process
     * must not run any more (its device is no longer usable), else 0. */
    int (*run)(void *user, size_t index);
    /* In the parent: fills res->rows[index] as a row that did not finish,
     * with this status and reason. */
    void (*unfinished)(void *user, size_t index, int status, const char *reason);
    /* In the parent: res->rows[index] is final (progress lines). */
    void (*finished)(void *user, size_t index);
    /* In the parent: a worker began configuration `index`; and time has
     * passed while it runs (often: cheap). NULL: nothing (progress lines). */
    void (*running)(void *user, size_t index);
    void (*tick)(void *user);
    void *user;
    /* Set by signal handlers: stop after the configuration in progress; stop
     * at once (the configuration in progress is abandoned). */
    volatile sig_atomic_t *stop;
    volatile sig_atomic_t *stop_now;
    /* In the worker, after its last configuration: ends what it kept up
     * (a rank group). NULL: nothing. */
    void (*worker_end)(void *user);
} rb_isolation;

/* The most processes a worker keeps between configurations. */
#define RB_KEPT_MAX 1024

/* In a worker: the processes it keeps up between configurations (a rank
 * group's ranks and launcher), which the end of a configuration, that ends
 * every other process the worker started, spares; count 0: none. */
void isolate_keep_processes(const pid_t *pids, size_t count);

/* Runs configurations [first, last) in workers, a fresh one after each that
 * dies. The span is one plugin's: res->rows[first].config (set by the
 * caller) says which, and each worker loads that plugin's code when it
 * starts (registry_load_code); when it cannot, every configuration left in
 * the span fails with the reason. Returns the index of the first
 * configuration without a final row: `last`, or less when a stop was
 * requested. */
size_t isolate_run(const rb_isolation *iso, size_t first, size_t last);

#endif
