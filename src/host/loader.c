/* src/host/loader.c: loading a plugin file, which runs its code. A file is
 * opened only when it is a regular file; its entry point gives a
 * descriptor, which is checked (descriptor_check.c) and serialized
 * (descriptor_wire.c). For discovery the loading process does it (forked,
 * in its own process group, its standard streams on /dev/null, no other
 * descriptor of the host's but its socket): it opens
 * one file at a time as asked over a socket and sends back the serialized
 * descriptor or the reason it was rejected; one that dies or does not
 * answer within REDBENCH_LOAD_TIMEOUT seconds (default 10) is killed, and
 * the next question starts a fresh one. A worker that runs configurations
 * loads its plugin's code, and that of the backend it names, into its own
 * process with registry_load_code, which checks that the file still gives
 * the descriptor discovery saw; --isolation none loads every accepted file
 * here (registry_load_here); tests and fuzzing load one file here,
 * unchecked by a loading process (registry_load_file). What plugin code
 * prints while it loads in this process goes to standard error. */
#include "host/loader.h"
#include "base/diag.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

#include "base/descriptors.h"
#include "base/units.h"
#include "base/util.h"
#include "host/descriptor_check.h"
#include "host/registry_internal.h"

/* Seconds a file may take to load (constructors and entry point), unless
 * REDBENCH_LOAD_TIMEOUT says otherwise. */
#define LOAD_TIMEOUT_DEFAULT 10.0
/* The largest answer a loading process may send. */
#define ANSWER_MAX (8u << 20)

/* ---- files ---- */

static const char *file_kind(mode_t mode)
{
    return S_ISFIFO(mode) ? "a named pipe" : S_ISCHR(mode) ? "a character device"
         : S_ISBLK(mode) ? "a block device" : S_ISSOCK(mode) ? "a socket"
         : S_ISDIR(mode) ? "a folder" : "not a regular file";
}

/* Opens path for reading when it is a regular file (after links) of at
 * most max_size bytes (0: any size): opened without blocking and checked
 * again on the open file, so that a named pipe or a device is never read.
 * Returns the descriptor, or -1 with the reason in why. */
int open_regular(const char *path, off_t max_size, char *why, size_t why_len)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        snprintf(why, why_len, "cannot be read: %s", strerror(errno));
        return -1;
    }
    if (!S_ISREG(st.st_mode)) {
        snprintf(why, why_len, "not a regular file (%s); only regular files are opened",
                 file_kind(st.st_mode));
        return -1;
    }
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (fd < 0) {
        snprintf(why, why_len, "cannot be read: %s", strerror(errno));
        return -1;
    }
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        snprintf(why, why_len, "not a regular file (%s); only regular files are opened",
                 file_kind(st.st_mode));
        close(fd);
        return -1;
    }
    if (max_size > 0 && st.st_size > max_size) {
        snprintf(why, why_len, "is %lld bytes, more than the %lld allowed",
                 (long long)st.st_size, (long long)max_size);
        close(fd);
        return -1;
    }
    return fd;
}

int regular_file(const char *path, char *why, size_t why_len)
{
    int fd = open_regular(path, 0, why, why_len);
    if (fd < 0)
        return 0;
    close(fd);
    return 1;
}

/* ---- opening a file (this runs its code) ---- */

static const char *dl_reason(const char *err)
{
    if (err && (strstr(err, "invalid ELF header") || strstr(err, "file too short") ||
                strstr(err, "not a dynamic")))
        return "not a shared object";
    return "cannot be loaded";
}

/* Opens a shared object, calls its entry point and checks the descriptor:
 * appends it, serialized, to blob and returns what it is, with the handle
 * and the descriptor; or PROBE_REJECTED with the reason in why (the file is
 * closed). Runs the file's code: constructors, the entry point. */
