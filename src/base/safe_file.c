/* src/base/safe_file.c: writing output files without losing or damaging
 * anything (safe_file.h says how): the check made before a run, the
 * temporary file renamed over a regular target, in-place writing of
 * devices and pipes, and checked flushes. The stream writes through a
 * small sink (fopencookie) that keeps the first write error, which stdio
 * would otherwise lose. Every temporary still open is in a registry, so
 * that a signal that ends the process (SIGINT, SIGTERM) removes it: the
 * handler reads the registry and unlinks, both async-signal-safe. */
#define _GNU_SOURCE /* fopencookie */
#include "base/safe_file.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/util.h"

static void say(char *why, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void say(char *why, size_t len, const char *fmt, ...)
{
    if (!why || !len)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, len, fmt, ap);
    va_end(ap);
}

/* The temporaries open now: a slot holds one's name, or NULL. A name is
 * written whole before its slot is set and its slot cleared before it is
 * freed, so a handler that interrupts either sees a whole name or none.
 * More temporaries than slots open at once are written all the same, and
 * only those in a slot are removed by a signal. */
#define TEMPORARY_SLOTS 64
static char *_Atomic temporaries[TEMPORARY_SLOTS];

static void register_temporary(const char *name)
{
    for (size_t k = 0; k < TEMPORARY_SLOTS; k++) {
        char *none = NULL;
        if (atomic_compare_exchange_strong(&temporaries[k], &none, (char *)name))
            return;
    }
}

static void unregister_temporary(const char *name)
{
    for (size_t k = 0; name && k < TEMPORARY_SLOTS; k++) {
        char *mine = (char *)name;
        if (atomic_compare_exchange_strong(&temporaries[k], &mine, NULL))
            return;
    }
}

void safe_file_remove_temporaries(void)
{
    int saved = errno;
    for (size_t k = 0; k < TEMPORARY_SLOTS; k++) {
        char *name = atomic_exchange(&temporaries[k], NULL);
        if (name)
            unlink(name);
    }
    errno = saved;
}

/* SIGINT or SIGTERM: the temporaries removed, then the signal's own end
 * (the default action, so the exit status says which signal). */
static void remove_and_stop(int sig)
{
    safe_file_remove_temporaries();
    signal(sig, SIG_DFL);
    raise(sig);
}

void safe_file_stop_on_signals(void)
{
    static const int signals[] = {SIGINT, SIGTERM, SIGHUP};
    for (size_t k = 0; k < RB_ARRAY_LEN(signals); k++) {
        struct sigaction sa, old;
        if (sigaction(signals[k], NULL, &old) == 0 && old.sa_handler == SIG_IGN)
            continue; /* ignored (nohup): kept so */
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = remove_and_stop;
        sigemptyset(&sa.sa_mask);
        sa.sa_flags = SA_RESETHAND;
        sigaction(signals[k], &sa, NULL);
    }
}

/* The folder that holds `path`: "." for a bare name. */
static char *folder_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        return xstrdup(".");
    while (slash > path && slash[-1] == '/')
        slash--;
    return slash == path ? xstrdup("/") : xstrndup(path, (size_t)(slash - path));
}

/* Whether a new file can be made in the folder that holds `file`. */
static int check_folder(const char *path, const char *file, char *why, size_t len)
{
    char *folder = folder_of(file);
    struct stat st;
    int rc = -1;
    if (stat(folder, &st) != 0) {
        if (errno == ENOENT)
            say(why, len, "cannot write %s: the folder %s does not exist", path, folder);
        else
            say(why, len, "cannot write %s: %s: %s", path, folder, strerror(errno));
    } else if (!S_ISDIR(st.st_mode)) {
        say(why, len, "cannot write %s: %s is not a folder", path, folder);
    } else if (access(folder, W_OK | X_OK) != 0) {
        if (errno == EACCES)
            say(why, len, "cannot write %s: no permission to write in the folder %s", path,
                folder);
        else
            say(why, len, "cannot write %s: the folder %s: %s", path, folder, strerror(errno));
    } else {
        rc = 0;
    }
    free(folder);
    return rc;
}

int safe_file_check(const char *path, char *why, size_t len)
{
    struct stat st;
    if (!path || !*path) {
        say(why, len, "cannot write '': the file name is empty");
        return -1;
    }
    if (lstat(path, &st) != 0) {
        if (errno != ENOENT && errno != ENOTDIR) {
            say(why, len, "cannot write %s: %s", path, strerror(errno));
            return -1;
        }
        if (path[strlen(path) - 1] == '/') {
            say(why, len, "cannot write %s: a file name cannot end with '/'", path);
            return -1;
        }
        return check_folder(path, path, why, len);
    }
    int linked = S_ISLNK(st.st_mode);
    if (linked && stat(path, &st) != 0) {
        say(why, len, "cannot write %s: it is a link to a file that does not exist", path);
        return -1;
    }
    if (S_ISDIR(st.st_mode)) {
        say(why, len, "cannot write %s: it is a directory", path);
        return -1;
    }
    if (S_ISSOCK(st.st_mode)) {
        say(why, len, "cannot write %s: it is a socket", path);
        return -1;
    }
    if (access(path, W_OK) != 0) {
        if (errno == EACCES)
            say(why, len, "cannot write %s: no permission to write it", path);
        else
            say(why, len, "cannot write %s: %s", path, strerror(errno));
        return -1;
    }
    if (!S_ISREG(st.st_mode))
        return 0; /* written in place */
    char *target = linked ? realpath(path, NULL) : xstrdup(path);
    if (!target) {
        say(why, len, "cannot write %s: %s", path, strerror(errno));
        return -1;
    }
    int rc = check_folder(path, target, why, len);
    free(target);
    return rc;
}

