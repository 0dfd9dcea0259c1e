/* src/history/schema.c: the tables of a history (schema version 3), as
 * docs/results-schema.md's "History" section describes them, and the
 * migrations that bring a history of an older version to this one. Each
 * run keeps its results document whole (runs.document: the JSON a results
 * file holds, byte for byte), from which a run is read back; the columns
 * beside it and the rows table repeat what filters, trends and people's
 * own queries need. */
#include "history/database.h"

#include "base/util.h"

const char history_schema_sql[] =
    "CREATE TABLE redbench_history (\n"
    "  key TEXT PRIMARY KEY,\n"
    "  value TEXT NOT NULL\n"
    ");\n"
    "CREATE TABLE runs (\n"
    "  id INTEGER PRIMARY KEY AUTOINCREMENT,\n"
    "  added TEXT NOT NULL,\n"
    "  source TEXT,\n"
    "  started TEXT,\n"
    "  version TEXT,\n"
    "  git_revision TEXT,\n"
    "  host TEXT,\n"
    "  command_line TEXT,\n"
    "  experiment TEXT,\n"
    "  experiment_path TEXT,\n"
    "  backend TEXT,\n"
    "  device TEXT,\n"
    "  driver TEXT,\n"
    "  devices INTEGER NOT NULL,\n"
    "  wall_seconds REAL,\n"
    "  rows INTEGER NOT NULL,\n"
    "  ok INTEGER NOT NULL,\n"
    "  wrong INTEGER NOT NULL,\n"
    "  failed INTEGER NOT NULL,\n"
    "  unsupported INTEGER NOT NULL,\n"
    "  skipped INTEGER NOT NULL,\n"
    "  document TEXT NOT NULL\n"
    ");\n"
    "CREATE INDEX runs_by_order ON runs(started, id);\n"
    "CREATE TABLE rows (\n"
    "  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,\n"
    "  position INTEGER NOT NULL,\n"
    "  config TEXT NOT NULL,\n"
    "  run TEXT NOT NULL,\n"
    "  plugin TEXT NOT NULL,\n"
    "  params TEXT NOT NULL,\n"
    "  op TEXT NOT NULL,\n"
    "  dtype TEXT NOT NULL,\n"
    "  n INTEGER NOT NULL,\n"
    "  distribution TEXT NOT NULL,\n"
    "  device TEXT NOT NULL,\n"
    "  status TEXT NOT NULL,\n"
    "  reason TEXT NOT NULL,\n"
    "  timing TEXT,\n"
    "  samples INTEGER NOT NULL,\n"
    "  median_ns REAL,\n"
    "  noise REAL,\n"
    "  bandwidth_gbs REAL,\n"
    "  energy_j REAL,\n"
    "  deterministic INTEGER,\n"
    "  repro TEXT,\n"
    "  PRIMARY KEY (run_id, position)\n"
    ") WITHOUT ROWID;\n"
    "CREATE INDEX rows_by_config ON rows(config, run_id);\n"
    "CREATE INDEX runs_by_revision ON runs(coalesce(git_revision, ''), "
    "coalesce(started, added));\n";

/* Version 1 to 2: the runs by revision, for `--by revision`, which orders
 * each run by the first start of its revision (one look-up a run, not a
 * scan of every run). Readers of this build read a version-1 history as
 * it is. */
static const char migrate_1_to_2[] =
    "CREATE INDEX runs_by_revision ON runs(coalesce(git_revision, ''), "
    "coalesce(started, added));\n";

/* Version 2 to 3: each row's determinism (1 the same bits, 0 not, NULL
 * not checked) and reproducibility level (varies, run-to-run,
 * layout-independent, exact; NULL none), for people's own queries. Rows
 * added before keep NULL there; their runs' documents hold both. Nothing
 * this build reads needs them. */
static const char migrate_2_to_3[] = "ALTER TABLE rows ADD COLUMN deterministic INTEGER;\n"
                                     "ALTER TABLE rows ADD COLUMN repro TEXT;\n";

const rb_history_migration history_migrations[] = {
    {1, migrate_1_to_2, 0},
    {2, migrate_2_to_3, 0},
};
const size_t history_n_migrations = RB_ARRAY_LEN(history_migrations);
