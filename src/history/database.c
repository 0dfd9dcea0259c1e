/* src/history/database.c: a history opened (history/database.h): the file
 * checked before SQLite is given it (missing, a folder, not a database),
 * then its application id and schema version; a new or empty file gets
 * the schema in one transaction, so that processes creating the same
 * history at once make it once. */
#include "history/database.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/diag.h"
#include "base/util.h"

int history_error(const rb_history *h, const char *what)
{
    diag_error("%s: %s: %s", h->path, what, h->db ? sqlite3_errmsg(h->db) : "cannot open");
    return -1;
}

int history_is_database_file(const char *path)
{
    static const char magic[16] = "SQLite format 3";
    char head[16];
    /* without waiting on a pipe or a device: only a regular file is one */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return 0;
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        return 0;
    }
    ssize_t got = read(fd, head, sizeof head);
    close(fd);
    return got == (ssize_t)sizeof head && memcmp(head, magic, sizeof head) == 0;
}

/* How long to wait for another process's lock: REDBENCH_HISTORY_WAIT
 * (seconds) where set, else RB_HISTORY_BUSY_MS. */
static int busy_ms(void)
{
    const char *env = getenv("REDBENCH_HISTORY_WAIT");
    char *end;
    double s = env && *env ? strtod(env, &end) : -1;
    if (env && *env && *end == '\0' && s >= 0 && s <= 3600)
        return (int)(s * 1000);
    return RB_HISTORY_BUSY_MS;
}

static int int_pragma(rb_history *h, const char *sql, long long *out)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(h->db, sql, -1, &st, NULL) != SQLITE_OK)
        return -1;
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW)
        *out = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    return rc == SQLITE_ROW ? 0 : -1;
}

/* What the open file holds: 0 a history of this schema, 1 nothing yet (a
 * new file: no table), or -1 after saying why it is not one we can use. */
static int identify(rb_history *h)
{
    long long app = 0, version = 0, tables = 0;
    /* the three read in one transaction: one state of the file, not one
     * before and one after another process created its schema */
    int own = sqlite3_get_autocommit(h->db) &&
              sqlite3_exec(h->db, "BEGIN", NULL, NULL, NULL) == SQLITE_OK;
    int failed = int_pragma(h, "PRAGMA application_id", &app) != 0 ||
                 int_pragma(h, "PRAGMA user_version", &version) != 0 ||
                 int_pragma(h, "SELECT count(*) FROM sqlite_master", &tables) != 0;
    int code = sqlite3_errcode(h->db);
    if (own)
        sqlite3_exec(h->db, "COMMIT", NULL, NULL, NULL);
    if (failed) {
        if (code == SQLITE_BUSY || code == SQLITE_LOCKED)
            return history_error(h, "the history is locked by another process; nothing was "
                                    "changed");
        return history_error(h, "not a valid SQLite database (damaged or truncated); nothing "
                                "was changed");
    }
    if (app == 0 && tables == 0 && version == 0)
        return 1;
    if (app != RB_HISTORY_APPLICATION_ID) {
        diag_error("%s: not a redbench history: an SQLite database of another program "
                   "(application id %lld, not %d); nothing was changed",
                   h->path, app, RB_HISTORY_APPLICATION_ID);
        return -1;
    }
    if (version > RB_HISTORY_SCHEMA_VERSION) {
        diag_error("%s: a history of schema version %lld, newer than this redbench's (%d): "
                   "use a newer redbench; nothing was changed",
                   h->path, version, RB_HISTORY_SCHEMA_VERSION);
        return -1;
    }
    if (version < 1) {
        diag_error("%s: a redbench history without a schema version (user_version %lld); "
                   "nothing was changed", h->path, version);
        return -1;
    }
    return 0;
}

/* The schema, once, in a transaction that holds the write lock from its
 * start: a second process creating the same file waits, then finds it. */