static int probe_file(const char *path, bytes *blob, char *why, size_t why_len,
                      void **handle, const void **desc)
{
    *handle = NULL;
    *desc = NULL;
    if (!regular_file(path, why, why_len))
        return PROBE_REJECTED;
    dlerror();
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        const char *err = dlerror();
        snprintf(why, why_len, "%s: %s", dl_reason(err), err ? err : "unknown dlopen error");
        return PROBE_REJECTED;
    }
    rb_plugin_entry_fn plugin_entry;
    rb_backend_entry_fn backend_entry;
    *(void **)&plugin_entry = dlsym(h, REDBENCH_PLUGIN_ENTRY_NAME);
    *(void **)&backend_entry = dlsym(h, REDBENCH_BACKEND_ENTRY_NAME);

    rb_registry scratch; /* collects the reason */
    memset(&scratch, 0, sizeof scratch);
    int kind = PROBE_REJECTED;
    snprintf(why, why_len, "rejected");
    if (plugin_entry) {
        const rb_plugin *d = plugin_entry();
        if (!d) {
            snprintf(why, why_len, "%s() returned no descriptor", REDBENCH_PLUGIN_ENTRY_NAME);
        } else if (version_ok(&scratch, path, "plugin", d->abi_major, d->abi_minor, d->size,
                              PLUGIN_SIZE_1_0)) {
            rb_plugin copy;
            copy_descriptor(&copy, sizeof copy, d, d->size);
            uint32_t callbacks = plugin_callbacks(&copy);
            if (plugin_ok(&scratch, path, &copy, callbacks)) {
                put_plugin(blob, &copy, callbacks);
                kind = PROBE_PLUGIN;
                *desc = d;
            }
        }
    } else if (backend_entry) {
        const rb_backend *d = backend_entry();
        if (!d) {
            snprintf(why, why_len, "%s() returned no descriptor", REDBENCH_BACKEND_ENTRY_NAME);
        } else if (version_ok(&scratch, path, "backend", d->abi_major, d->abi_minor, d->size,
                              BACKEND_SIZE_1_0)) {
            rb_backend copy;
            copy_descriptor(&copy, sizeof copy, d, d->size);
            uint32_t callbacks = backend_callbacks(&copy);
            if (backend_ok(&scratch, path, &copy, callbacks)) {
                put_backend(blob, &copy, callbacks);
                kind = PROBE_BACKEND;
                *desc = d;
            }
        }
    } else {
        snprintf(why, why_len, "no entry point: exports neither %s nor %s (not a redbench "
                 "plugin)", REDBENCH_PLUGIN_ENTRY_NAME, REDBENCH_BACKEND_ENTRY_NAME);
    }
    if (kind == PROBE_REJECTED && scratch.n_rejected)
        snprintf(why, why_len, "%s", scratch.rejected[0].reason);
    registry_free(&scratch);
    if (kind == PROBE_REJECTED)
        dlclose(h);
    else
        *handle = h;
    return kind;
}

/* ---- the loading process ---- */

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* REDBENCH_LOAD_TIMEOUT when it is a positive number of seconds, else 10. */
double load_timeout(void)
{
    const char *env = getenv("REDBENCH_LOAD_TIMEOUT");
    double t;
    const char *why;
    if (env && *env && parse_double(env, &t, &why) == 0 && t > 0 && t < 86400)
        return t;
    return LOAD_TIMEOUT_DEFAULT;
}

/* The loading process: reads a path, opens the file, answers with its
 * kind and the serialized descriptor (or the reason it was rejected), until
 * the socket closes. Never returns. */
