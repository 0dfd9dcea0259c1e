/* src/procs/rank_launch.c: starting a group's rank processes, naming the next
 * configuration to a group kept up, and ending a group (in order, or at
 * once after a fault). Ranks are forked here, one socketpair each; or, for
 * a plugin whose ranks are MPI processes, started by mpirun on this program
 * with an experiment file of the group's configurations, each answering on
 * a socket in a private folder (under a launcher, with the launcher's
 * variables removed from mpirun's environment); or, under a launcher
 * (procs/rank_hub.h), rank 0 forked here and rank k started by the
 * launcher's process k, answering on a socket or a TCP port; or, under a
 * launcher, for a plugin whose ranks are MPI processes, each rank the MPI
 * rank process that the launcher's process keeps for the run. */
#define _GNU_SOURCE
#include "procs/rank_launch.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

#include "base/descriptors.h"
#include "base/ini_writer.h"
#include "base/diag.h"
#include "base/names.h"
#include "base/util.h"
#include "config/sweep.h"
#include "config/settings.h"
#include "procs/isolate.h"
#include "procs/rank_hub.h"
#include "procs/rank_link.h"
#include "procs/rank_serve.h"
#include "procs/rank_supervise.h"

/* Seconds a group that ends in order has to close (group_close, MPI's
 * finalize) before it is killed. */
#define RANKS_END_SECONDS 5.0

/* Forks one process per rank, each with its end of a socketpair. */
int fork_ranks(rank_group *g, uint32_t count)
{
    for (uint32_t k = 0; k < count; k++) {
        int sv[2];
        if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0) {
            group_fail(g, "cannot make a socket for rank %u: %s", k, strerror(errno));
            return -1;
        }
        fflush(NULL);
        pid_t pid = fork();
        if (pid < 0) {
            close(sv[0]);
            close(sv[1]);
            group_fail(g, "cannot start rank %u: %s", k, strerror(errno));
            return -1;
        }
        if (pid == 0) {
#ifdef __linux__
            prctl(PR_SET_PDEATHSIG, SIGKILL);
#endif
            /* its socket to the leader, and nothing else of the leader's */
            descriptors_close_all_but(&sv[1], 1);
            rank_main(g->serve, g->cfg, k, g->n, sv[1], 0);
        }
        close(sv[1]);
        g->procs[k].pid = pid;
        g->procs[k].fd = sv[0];
    }
    return 0;
}

/* A private folder for the ranks' socket (and experiment file). */
static int make_rank_folder(rank_group *g)
{
    snprintf(g->dir, sizeof g->dir, "/tmp/redbench-ranks-XXXXXX");
    if (!mkdtemp(g->dir)) {
        g->dir[0] = '\0';
        group_fail(g, "cannot make a folder for the ranks' socket: %s", strerror(errno));
        return -1;
    }
    return 0;
}

/* Listens on the socket of the group's folder. */
static int listen_in_folder(rank_group *g)
{
    struct sockaddr_un addr = {.sun_family = AF_UNIX};
    snprintf(addr.sun_path, sizeof addr.sun_path, "%.50s/socket", g->dir);
    g->listen_fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (g->listen_fd < 0 || bind(g->listen_fd, (struct sockaddr *)&addr, sizeof addr) != 0 ||
        listen(g->listen_fd, (int)g->n) != 0) {
        group_fail(g, "cannot listen on %s: %s", addr.sun_path, strerror(errno));
        return -1;
    }
    return 0;
}

/* Listens on a free TCP port of `host`; its address in `out`. */
static int listen_on_tcp(rank_group *g, const char *host, char *out, size_t len)
{
    struct sockaddr_in6 addr = {.sin6_family = AF_INET6, .sin6_addr = in6addr_any};
    g->listen_fd = socket(AF_INET6, SOCK_STREAM | SOCK_CLOEXEC, 0);
    socklen_t size = sizeof addr;
    if (g->listen_fd < 0 || bind(g->listen_fd, (struct sockaddr *)&addr, sizeof addr) != 0 ||
        listen(g->listen_fd, (int)g->n) != 0 ||
        getsockname(g->listen_fd, (struct sockaddr *)&addr, &size) != 0) {
        group_fail(g, "cannot listen on a TCP port for the ranks of other nodes: %s",
                   strerror(errno));
        return -1;
    }
    snprintf(out, len, "tcp:%s:%u", host, (unsigned)ntohs(addr.sin6_port));
    return 0;
}