static int create_schema(rb_history *h)
{
    if (sqlite3_exec(h->db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK)
        return history_error(h, "cannot begin to create the history");
    int kind = identify(h);
    if (kind == 1) {
        char *sql = xasprintf("%s"
                              "INSERT INTO redbench_history VALUES ('schema_version', '%d');\n"
                              "INSERT INTO redbench_history VALUES ('created', "
                              "strftime('%%Y-%%m-%%dT%%H:%%M:%%SZ', 'now'));\n"
                              "PRAGMA application_id = %d;\n"
                              "PRAGMA user_version = %d;\n",
                              history_schema_sql, RB_HISTORY_SCHEMA_VERSION,
                              RB_HISTORY_APPLICATION_ID, RB_HISTORY_SCHEMA_VERSION);
        int rc = sqlite3_exec(h->db, sql, NULL, NULL, NULL);
        free(sql);
        if (rc != SQLITE_OK) {
            history_error(h, "cannot create the history's tables");
            sqlite3_exec(h->db, "ROLLBACK", NULL, NULL, NULL);
            return -1;
        }
        kind = 0;
    }
    if (kind != 0) {
        sqlite3_exec(h->db, "ROLLBACK", NULL, NULL, NULL);
        return -1;
    }
    if (sqlite3_exec(h->db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK) {
        history_error(h, "cannot create the history");
        sqlite3_exec(h->db, "ROLLBACK", NULL, NULL, NULL);
        return -1;
    }
    return 0;
}

/* What can be said of the path before SQLite opens it: 0, or -1 after
 * saying why not. A file that is there must be a database (or empty, to
 * write); a missing one is made only to write, in a folder that exists. */
static int check_file(const char *path, int mode, int *exists)
{
    struct stat st;
    *exists = stat(path, &st) == 0;
    if (!*exists) {
        if (mode == RB_HISTORY_READ) {
            diag_error("%s: no such history: %s", path, strerror(errno));
            return -1;
        }
        return 0;
    }
    if (!S_ISREG(st.st_mode)) {
        diag_error("%s: not a history: not a regular file", path);
        return -1;
    }
    if (st.st_size == 0 && mode == RB_HISTORY_READ) {
        diag_error("%s: not a history: an empty file (no run was ever added)", path);
        return -1;
    }
    if (st.st_size > 0 && !history_is_database_file(path)) {
        diag_error("%s: not a redbench history: not an SQLite database (a history is made by "
                   "-o FILE.db or `redbench history add`); nothing was changed", path);
        return -1;
    }
    /* read-only by its mode even to root, whom access() lets write */
    if (mode != RB_HISTORY_READ && (access(path, W_OK) != 0 || !(st.st_mode & 0222))) {
        diag_error("%s: cannot add to the history: the file is read-only (mode %04o); nothing "
                   "was changed", path, (unsigned)(st.st_mode & 07777));
        return -1;
    }
    return 0;
}

/* The folder of `path`, where SQLite writes its journal beside the file. */
static int check_folder(const char *path)
{
    char *dir = xstrdup(path);
    char *slash = strrchr(dir, '/');
    const char *folder = slash ? (slash == dir ? "/" : (*slash = '\0', dir)) : ".";
    int ok = access(folder, W_OK | X_OK) == 0;
    if (!ok)
        diag_error("%s: cannot add to the history: its folder %s cannot be written (%s), and "
                   "a history keeps its journal there; nothing was changed",
                   path, folder, strerror(errno));
    free(dir);
    return ok ? 0 : -1;
}

int history_open(rb_history *h, const char *path, int mode)
{
    memset(h, 0, sizeof *h);
    h->path = path;
    int exists;
    if (check_file(path, mode, &exists) != 0)
        return -1;
    if (mode != RB_HISTORY_READ && check_folder(path) != 0)
        return -1;
    if (mode == RB_HISTORY_CHECK && !exists)
        return 0;
    int flags = mode == RB_HISTORY_READ    ? SQLITE_OPEN_READONLY
                : mode == RB_HISTORY_CHECK ? SQLITE_OPEN_READWRITE
                                           : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;
    if (sqlite3_open_v2(path, &h->db, flags, NULL) != SQLITE_OK) {
        history_error(h, "cannot open the history");
        history_close(h);
        return -1;
    }
    sqlite3_busy_timeout(h->db, busy_ms());
    if (mode != RB_HISTORY_READ && sqlite3_db_readonly(h->db, "main") == 1) {
        diag_error("%s: cannot add to the history: it opens read-only; nothing was changed",
                   path);
        history_close(h);
        return -1;
    }
    int kind = identify(h);
    if (kind == 1 && mode == RB_HISTORY_WRITE)
        kind = create_schema(h);
    else if (kind == 1 && mode == RB_HISTORY_CHECK)
        kind = 0; /* an empty file: made a history when the run is added */
    else if (kind == 1) {
        diag_error("%s: not a redbench history: an SQLite database with no table", path);
        kind = -1;
    }
    if (kind != 0) {
        history_close(h);
        return -1;
    }
    sqlite3_exec(h->db, "PRAGMA foreign_keys = ON", NULL, NULL, NULL);
    return 0;
}

void history_close(rb_history *h)
{
    if (h->db)
        sqlite3_close(h->db);
    h->db = NULL;
}
