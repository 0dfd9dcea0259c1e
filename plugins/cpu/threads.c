/* plugins/cpu/threads.c: every core. The input is cut into one contiguous
 * chunk per thread; each thread runs the unrolled loop over its chunk and
 * the partials are combined in chunk order, so the result depends only on
 * the data and the parameters. The threads are started once, by init, and
 * wait between runs; run wakes them and works on the first chunk itself;
 * teardown stops and joins them. Shapes and argmax: each thread takes a
 * contiguous range of the answers (rows, or columns) instead of a chunk of
 * the elements (cpu_shaped.h). */
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

#include "cpu_shaped.h"

#define THREADS_MAX 1024
/* Chunks start at multiples of 64 elements: a whole number of lanes and of
 * 64-byte cache lines for every dtype. */
#define THREADS_CHUNK_ALIGN 64

static const rb_param_spec threads_params[] = {
    {"threads", RB_PARAM_INT, "auto", 0, THREADS_MAX, NULL, RB_PARAM_AUTO,
     "threads, the calling one included; auto (or 0) = the online CPUs"},
    CPU_PARAM_LANES,
    CPU_PARAM_ACC,
};

typedef struct threads_state threads_state;

typedef struct threads_worker {
    threads_state *pool;
    unsigned index;       /* the chunk it reduces, 1.. */
    pthread_t thread;
} threads_worker;

struct threads_state {
    cpu_job job;
    cpu_shaped sh;              /* shapes and argmax: by answers */
    int by_answers;
    uint64_t per_thread;        /* by answers: answers per thread */
    unsigned n_threads;         /* the calling thread included */
    uint64_t chunk;             /* elements per chunk */
    cpu_partial *partials;      /* one per chunk */
    uint64_t *tables;           /* histogram scratch: lanes * 256 per thread */
    threads_worker *workers;    /* the n_threads - 1 besides the caller */
    unsigned n_started;

    pthread_mutex_t lock;
    pthread_cond_t wake;        /* a new run, or quit */
    pthread_cond_t done;        /* the last busy worker finished */
    uint64_t generation;        /* counts runs */
    unsigned busy;              /* workers still on this run */
    int quit;

    cpu_partial result;         /* of the last run */
};

/* The threads a configuration asks for (0 = auto: the online CPUs), at
 * most THREADS_MAX. */
static uint64_t threads_wanted(const rb_config *cfg)
{
    int64_t asked = rb_param_int(cfg, "threads", 0);
    long online = sysconf(_SC_NPROCESSORS_ONLN);
    uint64_t wanted = asked > 0 ? (uint64_t)asked : online > 0 ? (uint64_t)online : 1;
    return wanted > THREADS_MAX ? THREADS_MAX : wanted;
}

/* Cuts n elements into chunks for the threads a configuration asks for; no
 * more chunks than the data fills. Returns the number of chunks, one per
 * thread, and their size in *chunk. */
static unsigned threads_split(const rb_config *cfg, uint64_t *chunk)
{
    uint64_t wanted = threads_wanted(cfg);
    uint64_t per_thread = (cfg->n + wanted - 1) / wanted;
    *chunk = (per_thread + THREADS_CHUNK_ALIGN - 1) / THREADS_CHUNK_ALIGN * THREADS_CHUNK_ALIGN;
    return (unsigned)((cfg->n + *chunk - 1) / *chunk);
}

/* By answers: no more threads than answers, a contiguous range each. */
static unsigned threads_split_answers(const rb_config *cfg, const cpu_shaped *sh,
                                      uint64_t *per_thread)
{
    uint64_t wanted = threads_wanted(cfg);
    if (wanted > sh->n_answers)
        wanted = sh->n_answers;
    if (wanted < 1)
        wanted = 1;
    *per_thread = (sh->n_answers + wanted - 1) / wanted;
    return (unsigned)((sh->n_answers + *per_thread - 1) / *per_thread);
}

static int threads_describe(const rb_config *cfg, rb_description *out)
{
    cpu_shaped sh;
    int rc = cpu_shaped_setup(cfg, &sh);
    uint64_t chunk;
    if (rc == RB_OK && out)
        snprintf(out->label, sizeof out->label, "threads=%u",
                 cpu_shaped_by_answers(&sh) ? threads_split_answers(cfg, &sh, &chunk)
                                            : threads_split(cfg, &chunk));
    return rc;
}

static void threads_reduce_chunk(threads_state *st, unsigned index)
{
    if (st->by_answers) {
        uint64_t first = (uint64_t)index * st->per_thread, n = st->sh.n_answers;
        uint64_t last = first + st->per_thread < n ? first + st->per_thread : n;
        if (first < last)
            cpu_shaped_answers(&st->sh, first, last);
        return;
    }
    uint64_t begin = (uint64_t)index * st->chunk;
    uint64_t end = begin + st->chunk < st->job.n ? begin + st->chunk : st->job.n;
    if (begin < end)
        cpu_reduce(&st->job, begin, end, &st->partials[index],
                   st->tables + (size_t)index * st->job.lanes * 256);
}