static void loader_main(int fd)
{
#ifdef __linux__
    prctl(PR_SET_PDEATHSIG, SIGKILL);
#endif
    setpgid(0, 0);
    int null = open("/dev/null", O_RDWR | O_CLOEXEC);
    if (null < 0 || dup2(null, STDIN_FILENO) < 0 || dup2(null, STDOUT_FILENO) < 0 ||
        dup2(null, STDERR_FILENO) < 0)
        _exit(3);
    /* the plugins it loads get its socket and the standard streams, nothing
     * else the host had open (results, the caller's descriptors) */
    descriptors_close_all_but(&fd, 1);
    signal(SIGPIPE, SIG_DFL);
    for (;;) {
        uint32_t len;
        if (read_full(fd, &len, sizeof len) != 0)
            _exit(0);
        if (len == 0 || len > PATH_MAX * 4)
            _exit(3);
        char *path = xmalloc((size_t)len + 1);
        if (read_full(fd, path, len) != 0)
            _exit(3);
        path[len] = '\0';
        bytes answer = {0}, blob = {0};
        char why[1024];
        void *handle;
        const void *real;
        uint32_t kind = (uint32_t)probe_file(path, &blob, why, sizeof why, &handle, &real);
        /* the file stays open: its destructors never run here */
        const void *payload = kind == PROBE_REJECTED ? (const void *)why : blob.data;
        uint32_t size = kind == PROBE_REJECTED ? (uint32_t)strlen(why) : (uint32_t)blob.len;
        bytes_put_u32(&answer, kind);
        bytes_put_u32(&answer, size);
        bytes_put(&answer, payload, size);
        if (write_full(fd, answer.data, answer.len) != 0)
            _exit(3);
        free(answer.data);
        free(blob.data);
        free(path);
    }
}

static int loader_start(loader *ld, char *why, size_t why_len)
{
    int fds[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) != 0) {
        snprintf(why, why_len, "cannot make a socket for the loading process: %s",
                 strerror(errno));
        return -1;
    }
    fflush(NULL); /* what is buffered must not be written twice */
    pid_t pid = fork();
    if (pid < 0) {
        snprintf(why, why_len, "cannot start a loading process: %s", strerror(errno));
        close(fds[0]);
        close(fds[1]);
        return -1;
    }
    if (pid == 0) {
        close(fds[0]);
        loader_main(fds[1]);
    }
    setpgid(pid, pid); /* also done by the child: whichever runs first */
    close(fds[1]);
    ld->pid = pid;
    ld->fd = fds[0];
    ld->len = 0;
    return 0;
}

/* Whether the process has ended (it is left to be reaped). */
static int has_ended(pid_t pid)
{
    siginfo_t info;
    memset(&info, 0, sizeof info);
    return waitid(P_PID, (id_t)pid, &info, WEXITED | WNOHANG | WNOWAIT) == 0 && info.si_pid == pid;
}

/* Ends the loading process: kills it unless it has ended (or, with grace,
 * ends within grace seconds), kills what else runs in its process group,
 * reaps it and returns its wait status. */
int loader_end(loader *ld, double grace)
{
    int status = 0;
    if (!ld->pid)
        return 0;
    close(ld->fd);
    ld->fd = -1;
    double until = now_seconds() + grace;
    while (!has_ended(ld->pid) && now_seconds() < until) {
        struct timespec nap = {0, 2000000};
        nanosleep(&nap, NULL);
    }
    kill(ld->pid, SIGKILL); /* a no-op on one that has ended and is not reaped */
    siginfo_t info;
    while (waitid(P_PID, (id_t)ld->pid, &info, WEXITED | WNOWAIT) < 0 && errno == EINTR)
        ;
    killpg(ld->pid, SIGKILL); /* before the reaping frees its number */
    while (waitpid(ld->pid, &status, 0) < 0 && errno == EINTR)
        ;
    ld->pid = 0;
    return status;
}

/* Asks the loading process (started when there is none) to open path.
 * Returns what it is, with the serialized descriptor or the reason in
 * *out; a loading process that dies or does not answer in time is ended,
 * and the reason names what happened. */
