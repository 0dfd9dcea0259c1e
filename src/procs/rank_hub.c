/* src/procs/rank_hub.c: redbench started as several processes by a launcher
 * (procs/rank_hub.h). Process 0 listens at the hub and takes one connection
 * from each other process, which says its number; each other process then
 * waits for requests: RUN (start a rank of a configuration, in a child that
 * reports to the leader named in the request), END (end that child) and
 * STOP (the run is over). A RUN of an MPI plugin goes instead to the
 * process's one MPI rank process, a child started at the first such RUN
 * that initialises MPI once, as the launcher's rank, and serves every MPI
 * configuration of the run; process 0's own is the child of a helper that
 * process 0 forks at the start and asks as it asks the others. An END
 * after a fault kills the MPI rank processes: MPI is then lost for the
 * job, which a page shared by process 0's workers records. On one node the
 * hub is a socket in a folder only this user may use (/tmp/redbench-UID),
 * named after the launcher's job; across nodes REDBENCH_LEADER=HOST:PORT
 * names it. */
#define _GNU_SOURCE
#include "procs/rank_hub.h"

#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

#include "base/diag.h"
#include "base/util.h"

/* Seconds the processes have to meet at the hub. */
#define HUB_MEET_SECONDS 120
/* Seconds the MPI rank processes have to finalize MPI at the run's end. */
#define HUB_FINALIZE_SECONDS 60

enum hub_message { HUB_HELLO = 1, HUB_RUN, HUB_END, HUB_STOP };
enum hub_flag {
    HUB_MPI = 1,  /* RUN: a rank of an MPI plugin, for the MPI rank process */
    HUB_FAULT = 2 /* END: after a fault; the MPI rank process is killed */
};

typedef struct hub_msg {
    uint32_t type;
    uint32_t rank;
    uint64_t config;
    uint32_t flags;
    char leader[236];
} hub_msg;

/* What process 0's workers share: whether MPI was lost for the job. */
typedef struct hub_shared {
    volatile int mpi_lost;
    char why[400];
} hub_shared;

