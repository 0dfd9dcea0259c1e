/* src/run/rank_serve.c: a rank's own run. A rank process, forked by its
 * leader, started by mpirun (REDBENCH_RANK_OF) or by one of a launcher's
 * other processes (run/rank_hub.h), runs its slice of one configuration
 * through the runner's steps (a rank_run_fn), sends the devices it opened
 * and its row to its leader, and then runs the next configuration the
 * leader names, as long as its group stays up: its device, its data sets
 * and what the plugin's group_open made (the communicator) stay with it.
 * The leader's side is run/ranks.c. */
#include "run/rank_serve.h"
#include "base/diag.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/util.h"
#include "run/plugin_gate.h"
#include "run/rank_hub.h"
#include "run/rank_link.h"
#include "run/row_wire.h"

/* Runs configuration `cfg` as this rank, and sends the devices it opened
 * that this link has not sent (*devices_sent of them were) and its row. */
static void serve_one(runner *r, const rb_configuration *cfg, int fd, rank_run_fn run,
                      size_t *devices_sent)
{
    uint32_t rank = r->rank, ranks = r->n_ranks;
    rb_configuration mine = *cfg;
    mine.n = ranks_count(r->exp, cfg->n, rank, ranks, &r->rank_offset);
    r->n_total = 0;
    for (uint32_t k = 0; k < ranks; k++) {
        uint64_t offset;
        r->n_total += ranks_count(r->exp, cfg->n, k, ranks, &offset);
    }
    rb_row row;
    memset(&row, 0, sizeof row);
    run(r, &mine, &row);
    rb_run_info *info = &r->res->info;
    for (size_t k = *devices_sent; k < info->n_devices; k++)
        rank_send(fd, RM_DEVICE, rank, &info->devices[k], sizeof info->devices[k], NULL, 0);
    *devices_sent = info->n_devices;
    row.config = NULL;
    row_words words;
    memset(&words, 0, sizeof words);
    snprintf(words.timing, sizeof words.timing, "%s", row.timing ? row.timing : "");
    snprintf(words.stopped_by, sizeof words.stopped_by, "%s",
             row.stopped_by ? row.stopped_by : "");
    size_t length;
    char *packed = row_wire_pack(&row, &length);
    rank_send(fd, RM_ROW, rank, &words, sizeof words, packed, length);
    free(packed);
    row_release(&row);
    fflush(stdout);
    fflush(stderr);
}

/* After a row: the group's next configuration (NEXT), or NULL when the
 * group ends (END, or the leader is gone). *in_order: it was END. */
static const rb_configuration *next_config(runner *r, int fd, int *in_order)
{
    rank_header h;
    uint64_t index;
    *in_order = 0;
    if (read_full(fd, &h, sizeof h) != 0)
        return NULL;
    if (h.type == RM_END && h.length == 0) {
        *in_order = 1;
        return NULL;
    }
    if (h.type != RM_NEXT || h.length != sizeof index || read_full(fd, &index, sizeof index) != 0 ||
        index >= r->sweep->n_configs)
        return NULL;
    return &r->sweep->configs[index];
}

/* Runs configuration `cfg` as rank `rank` of `ranks` over socket `fd`,
 * sends the row, and then the next configurations the leader names, in
 * the same process (a group that stays up), until the group ends (with
 * the plugin's group_close when it ends in order). `devices_sent`: the
 * device records the leader has. */
static void serve_group(runner *r, const rb_configuration *cfg, uint32_t rank, uint32_t ranks,
                        int fd, rank_run_fn run, size_t devices_sent)
{
    rank_link_open(fd, rank);
    r->rank = rank;
    r->n_ranks = ranks;
    int in_order = 0;
    while (cfg) {
        serve_one(r, cfg, fd, run, &devices_sent);
        cfg = next_config(r, fd, &in_order);
    }
    if (in_order && r->group_plugin && r->group_plugin->group_close) {
        gate_group_close(r->group_plugin, r->group_state);
    }
    r->group_plugin = NULL;
    r->group_state = NULL;
    fflush(stdout);
    fflush(stderr);
}

/* serve_group, then ends the process. */
void rank_main(runner *r, const rb_configuration *cfg, uint32_t rank, uint32_t ranks, int fd,
               int whole_program, rank_run_fn run)
{
    serve_group(r, cfg, rank, ranks, fd, run, r->res->info.n_devices);
    if (whole_program)
        exit(0); /* an MPI plugin finalizes MPI at exit */
    _exit(0);
}

/* What group_open is handed, for the life of the group. */
static rb_host_state group_host;

int ranks_open_group(runner *r, const rb_plugin *p, void *queue, rb_row *row)
{
    if (r->n_ranks <= 1 || !p->group_open || r->group_plugin == p)
        return 0;
    host_init(&group_host, p->name, r->opt->verbosity);
    rb_group g = {.size = sizeof g, .rank = r->rank, .n_ranks = r->n_ranks,
                  .device = r->rank_device, .queue = queue, .host = &group_host.table};
    void *state = NULL;
    int st = gate_group_open(p, &g, &state);
    if (st != RB_OK) {
        runner_set_reason(row, RB_ROW_FAILED, "the rank group's set-up (group_open) failed: %s",
                          gate_reason(&group_host, "no reason given"));
        return -1;
    }
    r->group_state = state;
    r->group_plugin = p;
    return 0;
}

/* A socket to the leader at `leader` ("unix:PATH" or "tcp:HOST:PORT") on
 * which rank `rank` said HELLO, or -1 (said on standard error). */