/* The descriptor under a stream, and the first error writing or closing
 * it. */
typedef struct sink {
    int fd;
    int error;
} sink;

static ssize_t sink_write(void *cookie, const char *buf, size_t size)
{
    sink *s = cookie;
    size_t done = 0;
    while (done < size) {
        ssize_t n = write(s->fd, buf + done, size - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            if (!s->error)
                s->error = n < 0 ? errno : EIO;
            return -1;
        }
        done += (size_t)n;
    }
    return (ssize_t)size;
}

static int sink_close(void *cookie)
{
    sink *s = cookie;
    int rc = close(s->fd);
    if (rc != 0 && !s->error)
        s->error = errno;
    s->fd = -1;
    return rc;
}

/* A stream over fd (which it then owns); NULL with fd closed on failure. */
static FILE *open_stream(rb_safe_file *f, int fd)
{
    sink *s = xmalloc(sizeof *s);
    s->fd = fd;
    s->error = 0;
    cookie_io_functions_t io = {.read = NULL, .write = sink_write, .seek = NULL,
                                .close = sink_close};
    FILE *stream = fopencookie(s, "w", io);
    if (!stream) {
        int err = errno;
        close(fd);
        free(s);
        errno = err;
        return NULL;
    }
    f->sink = s;
    return stream;
}

/* Records a failure: the message, errno, and nothing left behind. */
static int fail(rb_safe_file *f, int err, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int fail(rb_safe_file *f, int err, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(f->error, sizeof f->error, fmt, ap);
    va_end(ap);
    safe_file_abort(f);
    errno = err;
    return -1;
}

/* A new temporary next to f->target, with the target's mode and owner (or
 * a new file's mode) so that the rename changes only the contents. */
static int open_temp(rb_safe_file *f, const struct stat *old)
{
    char *folder = folder_of(f->target);
    f->temp = xasprintf("%s/.redbench-XXXXXX", folder);
    int fd = mkstemp(f->temp); /* O_CREAT | O_EXCL: follows no link */
    if (fd >= 0)
        register_temporary(f->temp);
    if (fd < 0) {
        int err = errno;
        free(f->temp);
        f->temp = NULL;
        fail(f, err, "cannot write %s: cannot create a file in %s: %s", f->path, folder,
             strerror(err));
        free(folder);
        return -1;
    }
    free(folder);
    mode_t mode;
    if (old) {
        mode = old->st_mode & 07777;
    } else {
        mode_t mask = umask(0);
        umask(mask);
        mode = 0666 & ~mask;
    }
    (void)fcntl(fd, F_SETFD, FD_CLOEXEC);
    if (fchmod(fd, mode) != 0) {
        int err = errno;
        close(fd);
        return fail(f, err, "cannot write %s: %s", f->path, strerror(err));
    }
    /* Keep the owner of a file replaced by another user (root): best effort,
     * as writing into the file would have kept it. */
    if (old && (old->st_uid != geteuid() || old->st_gid != getegid()) &&
        fchown(fd, old->st_uid, old->st_gid) != 0) {
        /* the file is then owned by whoever wrote it */
    }
    f->stream = open_stream(f, fd);
    if (!f->stream)
        return fail(f, errno, "cannot write %s: %s", f->path, strerror(errno));
    return 0;
}

/* A device, pipe or terminal: opened as it is, never created or replaced.
 * A reader that goes away is a write error, not a SIGPIPE. */
static int open_in_place(rb_safe_file *f)
{
    struct sigaction ignore;
    memset(&ignore, 0, sizeof ignore);
    ignore.sa_handler = SIG_IGN;
    sigemptyset(&ignore.sa_mask);
    if (sigaction(SIGPIPE, &ignore, &f->old_pipe) == 0)
        f->pipe_ignored = 1;
    int fd = open(f->path, O_WRONLY | O_NOCTTY | O_CLOEXEC);
    if (fd < 0) {
        int err = errno;
        return fail(f, err, "cannot write %s: %s", f->path, strerror(err));
    }
    struct stat st;
    if (fstat(fd, &st) != 0 || S_ISREG(st.st_mode) || S_ISDIR(st.st_mode)) {
        close(fd);
        return fail(f, EAGAIN, "cannot write %s: it changed while it was being opened",
                    f->path);
    }
    f->stream = open_stream(f, fd);
    if (!f->stream)
        return fail(f, errno, "cannot write %s: %s", f->path, strerror(errno));
    return 0;
}

int safe_file_open(rb_safe_file *f, const char *path, int flags)
{
    memset(f, 0, sizeof *f);
    f->path = xstrdup(path);
    struct stat st;
    if (!*path)
        return fail(f, ENOENT, "cannot write '': the file name is empty");
    if (lstat(path, &st) != 0) {
        int err = errno;
        if (err != ENOENT)
            return fail(f, err, "cannot write %s: %s", path, strerror(err));
        f->target = xstrdup(path);
        return open_temp(f, NULL);
    }
    int linked = S_ISLNK(st.st_mode);
    if (linked && (flags & RB_SAFE_FILE_NO_FOLLOW)) {
        f->target = xstrdup(path);
        return open_temp(f, NULL);
    }
    if (linked && stat(path, &st) != 0) {
        int err = errno;
        return fail(f, err, "cannot write %s: it is a link to a file that does not exist",
                    path);
    }
    if (S_ISDIR(st.st_mode))
        return fail(f, EISDIR, "cannot write %s: it is a directory", path);
    if (S_ISREG(st.st_mode)) {
        f->target = linked ? realpath(path, NULL) : xstrdup(path);
        if (!f->target) {
            int err = errno;
            return fail(f, err, "cannot write %s: %s", path, strerror(err));
        }
        return open_temp(f, &st);
    }
    if (flags & RB_SAFE_FILE_REGULAR)
        return fail(f, EINVAL, "cannot write %s: it is not a regular file", path);
    return open_in_place(f);
}

/* After the rename: the folder's entry is made durable too (best effort:
 * the file is in place either way). */
static void sync_folder(const char *file)
{
    char *folder = folder_of(file);
    int fd = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd >= 0) {
        if (fsync(fd) != 0) {
            /* some file systems cannot sync a folder */
        }
        close(fd);
    }
    free(folder);
}