int loader_ask(loader *ld, const char *path, bytes *out)
{
    char why[512];
    out->len = 0;
    if (!ld->pid && loader_start(ld, why, sizeof why) != 0) {
        bytes_put(out, why, strlen(why));
        return PROBE_REJECTED;
    }
    uint32_t len = (uint32_t)strlen(path);
    int sent = write_full(ld->fd, &len, sizeof len) == 0 && write_full(ld->fd, path, len) == 0;
    double deadline = now_seconds() + ld->timeout;
    int closed = !sent;
    for (;;) {
        /* a whole answer? */
        if (ld->len >= 8) {
            uint32_t kind, size;
            memcpy(&kind, ld->buf, 4);
            memcpy(&size, ld->buf + 4, 4);
            if (size > ANSWER_MAX || kind > PROBE_BACKEND) {
                loader_end(ld, 0);
                snprintf(why, sizeof why, "its loading process sent a malformed answer");
                bytes_put(out, why, strlen(why));
                return PROBE_REJECTED;
            }
            if (ld->len - 8 >= size) {
                bytes_put(out, ld->buf + 8, size);
                ld->len -= 8 + (size_t)size;
                memmove(ld->buf, ld->buf + 8 + size, ld->len);
                return (int)kind;
            }
        }
        if (closed || has_ended(ld->pid)) {
            /* what it sent before it ended is all there is */
            int status = loader_end(ld, 0.5);
            if (WIFSIGNALED(status))
                snprintf(why, sizeof why, "killed by %s while loading",
                         signal_name(WTERMSIG(status)));
            else if (WIFEXITED(status))
                snprintf(why, sizeof why, "exited with status %d while loading (its code "
                         "ended the process)", WEXITSTATUS(status));
            else
                snprintf(why, sizeof why, "ended while loading");
            bytes_put(out, why, strlen(why));
            return PROBE_REJECTED;
        }
        double left = deadline - now_seconds();
        if (left <= 0) {
            loader_end(ld, 0);
            snprintf(why, sizeof why, "did not load within %g s (killed)", ld->timeout);
            bytes_put(out, why, strlen(why));
            return PROBE_REJECTED;
        }
        struct pollfd pfd = {.fd = ld->fd, .events = POLLIN};
        int wait_ms = left > 0.1 ? 100 : (int)(left * 1000) + 1;
        if (poll(&pfd, 1, wait_ms) > 0) {
            if (ld->cap - ld->len < 65536) {
                ld->cap = ld->cap ? 2 * ld->cap : 131072;
                ld->buf = xrealloc(ld->buf, ld->cap);
            }
            ssize_t got = read(ld->fd, ld->buf + ld->len, ld->cap - ld->len);
            if (got > 0)
                ld->len += (size_t)got;
            else if (got == 0 || (errno != EINTR && errno != EAGAIN))
                closed = 1;
            if (ld->len > ANSWER_MAX + 8) {
                loader_end(ld, 0);
                snprintf(why, sizeof why, "its loading process sent a malformed answer");
                bytes_put(out, why, strlen(why));
                return PROBE_REJECTED;
            }
        }
    }
}

/* ---- what a loaded file gives, kept ---- */

/* The folder part of a path ("." for a bare file name). */
static char *folder_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        return xstrdup(".");
    return xstrndup(path, slash == path ? 1 : (size_t)(slash - path));
}

/* A copy of a descriptor's blob, kept to hand to workers. */
static unsigned char *copy_blob(const unsigned char *blob, size_t len, size_t *out_len)
{
    unsigned char *copy = xmalloc(len ? len : 1);
    memcpy(copy, blob, len);
    *out_len = len;
    return copy;
}

/* Keeps a serialized descriptor (from a loading process, so checked again
 * here) as the plugin or backend at path. */