static int reach_leader(const char *leader, uint32_t rank)
{
    int fd = hub_connect(leader);
    if (fd < 0 || rank_send(fd, RM_HELLO, rank, (int32_t[2]){(int32_t)rank, (int32_t)getpid()},
                               2 * sizeof(int32_t), NULL, 0) != 0) {
        diag_error("rank %u cannot reach its leader at %s", rank, leader);
        if (fd >= 0)
            close(fd);
        return -1;
    }
    return fd;
}

/* A rank's runner of its own (and its results, for the devices it opens). */
static void rank_runner(runner *r, rb_results *res, const rb_experiment *exp,
                        const rb_registry *reg, const rb_sweep *sweep,
                        const rb_runner_options *opt)
{
    memset(r, 0, sizeof *r);
    r->exp = exp;
    r->reg = reg;
    r->sweep = sweep;
    r->opt = opt;
    r->res = res;
    res->info.experiment = exp;
}

/* Loads configuration `cfg`'s plugin code; 0, or -1 (said on standard
 * error). */
static int load_rank_plugin(const rb_configuration *cfg, uint32_t rank)
{
    char why[512] = "";
    if (!cfg->plugin || registry_load_code(cfg->plugin, why, sizeof why) != 0) {
        diag_error("rank %u cannot load its plugin: %s", rank,
                cfg->plugin ? why : "not found");
        return -1;
    }
    return 0;
}

/* Serves configuration `cfg` as rank `rank` to the leader at `leader`
 * ("unix:PATH" or "tcp:HOST:PORT"), in this process; ends it. */
static void serve_rank(const rb_experiment *exp, const rb_registry *reg, const rb_sweep *sweep,
                       const rb_runner_options *opt, const rb_configuration *cfg, uint32_t rank,
                       const char *leader, int whole_program, rank_run_fn run)
{
    int fd = reach_leader(leader, rank);
    if (fd < 0)
        _exit(2);
    static runner r;
    static rb_results res;
    rank_runner(&r, &res, exp, reg, sweep, opt);
    if (load_rank_plugin(cfg, rank) != 0)
        _exit(2);
    rank_main(&r, cfg, rank, cfg->ranks ? cfg->ranks : 1, fd, whole_program, run);
}

void ranks_serve_if_asked(const rb_experiment *exp, const rb_registry *reg,
                          const rb_sweep *sweep, const rb_runner_options *opt, rank_run_fn run)
{
    const char *sock_path = getenv("REDBENCH_RANK_OF");
    if (!sock_path || !*sock_path)
        return;
    uint32_t rank;
    const char *first = getenv("REDBENCH_RANK_CONFIG");
    char *end = NULL;
    unsigned long long index = first ? strtoull(first, &end, 10) : 0;
    if (!hub_launcher_rank(&rank) || !first || end == first || *end || index >= sweep->n_configs) {
        diag_error("REDBENCH_RANK_OF is set, but this process is not a "
                "rank that mpirun started for a configuration of its experiment file");
        _exit(2);
    }
    char leader[PATH_MAX + 8];
    snprintf(leader, sizeof leader, "unix:%s", sock_path);
    serve_rank(exp, reg, sweep, opt, &sweep->configs[index], rank, leader, 1, run);
}

/* What the launcher's other processes serve with (run/rank_hub.h). */
typedef struct hub_context {
    const rb_experiment *exp;
    const rb_registry *reg;
    const rb_sweep *sweep;
    const rb_runner_options *opt;
    rank_run_fn run;
} hub_context;

static void hub_serve(void *user, size_t config, const char *leader, uint32_t rank)
{
    const hub_context *h = user;
    if (config >= h->sweep->n_configs)
        _exit(2);
    serve_rank(h->exp, h->reg, h->sweep, h->opt, &h->sweep->configs[config], rank, leader, 0,
               h->run);
}

/* The MPI rank process of a launcher's process k (run/rank_hub.h): one
 * process for the whole run, so that MPI is initialised once, as the
 * launcher's rank k (the mpi pack's plugins initialise it at their first
 * init, and finalize it at exit). It serves each group of an MPI plugin it
 * is asked for, as rank k, loading each plugin's code the first time, and
 * ends with exit when the run is over. */
static void hub_serve_mpi(void *user, int requests, uint32_t rank)
{
    const hub_context *h = user;
    static runner r;
    static rb_results res;
    rank_runner(&r, &res, h->exp, h->reg, h->sweep, h->opt);
    if (h->opt->verbosity > 1)
        diag_say("rank %u: MPI ranks run in process %d, under the launcher's "
                "process %u, for the whole run", rank, (int)getpid(), rank);
    size_t config;
    char leader[PATH_MAX + 8];
    while (hub_mpi_request(requests, &config, leader, sizeof leader) == 0) {
        if (config >= h->sweep->n_configs)
            continue;
        const rb_configuration *cfg = &h->sweep->configs[config];
        int fd = reach_leader(leader, rank);
        if (fd < 0)
            continue; /* the leader fails the row when the rank does not come */
        if (load_rank_plugin(cfg, rank) == 0)
            serve_group(&r, cfg, rank, cfg->ranks ? cfg->ranks : 1, fd, h->run, 0);
        close(fd);
        runner_drop_data(&r);
    }
    fflush(NULL);
    exit(0); /* the mpi pack finalizes MPI at exit */
}

void ranks_start_hub(const rb_experiment *exp, const rb_registry *reg, const rb_sweep *sweep,
                     const rb_runner_options *opt, rank_run_fn run)
{
    static hub_context h;
    h = (hub_context){exp, reg, sweep, opt, run};
    hub_start(hub_serve, hub_serve_mpi, &h);
}

void ranks_stop_hub(void)
{
    hub_stop();
}
