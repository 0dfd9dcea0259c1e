/* src/base/safe_file.h: the files redbench writes (results, the tuned
 * experiment and its winner map, the peak cache), written so that nothing
 * is lost and nothing else is damaged.
 *
 * A regular file, or a path that does not exist yet, is written to a new
 * temporary file in the same folder (created with O_EXCL under an
 * unpredictable name, so no link is followed and no file is overwritten)
 * and renamed over the target once it is whole: a reader sees the old file
 * or the new one, never half of one. A link to a regular file replaces the
 * file it points to, and stays a link. Anything else (a character device
 * such as /dev/null, a pipe, a terminal, or a link to one) is written in
 * place: opened without O_CREAT, never replaced or renamed over. Every
 * write, flush, sync and close is checked; a failure leaves the target as
 * it was (when it is replaced) and says why, naming the path. The folders
 * they go in (the peak cache's, plot's) are made with make_folders. */
#ifndef RB_SAFE_FILE_H
#define RB_SAFE_FILE_H

#include <signal.h>
#include <stddef.h>
#include <stdio.h>

typedef struct rb_safe_file {
    FILE *stream;       /* write here between open and commit */
    char *path;         /* as given */
    char *target;       /* the file the temporary replaces: path, or where
                           a link to a regular file points */
    char *temp;         /* the temporary; NULL when written in place */
    void *sink;         /* the descriptor under stream, and its first error */
    int pipe_ignored;   /* SIGPIPE is ignored while writing in place */
    struct sigaction old_pipe;
    char error[768];    /* why the last call failed: "cannot write PATH: ..." */
} rb_safe_file;

/* Flags of safe_file_open. */
enum {
    RB_SAFE_FILE_REGULAR = 1,  /* refuse anything but a regular file or a new
                                  path (a cache file is never a device) */
    RB_SAFE_FILE_NO_FOLLOW = 2 /* a link at the path is replaced by the new
                                  file, never followed (plot's figures) */
};

/* Whether `path` can be written, checked before any work is done: a
 * missing folder, a folder, a folder without write permission or a link to
 * nothing is refused. Opens nothing (a pipe is not opened, so nothing
 * waits for a reader). Returns 0, or -1 with why ("cannot write PATH: the
 * folder DIR does not exist") in `why`. */
int safe_file_check(const char *path, char *why, size_t why_len);

/* Opens `path` for writing as described above. Returns 0 with f->stream
 * set, or -1 with f->error and errno set (nothing is left behind). */
int safe_file_open(rb_safe_file *f, const char *path, int flags);

/* Flushes, syncs and closes the stream and renames the temporary over the
 * target. Returns 0, or -1 with f->error and errno set; the temporary is
 * removed either way. */
int safe_file_commit(rb_safe_file *f);

/* Closes the stream and removes the temporary: the target is unchanged. */
void safe_file_abort(rb_safe_file *f);

/* The same, when writing failed: f->error says why, from the first write
 * error, else `reason`. Returns -1. */
int safe_file_fail(rb_safe_file *f, const char *reason);

/* Flushes an open stream (standard output) and checks that every write to
 * it succeeded. Returns 0, or -1 with "cannot write NAME: ..." in `why`. */
int safe_file_flush(FILE *stream, const char *name, char *why, size_t why_len);

/* Removes every temporary still open (written, not yet committed or
 * aborted). Async-signal-safe: a command's own handler of SIGINT or
 * SIGTERM that ends the process calls it first, so that an interrupted
 * write leaves no temporary behind. */
void safe_file_remove_temporaries(void);

/* For a command with no handler of its own (report, plot): SIGINT, SIGTERM
 * and SIGHUP remove the open temporaries (safe_file_remove_temporaries)
 * and then end the process as the signal does by default. A signal that
 * is ignored (nohup) stays ignored. */
void safe_file_stop_on_signals(void);

/* Creates a folder and its parents (mkdir -p) with `mode`, those that
 * exist kept. Returns 0 when `dir` is a folder then, else -1 with errno
 * (ENOTDIR: it exists, and is not a folder). */
int make_folders(const char *dir, unsigned mode);

#endif
