/* src/procs/rank_serve.c: a rank's own run. A rank process, forked by its
 * leader, started by mpirun (REDBENCH_RANK_OF) or by one of a launcher's
 * other processes (procs/rank_hub.h), runs its slice of one configuration
 * through the runner's table (procs/rank_service.h), sends the devices it
 * opened and its row to its leader, and then runs the next configuration the
 * leader names, as long as its group stays up: its device, its data sets
 * and what the plugin's group_open made (the communicator) stay with it.
 * The leader's side is procs/ranks.c. */
#include "procs/rank_serve.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/diag.h"
#include "base/util.h"
#include "host/registry.h"
#include "procs/rank_hub.h"
#include "procs/rank_link.h"
#include "procs/role.h"
#include "procs/row_wire.h"

/* Runs configuration `cfg` as this rank, and sends the devices it opened
 * that this link has not sent (*devices_sent of them were) and its row. */
static void serve_one(const rank_service *s, const rank_place *at, const rb_configuration *cfg,
                      int fd, size_t *devices_sent)
{
    rb_row row;
    memset(&row, 0, sizeof row);
    s->run(s->user, at, cfg, &row);
    const rb_run_info *info = s->devices(s->user);
    for (size_t k = *devices_sent; k < info->n_devices; k++)
        rank_send(fd, RM_DEVICE, at->rank, &info->devices[k], sizeof info->devices[k], NULL, 0);
    *devices_sent = info->n_devices;
    row.config = NULL;
    row_words words;
    memset(&words, 0, sizeof words);
    snprintf(words.timing, sizeof words.timing, "%s", row.timing ? row.timing : "");
    snprintf(words.stopped_by, sizeof words.stopped_by, "%s",
             row.stopped_by ? row.stopped_by : "");
    size_t length;
    char *packed = row_wire_pack(&row, &length);
    rank_send(fd, RM_ROW, at->rank, &words, sizeof words, packed, length);
    free(packed);
    row_release(&row);
    fflush(stdout);
    fflush(stderr);
}

/* After a row: the group's next configuration (NEXT), or NULL when the
 * group ends (END, or the leader is gone). *in_order: it was END. */
static const rb_configuration *next_config(const rank_service *s, int fd, int *in_order)
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
        index >= s->sweep->n_configs)
        return NULL;
    return &s->sweep->configs[index];
}

/* Runs configuration `cfg` as rank `rank` of `ranks` over socket `fd`,
 * sends the row, and then the next configurations the leader names, in
 * the same process (a group that stays up), until the group ends (with
 * the plugin's group_close when it ends in order). `devices_sent`: the
 * device records the leader has. */
static void serve_group(const rank_service *s, const rb_configuration *cfg, uint32_t rank,
                        uint32_t ranks, int fd, size_t devices_sent)
{
    rank_link_open(fd, rank);
    rank_place at = {.rank = rank, .ranks = ranks};
    int in_order = 0;
    while (cfg) {
        serve_one(s, &at, cfg, fd, &devices_sent);
        cfg = next_config(s, fd, &in_order);
    }
    s->group_end(s->user, in_order);
    fflush(stdout);
    fflush(stderr);
}

/* serve_group, then ends the process. */
void rank_main(const rank_service *s, const rb_configuration *cfg, uint32_t rank,
               uint32_t ranks, int fd, int whole_program)
{
    serve_group(s, cfg, rank, ranks, fd, s->devices(s->user)->n_devices);
    if (whole_program)
        exit(0); /* an MPI plugin finalizes MPI at exit */
    _exit(0);
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
 * ("unix:PATH" or "tcp:HOST:PORT"), in this process (whose runner is
 * fresh); ends it. */
static void serve_rank(const rank_service *s, const rb_configuration *cfg, uint32_t rank,
                       const char *leader, int whole_program)
{
    int fd = reach_leader(leader, rank);
    if (fd < 0)
        _exit(2);
    if (load_rank_plugin(cfg, rank) != 0)
        _exit(2);
    rank_main(s, cfg, rank, cfg->ranks ? cfg->ranks : 1, fd, whole_program);
}

void ranks_serve_asked(const rank_service *s)
{
    rank_asked asked;
    if (process_rank_asked(&asked) != 0 || asked.config >= s->sweep->n_configs) {
        diag_error("REDBENCH_RANK_OF is set, but this process is not a "
                "rank that mpirun started for a configuration of its experiment file");
        _exit(2);
    }
    serve_rank(s, &s->sweep->configs[asked.config], asked.rank, asked.leader, 1);
    _exit(2); /* serve_rank ends the process */
}

static void hub_serve(void *user, size_t config, const char *leader, uint32_t rank)
{
    const rank_service *s = user;
    if (config >= s->sweep->n_configs)
        _exit(2);
    serve_rank(s, &s->sweep->configs[config], rank, leader, 0);
}

/* The MPI rank process of a launcher's process k (procs/rank_hub.h): one
 * process for the whole run, so that MPI is initialised once, as the
 * launcher's rank k (the mpi pack's plugins initialise it at their first
 * init, and finalize it at exit). It serves each group of an MPI plugin it
 * is asked for, as rank k, loading each plugin's code the first time, and
 * ends with exit when the run is over. */
static void hub_serve_mpi(void *user, int requests, uint32_t rank)
{
    const rank_service *s = user;
    if (s->verbosity > 1)
        diag_say("rank %u: MPI ranks run in process %d, under the launcher's "
                "process %u, for the whole run", rank, (int)getpid(), rank);
    size_t config;
    char leader[PATH_MAX + 8];
    while (hub_mpi_request(requests, &config, leader, sizeof leader) == 0) {
        if (config >= s->sweep->n_configs)
            continue;
        const rb_configuration *cfg = &s->sweep->configs[config];
        int fd = reach_leader(leader, rank);
        if (fd < 0)
            continue; /* the leader fails the row when the rank does not come */
        if (load_rank_plugin(cfg, rank) == 0)
            serve_group(s, cfg, rank, cfg->ranks ? cfg->ranks : 1, fd, 0);
        close(fd);
        s->drop_data(s->user);
    }
    fflush(NULL);
    exit(0); /* the mpi pack finalizes MPI at exit */
}

void ranks_start_hub(const rank_service *s)
{
    hub_start(hub_serve, hub_serve_mpi, (void *)s);
}

void ranks_stop_hub(void)
{
    hub_stop();
}