int safe_file_commit(rb_safe_file *f)
{
    if (!f->stream)
        return fail(f, EBADF, "cannot write %s: it is not open", f->path ? f->path : "");
    sink *s = f->sink;
    int failed = fflush(f->stream) != 0 || ferror(f->stream);
    if (!failed && f->temp && fsync(s->fd) != 0 && !s->error)
        s->error = errno;
    failed |= fclose(f->stream) != 0;
    f->stream = NULL;
    int err = s->error ? s->error : failed ? EIO : 0;
    if (!err && f->temp) {
        if (rename(f->temp, f->target) != 0) {
            err = errno;
        } else {
            unregister_temporary(f->temp);
            free(f->temp);
            f->temp = NULL; /* it is the target now */
            sync_folder(f->target);
        }
    }
    if (err)
        return fail(f, err, "cannot write %s: %s", f->path, strerror(err));
    safe_file_abort(f); /* releases the rest */
    return 0;
}

void safe_file_abort(rb_safe_file *f)
{
    int saved = errno;
    if (f->stream)
        fclose(f->stream);
    f->stream = NULL;
    if (f->temp) {
        unlink(f->temp);
        unregister_temporary(f->temp);
    }
    free(f->sink);
    f->sink = NULL;
    if (f->pipe_ignored)
        sigaction(SIGPIPE, &f->old_pipe, NULL);
    f->pipe_ignored = 0;
    free(f->temp);
    free(f->target);
    free(f->path);
    f->temp = f->target = f->path = NULL;
    errno = saved;
}

int safe_file_fail(rb_safe_file *f, const char *reason)
{
    sink *s = f->sink;
    if (f->stream)
        fflush(f->stream); /* what is buffered, to learn its error */
    int err = s && s->error ? s->error : EIO;
    return fail(f, err, "cannot write %s: %s", f->path ? f->path : "",
                s && s->error ? strerror(s->error) : reason);
}

int safe_file_flush(FILE *stream, const char *name, char *why, size_t len)
{
    if (fflush(stream) != 0) {
        int err = errno;
        say(why, len, "cannot write %s: %s", name, strerror(err));
        errno = err;
        return -1;
    }
    if (ferror(stream)) {
        /* an earlier write failed; stdio keeps no errno for it */
        say(why, len, "cannot write %s: a write failed, so what is there is incomplete", name);
        errno = EIO;
        return -1;
    }
    return 0;
}

int make_folders(const char *dir, unsigned mode)
{
    char *path = xstrdup(dir);
    int status = 0;
    for (char *p = path + 1; status == 0; p++) {
        if (*p != '/' && *p != '\0')
            continue;
        char saved = *p;
        *p = '\0';
        if (mkdir(path, (mode_t)mode) != 0 && errno != EEXIST)
            status = -1;
        *p = saved;
        if (saved == '\0')
            break;
    }
    free(path);
    struct stat st;
    if (status == 0 && (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))) {
        errno = ENOTDIR;
        status = -1;
    }
    return status;
}
