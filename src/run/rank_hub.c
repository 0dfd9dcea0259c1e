/* src/run/rank_hub.c: redbench started as several processes by a launcher
 * (run/rank_hub.h). Process 0 listens at the hub and takes one connection
 * from each other process, which says its number; each other process then
 * waits for requests: RUN (start a rank of a configuration, in a child that
 * reports to the leader named in the request), END (end that child) and
 * STOP (the run is over). On one node the hub is a socket in a folder only
 * this user may use (/tmp/redbench-UID), named after the launcher's job;
 * across nodes REDBENCH_LEADER=HOST:PORT names it. */
#define _GNU_SOURCE
#include "run/rank_hub.h"

#include <errno.h>
#include <netdb.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

#include "base/util.h"

/* Seconds the processes have to meet at the hub. */
#define HUB_MEET_SECONDS 120

enum hub_message { HUB_HELLO = 1, HUB_RUN, HUB_END, HUB_STOP };

typedef struct hub_msg {
    uint32_t type;
    uint32_t rank;
    uint64_t config;
    char leader[240];
} hub_msg;

static uint32_t hub_processes; /* process 0: the launcher's N; 0 when no hub */
static int *hub_peers;         /* process 0: the socket of each other process */

static uint32_t env_number(const char *const *names, int *found)
{
    for (const char *const *n = names; *n; n++) {
        const char *v = getenv(*n);
        if (v && *v) {
            *found = 1;
            return (uint32_t)strtoul(v, NULL, 10);
        }
    }
    *found = 0;
    return 0;
}

int hub_launcher_rank(uint32_t *rank)
{
    static const char *const rank_vars[] = {"OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK",
                                            "SLURM_PROCID", NULL};
    int found;
    *rank = env_number(rank_vars, &found);
    return found;
}

int hub_launched(uint32_t *rank, uint32_t *size)
{
    static const char *const size_vars[] = {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "SLURM_NTASKS",
                                            NULL};
    const char *own = getenv("REDBENCH_RANK_OF");
    if (own && *own)
        return 0; /* a rank that redbench started through mpirun */
    int found_size;
    *size = env_number(size_vars, &found_size);
    return hub_launcher_rank(rank) && found_size && *size > 1 && *rank < *size;
}

/* The launcher's job, for the hub's name: letters and digits only. */
static void job_name(char *out, size_t len)
{
    static const char *const job_vars[] = {"PMIX_NAMESPACE", "OMPI_MCA_ess_base_jobid",
                                           "SLURM_STEP_ID", NULL};
    strbuf sb = {0};
    const char *slurm = getenv("SLURM_JOB_ID");
    if (slurm && *slurm)
        sb_printf(&sb, "%s.", slurm);
    for (const char *const *n = job_vars; *n; n++) {
        const char *v = getenv(*n);
        if (v && *v) {
            sb_printf(&sb, "%s", v);
            break;
        }
    }
    uint64_t h = 1469598103934665603ull; /* FNV-1a of the job's name */
    for (const char *p = sb.data ? sb.data : ""; *p; p++)
        h = (h ^ (unsigned char)*p) * 1099511628211ull;
    snprintf(out, len, "%016llx", (unsigned long long)h);
    sb_free(&sb);
}

/* "unix:/tmp/redbench-UID/hub-JOB", in a folder only this user can use,
 * or the "tcp:HOST:PORT" of REDBENCH_LEADER. */
static int hub_address(char *out, size_t len)
{
    const char *leader = getenv("REDBENCH_LEADER");
    if (leader && *leader) {
        if (!strchr(leader, ':')) {
            fprintf(stderr, "redbench: error: REDBENCH_LEADER=%s: valid: HOST:PORT (rank 0's "
                    "host and a free port)\n", leader);
            return -1;
        }
        snprintf(out, len, "tcp:%s", leader);
        return 0;
    }
    char dir[64], job[32];
    snprintf(dir, sizeof dir, "/tmp/redbench-%u", (unsigned)getuid());
    if (mkdir(dir, 0700) != 0 && errno != EEXIST) {
        fprintf(stderr, "redbench: error: cannot make %s: %s\n", dir, strerror(errno));
        return -1;
    }
    struct stat st;
    if (lstat(dir, &st) != 0 || !S_ISDIR(st.st_mode) || st.st_uid != getuid() ||
        (st.st_mode & 077)) {
        fprintf(stderr, "redbench: error: %s is not a folder of this user's alone; remove it "
                "or set REDBENCH_LEADER=HOST:PORT\n", dir);
        return -1;
    }
    job_name(job, sizeof job);
    snprintf(out, len, "unix:%s/hub-%s", dir, job);
    return 0;
}