static uint32_t hub_processes; /* process 0: the launcher's N; 0 when no hub */
static int *hub_peers;         /* process 0: the socket of each process (0: the helper) */
static int hub_helper = -1;    /* process 0: its end of the helper's socket, until met */
static pid_t hub_helper_pid;   /* process 0: the helper */
static hub_shared *hub_page;   /* process 0: shared with its workers */

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
            diag_error("REDBENCH_LEADER=%s: valid: HOST:PORT (rank 0's "
                    "host and a free port)", leader);
            return -1;
        }
        snprintf(out, len, "tcp:%s", leader);
        return 0;
    }
    char dir[64], job[32];
    snprintf(dir, sizeof dir, "/tmp/redbench-%u", (unsigned)getuid());
    if (mkdir(dir, 0700) != 0 && errno != EEXIST) {
        diag_error("cannot make %s: %s", dir, strerror(errno));
        return -1;
    }
    struct stat st;
    if (lstat(dir, &st) != 0 || !S_ISDIR(st.st_mode) || st.st_uid != getuid() ||
        (st.st_mode & 077)) {
        diag_error("%s is not a folder of this user's alone; remove it "
                "or set REDBENCH_LEADER=HOST:PORT", dir);
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

void hub_no_delay(int fd)
{
    int on = 1;
    /* refused on a local socket (EOPNOTSUPP), which stays as it was */
    (void)setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &on, sizeof on);
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
    if (fd >= 0)
        hub_no_delay(fd);
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

/* Process 0: the others' HELLOs. */
static int meet_the_others(const char *address, uint32_t size)
{
    int listener = hub_listen(address, (int)size);
    if (listener < 0) {
        diag_error("cannot listen at %s for the launcher's other %u "
                "processes: %s", address, size - 1, strerror(errno));
        return -1;
    }
    hub_peers = xcalloc(size, sizeof *hub_peers);
    for (uint32_t k = 0; k < size; k++)
        hub_peers[k] = -1;
    uint32_t met = 0;
    double until = monotonic_seconds() + HUB_MEET_SECONDS;
    while (met < size - 1 && monotonic_seconds() < until) {
        struct pollfd pfd = {.fd = listener, .events = POLLIN};
        if (poll(&pfd, 1, 500) <= 0)
            continue;
        int fd = accept4(listener, NULL, NULL, SOCK_CLOEXEC);
        if (fd < 0)
            continue;
        hub_no_delay(fd);
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
        diag_error("%u of the launcher's %u processes reached rank 0 at %s "
                "within %d s; configurations of %u ranks run on this node alone", met + 1,
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

/* A process's MPI rank process (pid 0: none yet) and its request socket. */
typedef struct mpi_child {
    pid_t pid;
    int fd;
    int lost; /* killed after a fault, or gone: MPI cannot start again */
} mpi_child;

/* Waits up to `seconds` for the MPI rank process to end, then kills it. */
static void end_mpi_child(mpi_child *m, double seconds)
{
    if (m->fd >= 0)
        close(m->fd); /* it reads the end of its requests: it finalizes MPI */
    m->fd = -1;
    for (double until = monotonic_seconds() + seconds; m->pid > 0 && monotonic_seconds() < until;) {
        if (waitpid(m->pid, NULL, WNOHANG) == m->pid) {
            m->pid = 0;
            return;
        }
        struct timespec nap = {0, 10000000L};
        nanosleep(&nap, NULL);
    }
    if (m->pid > 0) {
        kill(m->pid, SIGKILL);
        waitpid(m->pid, NULL, 0);
        m->pid = 0;
    }
}

/* fork() after flushing stdio, with the child killed when this process
 * dies (Linux), as every process the hub starts is. */
static pid_t fork_bound(void)
{
    fflush(NULL);
    pid_t pid = fork();
#ifdef __linux__
    if (pid == 0)
        prctl(PR_SET_PDEATHSIG, SIGKILL);
#endif
    return pid;
}

/* Hands a RUN of an MPI plugin to the MPI rank process, starting it the
 * first time. */
static void run_mpi(mpi_child *m, const hub_msg *msg, int hub_fd, hub_mpi_fn serve_mpi,
                    void *user)
{
    if (m->lost)
        return; /* the leader knows: it skips MPI configurations */
    if (m->pid == 0) {
        int sv[2];
        if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0)
            return;
        pid_t pid = fork_bound();
        if (pid == 0) {
            close(hub_fd);
            close(sv[0]);
            serve_mpi(user, sv[1], msg->rank);
            _exit(3);
        }
        close(sv[1]);
        if (pid < 0) {
            close(sv[0]);
            return;
        }
        m->pid = pid;
        m->fd = sv[0];
    }
    if (write_full(m->fd, msg, sizeof *msg) != 0)
        m->lost = 1;
}

/* The end of the run for a process whose MPI rank process was lost: it
 * waits until process 0 is gone, since the launcher may end the whole job
 * once a process that initialised MPI ends without finalizing it, and
 * process 0 must first write the results. */
static void wait_for_process_zero(int fd)
{
    char byte;
    while (read(fd, &byte, 1) > 0 || errno == EINTR)
        ;
}

/* A process that serves process 0 (the others, and process 0's helper):
 * until process 0 is done; never returns. */
static void serve_requests(int fd, hub_serve_fn serve, hub_mpi_fn serve_mpi, void *user)
{
    pid_t child = 0;
    mpi_child mpi = {0, -1, 0};
    for (;;) {
        hub_msg m;
        int got = read_full(fd, &m, sizeof m);
        if (child > 0) { /* whatever comes next, the last configuration is over */
            kill(child, SIGKILL);
            waitpid(child, NULL, 0);
            child = 0;
        }
        if (mpi.pid > 0 && waitpid(mpi.pid, NULL, WNOHANG) == mpi.pid) {
            mpi.pid = -1; /* it ended by itself: MPI is gone for this process */
            mpi.lost = 1;
        }
        if (got != 0 || m.type == HUB_STOP) {
            if (mpi.lost || (got != 0 && mpi.pid > 0)) {
                if (mpi.pid > 0)
                    end_mpi_child(&mpi, 0);
                if (got == 0)
                    wait_for_process_zero(fd);
            } else if (mpi.pid > 0) {
                end_mpi_child(&mpi, HUB_FINALIZE_SECONDS);
            }
            exit(0);
        }
        m.leader[sizeof m.leader - 1] = '\0';
        if (m.type == HUB_END && (m.flags & HUB_FAULT) && mpi.pid > 0) {
            end_mpi_child(&mpi, 0);
            mpi.lost = 1;
        }
        if (m.type != HUB_RUN)
            continue;
        if (m.flags & HUB_MPI) {
            run_mpi(&mpi, &m, fd, serve_mpi, user);
            continue;
        }
        child = fork_bound();
        if (child == 0) {
            close(fd);
            if (mpi.fd >= 0)
                close(mpi.fd);
            serve(user, (size_t)m.config, m.leader, m.rank);
            _exit(3);
        }
    }
}

/* The others: reach process 0 and serve it until it is done; never
 * returns. */
static void serve_process_zero(const char *address, uint32_t rank, hub_serve_fn serve,
                               hub_mpi_fn serve_mpi, void *user)
{
    int fd = -1;
    double until = monotonic_seconds() + HUB_MEET_SECONDS;
    while ((fd = hub_connect(address)) < 0 && monotonic_seconds() < until) {
        struct timespec nap = {0, 100000000L};
        nanosleep(&nap, NULL);
    }
    hub_msg hello = {.type = HUB_HELLO, .rank = rank};
    if (fd < 0 || write_full(fd, &hello, sizeof hello) != 0) {
        diag_error("process %u cannot reach rank 0 at %s", rank, address);
        exit(2);
    }
    serve_requests(fd, serve, serve_mpi, user);
}

/* Process 0: forks the helper that serves it as the others do, for its own
 * MPI rank process (a child of the launched process, not of a worker, so
 * that it outlives each worker); its socket is hub_helper. */
static void start_helper(hub_serve_fn serve, hub_mpi_fn serve_mpi, void *user)
{
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0)
        return;
    pid_t pid = fork_bound();
    if (pid == 0) {
        signal(SIGINT, SIG_IGN); /* process 0 says when the run is over */
        close(sv[0]);
        serve_requests(sv[1], serve, serve_mpi, user);
    }
    close(sv[1]);
    if (pid < 0) {
        close(sv[0]);
    } else {
        hub_helper = sv[0];
        hub_helper_pid = pid;
    }
}

int hub_start(hub_serve_fn serve, hub_mpi_fn serve_mpi, void *user)
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
        serve_process_zero(address, rank, serve, serve_mpi, user);
    signal(SIGPIPE, SIG_IGN);
    hub_page = mmap(NULL, sizeof *hub_page, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
                    -1, 0);
    if (hub_page == MAP_FAILED)
        hub_page = NULL;
    start_helper(serve, serve_mpi, user);
    int met = meet_the_others(address, size);
    if (met == 0 && hub_peers)
        hub_peers[0] = hub_helper;
    else if (hub_helper >= 0)
        close(hub_helper); /* the helper reads the end and exits */
    hub_helper = -1;
    return met;
}

uint32_t hub_size(void)
{
    return hub_processes;
}

size_t hub_descriptors(int *out, size_t max)
{
    size_t n = 0;
    for (uint32_t k = 0; hub_peers && k < hub_processes && n < max; k++)
        if (hub_peers[k] >= 0)
            out[n++] = hub_peers[k];
    if (hub_helper >= 0 && n < max)
        out[n++] = hub_helper;
    return n;
}

int hub_request(uint32_t rank, size_t config, const char *leader, int mpi)
{
    if (!hub_peers || (rank == 0 && !mpi) || rank >= hub_processes || hub_peers[rank] < 0)
        return -1;
    hub_msg m = {.type = HUB_RUN, .rank = rank, .config = config, .flags = mpi ? HUB_MPI : 0};
    snprintf(m.leader, sizeof m.leader, "%s", leader);
    return write_full(hub_peers[rank], &m, sizeof m);
}

int hub_mpi_request(int fd, size_t *config, char *leader, size_t len)
{
    hub_msg m;
    if (read_full(fd, &m, sizeof m) != 0 || m.type != HUB_RUN)
        return -1;
    m.leader[sizeof m.leader - 1] = '\0';
    *config = (size_t)m.config;
    snprintf(leader, len, "%s", m.leader);
    return 0;
}

static void tell_all(int type, uint32_t flags)
{
    for (uint32_t k = 0; hub_peers && k < hub_processes; k++) {
        hub_msg m = {.type = (uint32_t)type, .rank = k, .flags = flags};
        if (hub_peers[k] >= 0)
            write_full(hub_peers[k], &m, sizeof m);
    }
}

void hub_end_config(int fault)
{
    tell_all(HUB_END, fault ? HUB_FAULT : 0);
}

void hub_mpi_lose(const char *why)
{
    if (!hub_page || hub_page->mpi_lost)
        return;
    snprintf(hub_page->why, sizeof hub_page->why, "%s", why);
    hub_page->mpi_lost = 1;
}

const char *hub_mpi_lost(void)
{
    return hub_page && hub_page->mpi_lost ? hub_page->why : NULL;
}

void hub_stop(void)
{
    tell_all(HUB_STOP, 0);
    /* process 0 ends after its own MPI rank process finalized MPI (which
     * every rank does together), or the launcher takes its end for a
     * fault; when MPI was lost, the helper waits for process 0's end */
    if (hub_helper_pid > 0 && !hub_mpi_lost())
        for (double until = monotonic_seconds() + HUB_FINALIZE_SECONDS + 5;
             monotonic_seconds() < until;) {
            if (waitpid(hub_helper_pid, NULL, WNOHANG) != 0) {
                hub_helper_pid = 0;
                break;
            }
            struct timespec nap = {0, 10000000L};
            nanosleep(&nap, NULL);
        }
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
