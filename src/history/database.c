/* src/history/database.c: a history opened (history/database.h): the file
 * checked before SQLite is given it (missing, a folder, not a database),
 * then its application id and schema version; a new or empty file gets
 * the schema in one transaction, so that processes creating the same
 * history at once make it once, and a history of an older schema gets the
 * migrations it needs (schema.c) in one transaction, so that it is
 * upgraded whole or not at all, once however many processes open it. */
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

/* What the open file holds: 0 a history of this schema or an older one
 * (its version in *version), 1 nothing yet (a new file: no table), or -1
 * after saying why it is not one we can use. */
static int identify(rb_history *h, long long *version_out)
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
    *version_out = version;
    return 0;
}

/* The schema, once, in a transaction that holds the write lock from its
 * start: a second process creating the same file waits, then finds it. */
static int create_schema(rb_history *h)
{
    if (sqlite3_exec(h->db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK)
        return history_error(h, "cannot begin to create the history");
    long long version;
    int kind = identify(h, &version);
    if (kind == 0 && version != RB_HISTORY_SCHEMA_VERSION)
        kind = 2; /* made meanwhile by an older redbench: upgraded after */
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
    if (kind < 0 || kind == 1) {
        sqlite3_exec(h->db, "ROLLBACK", NULL, NULL, NULL);
        return -1;
    }
    if (sqlite3_exec(h->db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK) {
        history_error(h, "cannot create the history");
        sqlite3_exec(h->db, "ROLLBACK", NULL, NULL, NULL);
        return -1;
    }
    return kind;
}

/* Prints "PATH: cannot upgrade the history from schema version A to B:
 * SQLITE'S MESSAGE; nothing was changed", rolls back and returns -1. */
static int upgrade_failed(rb_history *h, long long from)
{
    int code = sqlite3_errcode(h->db);
    if (code == SQLITE_BUSY || code == SQLITE_LOCKED)
        diag_error("%s: cannot upgrade the history from schema version %lld to %d: it is "
                   "locked by another process; nothing was changed",
                   h->path, from, RB_HISTORY_SCHEMA_VERSION);
    else
        diag_error("%s: cannot upgrade the history from schema version %lld to %d: %s; "
                   "nothing was changed",
                   h->path, from, RB_HISTORY_SCHEMA_VERSION, sqlite3_errmsg(h->db));
    if (!sqlite3_get_autocommit(h->db))
        sqlite3_exec(h->db, "ROLLBACK", NULL, NULL, NULL);
    return -1;
}

/* A history of schema version `from` brought to this build's: in one
 * transaction that holds the write lock from its start, the version read
 * again (another process may have upgraded it meanwhile), its
 * schema_version row, each migration step from it on, then its
 * user_version. `trial`: the same, rolled back (the check before a run:
 * the upgrade will work, and nothing is changed yet). Returns 0, or -1
 * after an error naming the file and both versions; then nothing was
 * changed. */
static int upgrade(rb_history *h, long long from, int trial)
{
    if (sqlite3_exec(h->db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK)
        return upgrade_failed(h, from);
    long long version;
    if (identify(h, &version) != 0) {
        sqlite3_exec(h->db, "ROLLBACK", NULL, NULL, NULL);
        return -1;
    }
    char *head = xasprintf("UPDATE redbench_history SET value = '%d' WHERE key = "
                           "'schema_version';\n"
                           "INSERT OR REPLACE INTO redbench_history VALUES ('upgraded', "
                           "strftime('%%Y-%%m-%%dT%%H:%%M:%%SZ', 'now') || ' from version "
                           "%lld');\n",
                           RB_HISTORY_SCHEMA_VERSION, version);
    int rc = version < RB_HISTORY_SCHEMA_VERSION
                 ? sqlite3_exec(h->db, head, NULL, NULL, NULL)
                 : SQLITE_OK;
    free(head);
    for (size_t k = 0; k < history_n_migrations && rc == SQLITE_OK; k++)
        if (history_migrations[k].from >= version)
            rc = sqlite3_exec(h->db, history_migrations[k].sql, NULL, NULL, NULL);
    if (rc == SQLITE_OK && version < RB_HISTORY_SCHEMA_VERSION) {
        char *tail = xasprintf("PRAGMA user_version = %d;", RB_HISTORY_SCHEMA_VERSION);
        rc = sqlite3_exec(h->db, tail, NULL, NULL, NULL);
        free(tail);
    }
    if (rc != SQLITE_OK)
        return upgrade_failed(h, version);
    if (trial) {
        sqlite3_exec(h->db, "ROLLBACK", NULL, NULL, NULL);
        return 0;
    }
    if (sqlite3_exec(h->db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK)
        return upgrade_failed(h, version);
    return 0;
}

/* Whether this build reads a history of schema version `version` as it
 * is: no migration since needs to be applied for its reads. */
static int readable_as_is(long long version)
{
    for (size_t k = 0; k < history_n_migrations; k++)
        if (history_migrations[k].from >= version && history_migrations[k].readers_need)
            return 0;
    return 1;
}

/* The folder of `path`, newly allocated: where SQLite keeps the journal. */
static char *folder_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        return xstrdup(".");
    if (slash == path)
        return xstrdup("/");
    return xstrndup(path, (size_t)(slash - path));
}

/* Whether the file and its folder can be written, by the file's mode too
 * (root may write a file of mode 0444). */
static int writable(const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0 || access(path, W_OK) != 0 || !(st.st_mode & 0222))
        return 0;
    char *folder = folder_of(path);
    int ok = access(folder, W_OK | X_OK) == 0;
    free(folder);
    return ok;
}

/* A history of an older schema, open in `mode`: upgraded to write,
 * upgraded in a trial to check, and to read, read as it is where this
 * build can, else upgraded where the file can be written (reopened to
 * write), else refused. Returns 0, or -1 after saying why. */
static int bring_up_to_date(rb_history *h, int mode, long long version)
{
    if (mode == RB_HISTORY_WRITE || mode == RB_HISTORY_CHECK)
        return upgrade(h, version, mode == RB_HISTORY_CHECK);
    if (readable_as_is(version))
        return 0;
    if (!writable(h->path)) {
        diag_error("%s: a history of schema version %lld, older than this redbench's (%d), "
                   "which reads it only once upgraded, and the file cannot be written: make "
                   "it writable (or read a copy); nothing was changed",
                   h->path, version, RB_HISTORY_SCHEMA_VERSION);
        return -1;
    }
    sqlite3_close(h->db);
    h->db = NULL;
    if (sqlite3_open_v2(h->path, &h->db, SQLITE_OPEN_READWRITE, NULL) != SQLITE_OK)
        return history_error(h, "cannot open the history to upgrade it");
    sqlite3_busy_timeout(h->db, busy_ms());
    return upgrade(h, version, 0);
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
    char *folder = folder_of(path);
    int ok = access(folder, W_OK | X_OK) == 0;
    if (!ok)
        diag_error("%s: cannot add to the history: its folder %s cannot be written (%s), and "
                   "a history keeps its journal there; nothing was changed",
                   path, folder, strerror(errno));
    free(folder);
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
    long long version = RB_HISTORY_SCHEMA_VERSION;
    int kind = identify(h, &version);
    if (kind == 1 && mode == RB_HISTORY_WRITE) {
        kind = create_schema(h);
        if (kind == 2) /* made meanwhile by an older redbench: upgraded below */
            kind = identify(h, &version);
    } else if (kind == 1 && mode == RB_HISTORY_CHECK)
        kind = 0; /* an empty file: made a history when the run is added */
    else if (kind == 1) {
        diag_error("%s: not a redbench history: an SQLite database with no table", path);
        kind = -1;
    }
    if (kind == 0 && version < RB_HISTORY_SCHEMA_VERSION)
        kind = bring_up_to_date(h, mode, version);
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