/* Under a launcher: listens for the ranks of the launcher's processes,
 * from rank `first` on, and asks each to start its rank (with `mpi`, in
 * its MPI rank process). */
static int ask_the_launchers_processes(rank_group *g, uint32_t first, int mpi)
{
    char address[320];
    const char *host = hub_leader_host();
    if (*host) {
        if (listen_on_tcp(g, host, address, sizeof address) != 0)
            return -1;
    } else {
        if (make_rank_folder(g) != 0 || listen_in_folder(g) != 0)
            return -1;
        snprintf(address, sizeof address, "unix:%s/socket", g->dir);
    }
    g->hub = 1;
    g->hub_mpi = mpi;
    for (uint32_t k = first; k < g->n; k++)
        if (hub_request(k, g->cfg->index, address, mpi) != 0) {
            group_fail(g, "the launcher's process %u cannot be asked to start rank %u", k, k);
            return -1;
        }
    return 0;
}

/* Under a launcher (procs/rank_hub.h): rank 0 forked here, rank k started
 * by the launcher's process k, all reporting to this leader. */
int launch_hub_ranks(rank_group *g)
{
    if (ask_the_launchers_processes(g, 1, 0) != 0)
        return -1;
    return fork_ranks(g, 1);
}

int launch_hub_mpi_ranks(rank_group *g)
{
    return ask_the_launchers_processes(g, 0, 1);
}

/* Whether configuration `cfg` can run in group `g` (the same plugin and
 * ranks; for mpirun's ranks, one of the configurations of their file). */
int group_fits(const rank_group *g, const rb_configuration *cfg)
{
    if (g->cfg->plugin != cfg->plugin || g->n != (cfg->ranks ? cfg->ranks : 1))
        return 0;
    return !g->local_index || g->local_index[cfg->index] != SIZE_MAX;
}

/* Writes the configurations of the sweep that the group can run (its
 * plugin, its ranks) as an experiment file of one run each, for the rank
 * processes mpirun starts; g->local_index says where each is. Everything
 * goes through the INI writer, so a value that would not read back the
 * same fails the group, naming the file and the value. */
static int write_rank_experiment(rank_group *g, const char *path)
{
    const rb_experiment *exp = g->serve->exp;
    const rb_sweep *sweep = g->serve->sweep;
    FILE *f = fopen(path, "w");
    if (!f) {
        group_fail(g, "cannot write the ranks' experiment file %s: %s", path, strerror(errno));
        return -1;
    }
    rb_ini_writer w;
    ini_writer_init(&w, f);
    /* every [experiment] setting of the run, named "rank" */
    settings_write(&w, exp, "rank", 1);
    g->local_index = xmalloc((sweep->n_configs ? sweep->n_configs : 1) * sizeof *g->local_index);
    size_t local = 0;
    for (size_t j = 0; j < sweep->n_configs; j++) {
        const rb_configuration *cfg = &sweep->configs[j];
        g->local_index[j] = SIZE_MAX;
        if (cfg->plugin != g->cfg->plugin || (cfg->ranks ? cfg->ranks : 1) != g->n)
            continue;
        g->local_index[j] = local;
        char section[32], *plugin = xasprintf("%s/%s", cfg->plugin->pack, cfg->plugin->desc->name);
        snprintf(section, sizeof section, "run c%zu", local++);
        ini_write_blank(&w);
        ini_write_section(&w, section);
        ini_write_key(&w, "plugin", plugin, RB_INI_WORD);
        free(plugin);
        data_keys_write(&w, cfg);
        for (uint32_t k = 0; k < cfg->n_params; k++)
            ini_write_key(&w, cfg->params[k].name, cfg->params[k].text, RB_INI_WORD);
    }
    const int closed = fclose(f);
    const char *why = w.failed ? w.error : closed != 0 ? strerror(errno) : NULL;
    if (why)
        group_fail(g, "cannot write the ranks' experiment file %s: %s", path, why);
    return why ? -1 : 0;
}

/* The variables by which a launcher tells its processes their place (Open
 * MPI's and PMIx's, PMI's, Slurm's): a redbench that a launcher started
 * removes them from mpirun's environment, so that its ranks make an MPI
 * job of their own (an MPI process initialises MPI once per job, and the
 * launcher's processes are not this configuration's). */
