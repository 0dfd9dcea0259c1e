/* src/history/database.h: a history of runs, an SQLite database: opening
 * one, telling it from any other file (its application id and schema
 * version), creating its schema in a new or empty file, bringing one of an
 * older schema up to this one, and the errors of each, which name the
 * file. The schema is docs/results-schema.md's "History" section;
 * schema.c holds its text and the migrations. */
#ifndef RB_HISTORY_DATABASE_H
#define RB_HISTORY_DATABASE_H

#include <stddef.h>

#include <sqlite3.h>

/* The schema version this build writes and reads. A history of a newer
 * version is refused (never changed); an older one is migrated by
 * history_open, every step it needs in one transaction. */
#define RB_HISTORY_SCHEMA_VERSION 3
/* PRAGMA application_id of a history: "RBHI". */
#define RB_HISTORY_APPLICATION_ID 0x52424849

/* How long an append or a read waits for another process's transaction
 * before it gives up with "locked" (milliseconds). */
#define RB_HISTORY_BUSY_MS 60000

enum rb_history_mode {
    RB_HISTORY_READ = 0, /* an existing history, opened read-only */
    RB_HISTORY_WRITE,    /* created when missing (with its schema) */
    RB_HISTORY_CHECK     /* could be written: an existing history is checked
                            as to write, a missing one is not made (h->db
                            is then NULL) */
};

typedef struct rb_history {
    sqlite3 *db;
    const char *path;
} rb_history;

/* Opens the history at `path`. A history of an older schema is upgraded
 * first, in one transaction, where the file can be written (to write; to
 * read, where file and folder can be written); a read-only one is read as
 * it is when every migration since its version leaves what this build
 * reads unchanged (rb_history_migration.readers_need), else refused. To
 * check, nothing is changed. Returns 0, or -1 after printing an error
 * naming the file: it does not exist (to read), is not a database, is
 * another program's database, is of a newer schema, cannot be upgraded, or
 * cannot be written (to write: a read-only file or folder). Nothing is
 * changed on error. */
int history_open(rb_history *h, const char *path, int mode);
void history_close(rb_history *h);

/* The SQL of the schema (every table and index), as created. */
extern const char history_schema_sql[];

/* One step of the migrations: the SQL that takes a history of schema
 * version `from` to version from + 1. */
typedef struct rb_history_migration {
    int from;
    const char *sql;
    int readers_need; /* 1: this build cannot read a history without it */
} rb_history_migration;

/* The steps, in order, one for each version before this build's: step k
 * takes version k + 1 to k + 2 (schema.c). */
extern const rb_history_migration history_migrations[];
extern const size_t history_n_migrations;

/* Prints "PATH: error: WHAT: SQLITE'S MESSAGE" and returns -1. */
int history_error(const rb_history *h, const char *what);

/* Whether the file at `path` begins as an SQLite database does ("SQLite
 * format 3"); 0 for anything else, a missing file included. */
int history_is_database_file(const char *path);

#endif