static void *threads_worker_main(void *arg)
{
    threads_worker *w = arg;
    threads_state *st = w->pool;
    uint64_t seen = 0;

    pthread_mutex_lock(&st->lock);
    for (;;) {
        while (!st->quit && st->generation == seen)
            pthread_cond_wait(&st->wake, &st->lock);
        if (st->quit)
            break;
        seen = st->generation;
        pthread_mutex_unlock(&st->lock);
        threads_reduce_chunk(st, w->index);
        pthread_mutex_lock(&st->lock);
        if (--st->busy == 0)
            pthread_cond_signal(&st->done);
    }
    pthread_mutex_unlock(&st->lock);
    return NULL;
}

/* Stops and joins the started workers, then frees everything. */
static void threads_teardown(void *state)
{
    threads_state *st = state;
    unsigned k;
    if (!st)
        return;
    pthread_mutex_lock(&st->lock);
    st->quit = 1;
    pthread_cond_broadcast(&st->wake);
    pthread_mutex_unlock(&st->lock);
    for (k = 0; k < st->n_started; k++)
        pthread_join(st->workers[k].thread, NULL);
    pthread_cond_destroy(&st->done);
    pthread_cond_destroy(&st->wake);
    pthread_mutex_destroy(&st->lock);
    free(st->workers);
    cpu_shaped_free(&st->sh);
    free(st->tables);
    free(st->partials);
    free(st);
}

static int threads_init(const rb_config *cfg, void **state)
{
    const rb_host *host = cfg->host;
    threads_state *st;
    unsigned k;
    int rc;

    st = rb_state_alloc(cfg, sizeof *st);
    if (!st)
        return RB_ERROR;
    rc = cpu_shaped_setup(cfg, &st->sh);
    if (rc != RB_OK) {
        free(st);
        return rc;
    }
    st->job = st->sh.job;
    st->by_answers = cpu_shaped_by_answers(&st->sh);
    st->n_threads = st->by_answers ? threads_split_answers(cfg, &st->sh, &st->per_thread)
                                   : threads_split(cfg, &st->chunk);

    pthread_mutex_init(&st->lock, NULL);
    pthread_cond_init(&st->wake, NULL);
    pthread_cond_init(&st->done, NULL);
    st->partials = calloc(st->n_threads, sizeof *st->partials);
    st->workers = calloc(st->n_threads, sizeof *st->workers);
    if (st->job.op == RB_OP_HISTOGRAM)
        st->tables = malloc((size_t)st->n_threads * st->job.lanes * 256 * sizeof *st->tables);
    if (!st->partials || !st->workers || (st->job.op == RB_OP_HISTOGRAM && !st->tables)) {
        host->error(host, "out of memory for %u threads", st->n_threads);
        threads_teardown(st);
        return RB_ERROR;
    }
    if (st->by_answers && (rc = cpu_shaped_allocate(cfg, &st->sh)) != RB_OK) {
        threads_teardown(st);
        return rc;
    }
    for (k = 1; k < st->n_threads; k++) {
        threads_worker *w = &st->workers[st->n_started];
        w->pool = st;
        w->index = k;
        rc = pthread_create(&w->thread, NULL, threads_worker_main, w);
        if (rc != 0) {
            host->error(host, "cannot start thread %u of %u: %s", k + 1, st->n_threads,
                        strerror(rc));
            threads_teardown(st);
            return RB_ERROR;
        }
        st->n_started++;
    }
    *state = st;
    return RB_OK;
}

static int threads_run(void *state)
{
    threads_state *st = state;
    unsigned k;

    if (st->n_threads > 1) {
        pthread_mutex_lock(&st->lock);
        st->generation++;
        st->busy = st->n_threads - 1;
        pthread_cond_broadcast(&st->wake);
        pthread_mutex_unlock(&st->lock);
    }
    threads_reduce_chunk(st, 0);
    if (st->n_threads > 1) {
        pthread_mutex_lock(&st->lock);
        while (st->busy > 0)
            pthread_cond_wait(&st->done, &st->lock);
        pthread_mutex_unlock(&st->lock);
    }
    if (st->by_answers)
        return RB_OK;
    st->result = st->partials[0];
    for (k = 1; k < st->n_threads; k++)
        cpu_combine(&st->job, &st->result, &st->partials[k]);
    return RB_OK;
}

static int threads_verify(void *state, rb_result *result)
{
    threads_state *st = state;
    if (st->by_answers)
        return cpu_shaped_store(&st->sh, result);
    return cpu_store(&st->job, &st->result, result);
}

static const rb_plugin threads_plugin = {
    CPU_SHAPED_DESCRIPTOR_FIELDS,
    .name = "threads",
    .summary = "the unrolled loop on every core, one contiguous chunk per thread",
    RB_PLUGIN_PARAMS(threads_params),
    .describe = threads_describe,
    .init = threads_init,
    .run = threads_run,
    .verify = threads_verify,
    .teardown = threads_teardown,
};

RB_PLUGIN_ENTRY(threads_plugin)