/* Splits "tcp:HOST:PORT" into a resolved address. */
static struct addrinfo *resolve(const char *hostport, int passive)
{
    char host[200];
    const char *colon = strrchr(hostport, ':');
    if (!colon || (size_t)(colon - hostport) >= sizeof host)
        return NULL;
    memcpy(host, hostport, (size_t)(colon - hostport));
    host[colon - hostport] = '\0';
    struct addrinfo hints = {.ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM,
                             .ai_flags = passive ? AI_PASSIVE : 0};
    struct addrinfo *res = NULL;
    if (getaddrinfo(passive ? NULL : host, colon + 1, &hints, &res) != 0)
        return NULL;
    return res;
}

int hub_connect(const char *address)
{
    if (strncmp(address, "unix:", 5) == 0) {
        struct sockaddr_un addr = {.sun_family = AF_UNIX};
        if (strlen(address + 5) >= sizeof addr.sun_path)
            return -1;
        snprintf(addr.sun_path, sizeof addr.sun_path, "%s", address + 5);
        int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
        if (fd >= 0 && connect(fd, (struct sockaddr *)&addr, sizeof addr) == 0)
            return fd;
        if (fd >= 0)
            close(fd);
        return -1;
    }
    if (strncmp(address, "tcp:", 4) != 0)
        return -1;
    struct addrinfo *res = resolve(address + 4, 0);
    int fd = -1;
    for (struct addrinfo *a = res; a && fd < 0; a = a->ai_next) {
        fd = socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC, a->ai_protocol);
        if (fd >= 0 && connect(fd, a->ai_addr, a->ai_addrlen) != 0) {
            close(fd);
            fd = -1;
        }
    }
    if (res)
        freeaddrinfo(res);
    return fd;
}

/* A listening socket at `address`. */
static int hub_listen(const char *address, int backlog)
{
    int fd = -1;
    if (strncmp(address, "unix:", 5) == 0) {
        struct sockaddr_un addr = {.sun_family = AF_UNIX};
        snprintf(addr.sun_path, sizeof addr.sun_path, "%.100s", address + 5);
        unlink(addr.sun_path); /* one left by an earlier job of the same name */
        fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
        if (fd >= 0 && bind(fd, (struct sockaddr *)&addr, sizeof addr) != 0) {
            close(fd);
            fd = -1;
        }
    } else {
        struct addrinfo *res = resolve(address + 4, 1);
        for (struct addrinfo *a = res; a && fd < 0; a = a->ai_next) {
            fd = socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC, a->ai_protocol);
            int on = 1;
            if (fd >= 0)
                setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on);
            if (fd >= 0 && bind(fd, a->ai_addr, a->ai_addrlen) != 0) {
                close(fd);
                fd = -1;
            }
        }
        if (res)
            freeaddrinfo(res);
    }
    if (fd >= 0 && listen(fd, backlog) != 0) {
        close(fd);
        fd = -1;
    }
    return fd;
}