int accept_blob(rb_registry *reg, const char *path, const char *pack,
                const unsigned char *blob, size_t len)
{
    rb_plugin *plugin;
    rb_backend *backend;
    uint32_t callbacks;
    uint32_t kind = descriptor_read(blob, len, &plugin, &backend, &callbacks);
    if (kind == BLOB_PLUGIN) {
        rb_plugin *d = plugin;
        if (!version_ok(reg, path, "plugin", d->abi_major, d->abi_minor, d->size,
                        PLUGIN_SIZE_1_0) ||
            !plugin_ok(reg, path, d, callbacks)) {
            free_plugin_data(d);
            return ACCEPT_REJECTED;
        }
        d->dtypes &= dtypes_of_abi(d->abi_minor);
        const rb_loaded_plugin *same = find_in_pack(reg, pack, d->name);
        if (same) {
            note_shadowed(reg, path, same->path);
            free_plugin_data(d);
            return ACCEPT_SHADOWED;
        }
        char *dir = folder_of(path);
        note_pack(reg, pack, dir);
        free(dir);
        rb_loaded_plugin *p = grow(&reg->plugins, &reg->n_plugins, &reg->cap_plugins, sizeof *p);
        p->path = xstrdup(path);
        p->pack = xstrdup(pack);
        p->desc = d;
        p->blob = copy_blob(blob, len, &p->blob_len);
        p->registry = reg;
        return ACCEPT_PLUGIN;
    }
    if (kind == BLOB_BACKEND) {
        rb_backend *d = backend;
        if (!version_ok(reg, path, "backend", d->abi_major, d->abi_minor, d->size,
                        BACKEND_SIZE_1_0) ||
            !backend_ok(reg, path, d, callbacks)) {
            free_backend_data(d);
            return ACCEPT_REJECTED;
        }
        const rb_loaded_backend *same = registry_backend(reg, d->name);
        if (same) { /* a backend of that name came from an earlier folder */
            note_shadowed(reg, path, same->path);
            free_backend_data(d);
            return ACCEPT_SHADOWED;
        }
        rb_loaded_backend *b = grow(&reg->backends, &reg->n_backends, &reg->cap_backends,
                                    sizeof *b);
        b->path = xstrdup(path);
        b->pack = xstrdup(pack);
        b->desc = d;
        b->blob = copy_blob(blob, len, &b->blob_len);
        return ACCEPT_BACKEND;
    }
    reject(reg, path, "its loading process sent a malformed descriptor");
    return ACCEPT_REJECTED;
}

/* ---- a file's code loaded in this process ---- */

/* Gives a kept descriptor the code of the file: the callbacks (and every
 * field past the texts) come from the loaded descriptor, the texts stay
 * the kept ones, equal to them. */
static void attach_plugin_code(rb_loaded_plugin *p, void *handle, const rb_plugin *real)
{
    rb_plugin *own = (rb_plugin *)p->desc;
    rb_plugin code;
    copy_descriptor(&code, sizeof code, real, real->size);
    code.name = own->name;
    code.summary = own->summary;
    code.version = own->version;
    code.backend = own->backend;
    code.params = own->params;
    code.n_params = own->n_params;
    *own = code;
    p->handle = handle;
}

static void attach_backend_code(rb_loaded_backend *b, void *handle, const rb_backend *real)
{
    rb_backend *own = (rb_backend *)b->desc;
    rb_backend code;
    copy_descriptor(&code, sizeof code, real, real->size);
    code.name = own->name;
    code.summary = own->summary;
    code.version = own->version;
    *own = code;
    b->handle = handle;
}

/* Runs fn with standard output pointing at standard error: what plugin
 * code prints while it loads must not reach machine-readable output. */
static int saved_stdout = -1;

static void stdout_to_stderr(void)
{
    fflush(stdout);
    saved_stdout = dup(STDOUT_FILENO);
    if (saved_stdout >= 0)
        dup2(STDERR_FILENO, STDOUT_FILENO);
}

static void stdout_back(void)
{
    fflush(stdout);
    if (saved_stdout >= 0) {
        dup2(saved_stdout, STDOUT_FILENO);
        close(saved_stdout);
    }
    saved_stdout = -1;
}