static const char *const launcher_prefixes[] = {"OMPI_", "PMIX_", "ORTE_", "OPAL_", "PRTE_",
                                                "PMI_", "SLURM_", NULL};

static void forget_the_launcher(void)
{
    extern char **environ;
    for (int again = 1; again;) {
        again = 0;
        for (char **e = environ; e && *e && !again; e++) {
            if (strncmp(*e, "OMPI_ALLOW_RUN_AS_ROOT", 22) == 0)
                continue;
            for (const char *const *pre = launcher_prefixes; *pre; pre++)
                if (strncmp(*e, *pre, strlen(*pre)) == 0) {
                    char name[256];
                    size_t len = strcspn(*e, "=");
                    if (len >= sizeof name)
                        break;
                    memcpy(name, *e, len);
                    name[len] = '\0';
                    unsetenv(name);
                    again = 1; /* environ changed under the loop */
                    break;
                }
        }
    }
}

/* Starts `mpirun -np N` on this program, each rank told the socket to
 * answer on through REDBENCH_RANK_OF. */
int launch_mpi_ranks(rank_group *g)
{
    if (make_rank_folder(g) != 0)
        return -1;
    char sock_path[PATH_MAX], ini[PATH_MAX], exe[PATH_MAX], pack_dir[PATH_MAX], np[16];
    snprintf(sock_path, sizeof sock_path, "%s/socket", g->dir);
    snprintf(ini, sizeof ini, "%s/rank.ini", g->dir);
    if (write_rank_experiment(g, ini) != 0)
        return -1;
    ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (len <= 0) {
        group_fail(g, "cannot find this program's file to start the ranks");
        return -1;
    }
    exe[len] = '\0';
    snprintf(pack_dir, sizeof pack_dir, "%s", g->cfg->plugin->path);
    char *slash = strrchr(pack_dir, '/');
    if (slash)
        *slash = '\0'; /* the plugin's folder: searched, it gives the same pack name */
    else
        snprintf(pack_dir, sizeof pack_dir, ".");
    if (listen_in_folder(g) != 0)
        return -1;
    snprintf(np, sizeof np, "%u", g->n);
    char first[32];
    snprintf(first, sizeof first, "%zu", g->local_index[g->cfg->index]);
    const char *mpirun = getenv("REDBENCH_MPIRUN");
    if (!mpirun || !*mpirun)
        mpirun = "mpirun";
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        group_fail(g, "cannot start mpirun: %s", strerror(errno));
        return -1;
    }
    if (pid == 0) {
#ifdef __linux__
        prctl(PR_SET_PDEATHSIG, SIGTERM); /* mpirun ends its ranks when the leader dies */
#endif
        setpgid(0, 0);
        uint32_t place;
        if (hub_launcher_rank(&place))
            forget_the_launcher();
        setenv("REDBENCH_RANK_OF", sock_path, 1);
        setenv("REDBENCH_RANK_CONFIG", first, 1);
        if (getuid() == 0) {
            setenv("OMPI_ALLOW_RUN_AS_ROOT", "1", 1);
            setenv("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1", 1);
        }
        int null = open("/dev/null", O_RDONLY);
        if (null >= 0)
            dup2(null, STDIN_FILENO);
        dup2(STDERR_FILENO, STDOUT_FILENO);
        descriptors_close_all_but(NULL, 0); /* the ranks find the leader by its address */
        execlp(mpirun, mpirun, "--oversubscribe", "-np", np, "-x", "REDBENCH_RANK_OF", "-x",
               "REDBENCH_RANK_CONFIG", exe,
               "-c", ini, "-p", pack_dir, (char *)NULL);
        diag_error("cannot run %s: %s (set REDBENCH_MPIRUN to the "
                "launcher)", mpirun, strerror(errno));
        _exit(127);
    }
    setpgid(pid, pid);
    g->launcher = pid;
    return 0;
}

/* Whether every process of a group kept up is still there and silent (a
 * rank says nothing between configurations). */
static int group_alive(rank_group *g)
{
    for (uint32_t k = 0; k < g->n; k++) {
        rank_proc *p = &g->procs[k];
        if (p->fd < 0)
            return 0;
        if (p->pid > 0 && waitpid(p->pid, &p->status, WNOHANG) != 0) {
            p->pid = 0; /* ended (or no longer this process's child) */
            return 0;
        }
        struct pollfd pfd = {.fd = p->fd, .events = POLLIN};
        if (poll(&pfd, 1, 0) != 0)
            return 0;
    }
    if (g->launcher && waitpid(g->launcher, NULL, WNOHANG) != 0) {
        g->launcher = 0;
        return 0;
    }
    return 1;
}