static double seconds_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Process 0: the others' HELLOs. */
static int meet_the_others(const char *address, uint32_t size)
{
    int listener = hub_listen(address, (int)size);
    if (listener < 0) {
        fprintf(stderr, "redbench: error: cannot listen at %s for the launcher's other %u "
                "processes: %s\n", address, size - 1, strerror(errno));
        return -1;
    }
    hub_peers = xcalloc(size, sizeof *hub_peers);
    for (uint32_t k = 0; k < size; k++)
        hub_peers[k] = -1;
    uint32_t met = 0;
    double until = seconds_now() + HUB_MEET_SECONDS;
    while (met < size - 1 && seconds_now() < until) {
        struct pollfd pfd = {.fd = listener, .events = POLLIN};
        if (poll(&pfd, 1, 500) <= 0)
            continue;
        int fd = accept4(listener, NULL, NULL, SOCK_CLOEXEC);
        if (fd < 0)
            continue;
        hub_msg m;
        pfd = (struct pollfd){.fd = fd, .events = POLLIN};
        if (poll(&pfd, 1, 10000) <= 0 || read_full(fd, &m, sizeof m) != 0 ||
            m.type != HUB_HELLO || m.rank == 0 || m.rank >= size || hub_peers[m.rank] >= 0) {
            close(fd);
            continue;
        }
        hub_peers[m.rank] = fd;
        met++;
    }
    close(listener);
    if (strncmp(address, "unix:", 5) == 0)
        unlink(address + 5);
    if (met < size - 1) {
        fprintf(stderr, "redbench: error: %u of the launcher's %u processes reached rank 0 at %s "
                "within %d s; configurations of %u ranks run on this node alone\n", met + 1,
                size, address, HUB_MEET_SECONDS, size);
        for (uint32_t k = 0; k < size; k++)
            if (hub_peers[k] >= 0)
                close(hub_peers[k]);
        free(hub_peers);
        hub_peers = NULL;
        return -1;
    }
    hub_processes = size;
    return 0;
}

/* The others: serve process 0 until it is done; never returns. */
static void serve_process_zero(const char *address, uint32_t rank, hub_serve_fn serve, void *user)
{
    int fd = -1;
    double until = seconds_now() + HUB_MEET_SECONDS;
    while ((fd = hub_connect(address)) < 0 && seconds_now() < until) {
        struct timespec nap = {0, 100000000L};
        nanosleep(&nap, NULL);
    }
    hub_msg hello = {.type = HUB_HELLO, .rank = rank};
    if (fd < 0 || write_full(fd, &hello, sizeof hello) != 0) {
        fprintf(stderr, "redbench: error: process %u cannot reach rank 0 at %s\n", rank, address);
        exit(2);
    }
    pid_t child = 0;
    for (;;) {
        hub_msg m;
        int got = read_full(fd, &m, sizeof m);
        if (child > 0) { /* whatever comes next, the last configuration is over */
            kill(child, SIGKILL);
            waitpid(child, NULL, 0);
            child = 0;
        }
        if (got != 0 || m.type == HUB_STOP)
            exit(0);
        if (m.type != HUB_RUN)
            continue;
        m.leader[sizeof m.leader - 1] = '\0';
        fflush(NULL);
        child = fork();
        if (child == 0) {
#ifdef __linux__
            prctl(PR_SET_PDEATHSIG, SIGKILL);
#endif
            close(fd);
            serve(user, (size_t)m.config, m.leader, m.rank);
            _exit(3);
        }
    }
}

int hub_start(hub_serve_fn serve, void *user)
{
    uint32_t rank, size;
    if (!hub_launched(&rank, &size))
        return 0;
    char address[256];
    if (hub_address(address, sizeof address) != 0) {
        if (rank != 0)
            exit(2);
        return -1;
    }
    if (rank != 0)
        serve_process_zero(address, rank, serve, user);
    signal(SIGPIPE, SIG_IGN);
    return meet_the_others(address, size);
}

uint32_t hub_size(void)
{
    return hub_processes;
}

int hub_request(uint32_t rank, size_t config, const char *leader)
{
    if (!hub_peers || rank == 0 || rank >= hub_processes || hub_peers[rank] < 0)
        return -1;
    hub_msg m = {.type = HUB_RUN, .rank = rank, .config = config};
    snprintf(m.leader, sizeof m.leader, "%s", leader);
    return write_full(hub_peers[rank], &m, sizeof m);
}

static void tell_all(int type)
{
    for (uint32_t k = 1; hub_peers && k < hub_processes; k++) {
        hub_msg m = {.type = (uint32_t)type, .rank = k};
        if (hub_peers[k] >= 0)
            write_full(hub_peers[k], &m, sizeof m);
    }
}

void hub_end_config(void)
{
    tell_all(HUB_END);
}

void hub_stop(void)
{
    tell_all(HUB_STOP);
}

const char *hub_leader_host(void)
{
    static char host[200];
    const char *leader = getenv("REDBENCH_LEADER");
    const char *colon = leader ? strrchr(leader, ':') : NULL;
    if (!colon || (size_t)(colon - leader) >= sizeof host)
        return "";
    memcpy(host, leader, (size_t)(colon - leader));
    host[colon - leader] = '\0';
    return host;
}