int registry_load_file(rb_registry *reg, const char *path, const char *pack)
{
    if (known_path(reg, path))
        return 0;
    bytes blob = {0};
    char why[1024];
    void *handle;
    const void *real;
    stdout_to_stderr();
    int kind = probe_file(path, &blob, why, sizeof why, &handle, &real);
    stdout_back();
    if (kind == PROBE_REJECTED) {
        reject(reg, path, "%s", why);
        return -1;
    }
    int accepted = accept_blob(reg, path, pack, blob.data, blob.len);
    free(blob.data);
    if (accepted == ACCEPT_PLUGIN && kind == PROBE_PLUGIN)
        attach_plugin_code(&reg->plugins[reg->n_plugins - 1], handle, real);
    else if (accepted == ACCEPT_BACKEND && kind == PROBE_BACKEND)
        attach_backend_code(&reg->backends[reg->n_backends - 1], handle, real);
    else
        dlclose(handle);
    return accepted == ACCEPT_REJECTED ? -1 : 0;
}

/* Loads the file of a kept descriptor and checks that it gives the same
 * descriptor. Returns the handle and the loaded descriptor, or NULL with
 * the reason. */
static void *load_same(const char *path, const unsigned char *blob, size_t blob_len, int want,
                       const void **real, char *why, size_t why_len)
{
    bytes now = {0};
    void *handle;
    char reason[1024];
    int kind = probe_file(path, &now, reason, sizeof reason, &handle, real);
    if (kind == PROBE_REJECTED) {
        snprintf(why, why_len, "%s can no longer be loaded: %s", path, reason);
        free(now.data);
        return NULL;
    }
    int same = kind == want && now.len == blob_len && memcmp(now.data, blob, blob_len) == 0;
    free(now.data);
    if (!same) {
        dlclose(handle);
        snprintf(why, why_len, "%s changed since it was discovered: it gives another descriptor "
                 "now", path);
        return NULL;
    }
    return handle;
}

static int load_backend_code(rb_loaded_backend *b, char *why, size_t why_len)
{
    if (b->handle || !b->blob)
        return 0;
    const void *real;
    void *handle = load_same(b->path, b->blob, b->blob_len, PROBE_BACKEND, &real, why, why_len);
    if (!handle)
        return -1;
    attach_backend_code(b, handle, real);
    return 0;
}

static int load_plugin_code(rb_loaded_plugin *p, char *why, size_t why_len)
{
    if (p->handle || !p->blob)
        return 0;
    const void *real;
    void *handle = load_same(p->path, p->blob, p->blob_len, PROBE_PLUGIN, &real, why, why_len);
    if (!handle)
        return -1;
    attach_plugin_code(p, handle, real);
    return 0;
}

int registry_load_code(const rb_loaded_plugin *p, char *why, size_t why_len)
{
    rb_loaded_plugin *own = (rb_loaded_plugin *)p;
    if (load_plugin_code(own, why, why_len) != 0)
        return -1;
    if (!p->registry || strcmp(p->desc->backend, "cpu") == 0)
        return 0;
    rb_loaded_backend *b = find_backend(p->registry, p->desc->backend);
    char reason[1024];
    if (b && load_backend_code(b, reason, sizeof reason) != 0) {
        snprintf(why, why_len, "its backend '%s': %s", p->desc->backend, reason);
        return -1;
    }
    return 0;
}

void registry_load_here(rb_registry *reg)
{
    char why[1200];
    stdout_to_stderr();
    for (size_t k = 0; k < reg->n_backends; k++)
        if (load_backend_code(&reg->backends[k], why, sizeof why) != 0) {
            char *shown = printable_text(why);
            diag_warn("%s", shown);
            free(shown);
        }
    for (size_t k = 0; k < reg->n_plugins; k++)
        if (load_plugin_code(&reg->plugins[k], why, sizeof why) != 0) {
            char *shown = printable_text(why);
            diag_warn("%s; its configurations fail", shown);
            free(shown);
        }
    stdout_back();
}