int restart_group(rank_group *g, const rb_configuration *cfg)
{
    if (!group_fits(g, cfg) || !group_alive(g))
        return -1;
    g->cfg = cfg;
    g->forwarded_step = -1;
    uint64_t index = g->local_index ? g->local_index[cfg->index] : cfg->index;
    for (uint32_t k = 0; k < g->n; k++) {
        rank_proc *p = &g->procs[k];
        free(p->samples);
        free(p->exchanged);
        p->samples = NULL;
        p->exchanged = NULL;
        p->exchanged_len = 0;
        p->exchanging = 0;
        p->len = 0;
        p->step = 0;
        p->done = 0;
        row_release(&p->row);
    }
    for (uint32_t k = 0; k < g->n; k++)
        if (rank_send(g->procs[k].fd, RM_NEXT, k, &index, sizeof index, NULL, 0) != 0) {
            group_fail(g, "rank %u was gone before the configuration began", k);
            return -1;
        }
    g->configs++;
    return 0;
}

/* Waits up to `seconds` for the forked ranks and mpirun to end. */
static void wait_for_group(rank_group *g, double seconds)
{
    for (int waited = 0; waited < (int)(seconds * 100); waited++) {
        int left = 0;
        for (uint32_t k = 0; k < g->n; k++)
            if (g->procs[k].pid > 0) {
                if (waitpid(g->procs[k].pid, NULL, WNOHANG) == g->procs[k].pid)
                    g->procs[k].pid = 0;
                else
                    left = 1;
            }
        if (g->launcher > 0) {
            if (waitpid(g->launcher, NULL, WNOHANG) == g->launcher)
                g->launcher = 0;
            else
                left = 1;
        }
        if (!left)
            return;
        struct timespec nap = {0, 10000000L};
        nanosleep(&nap, NULL);
    }
}

void end_group_in_order(rank_group *g)
{
    g->in_order = 1;
    for (uint32_t k = 0; k < g->n; k++)
        if (g->procs[k].fd >= 0)
            rank_send(g->procs[k].fd, RM_END, k, NULL, 0, NULL, 0);
    wait_for_group(g, RANKS_END_SECONDS);
    end_group(g);
}

void end_group(rank_group *g)
{
    for (uint32_t k = 0; k < g->n; k++) {
        rank_proc *p = &g->procs[k];
        if (p->pid > 0) {
            kill(p->pid, SIGKILL);
            while (waitpid(p->pid, NULL, 0) < 0 && errno == EINTR)
                ;
        }
        if (p->fd >= 0)
            close(p->fd);
        free(p->buf);
        free(p->exchanged);
    }
    for (uint32_t k = 0; k < g->n && !g->hub; k++)
        if (g->procs[k].started_pid > 1 && !g->procs[k].done)
            kill(g->procs[k].started_pid, SIGKILL); /* mpirun may leave it behind */
    if (g->hub_mpi && !g->in_order) { /* the MPI rank processes are killed */
        char why[sizeof g->failure + 160];
        snprintf(why, sizeof why, "in [run %s]%s%s: %s", g->cfg->run ? g->cfg->run->name : "?",
                 g->cfg->params_text && *g->cfg->params_text ? " " : "",
                 g->cfg->params_text ? g->cfg->params_text : "",
                 g->failure[0] ? g->failure : "the group ended after a fault");
        hub_mpi_lose(why);
    }
    if (g->hub) /* the launcher's processes end the ranks they started */
        hub_end_config(g->hub_mpi && !g->in_order);
    if (g->launcher > 0) {
        killpg(g->launcher, SIGKILL);
        while (waitpid(g->launcher, NULL, 0) < 0 && errno == EINTR)
            ;
    }
    if (g->listen_fd >= 0)
        close(g->listen_fd);
    if (g->dir[0]) {
        char path[PATH_MAX];
        snprintf(path, sizeof path, "%s/socket", g->dir);
        unlink(path);
        snprintf(path, sizeof path, "%s/rank.ini", g->dir);
        unlink(path);
        rmdir(g->dir);
    }
    free(g->local_index);
    g->local_index = NULL;
}
