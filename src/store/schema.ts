// The SQL of the schema migrations, one constant per version (listed in migrations.ts). Tables are
// STRICT (no silent type coercion) with CHECK constraints on enumerations and JSON columns, so a
// bad write fails instead of storing something the readers cannot decode. A migration, once
// released, is never edited: changes go into a new version.

/**
 * Version 4: a batch's shared parts stored once, cheaper task rows, and counts kept per state.
 * - task_templates: what the tasks of one submission share (the spec and request without their
 *   parameters: the netlist, signals, the request's other fields), one row for many tasks; a task
 *   row keeps only its own parameters and points at its template (template_id; NULL: the row holds
 *   its whole spec and request, as every row written before this version does).
 * - tasks is rebuilt (every row copied, the sequence kept) to take template_id and to check its
 *   enumerations with OR chains: an IN list is built into a lookup table at each execution of the
 *   statement, which cost ≈ 3 µs of the ≈ 10 µs insert of a row.
 * - batch_tasks is rebuilt without its index by task id, and a batch of one submission has no rows
 *   there at all (batches.listed = 0: its tasks are those with its batch_id, in seq order).
 * - task_counts and batch_counts: tasks per owner and state, and per batch and state, kept in the
 *   same transaction as every change of a task, so that reading them never counts rows (the status
 *   of a batch of 100 000 runs, the statistics of a service). Triggers keep them on update and
 *   delete; inserts add to them once per statement group (SqliteTaskRepository.insertMany): a
 *   trigger per inserted row cost ≈ 20 µs, twice the insert itself.
 */
export const SCHEMA_V4 = `
CREATE TABLE task_templates (
  id      INTEGER PRIMARY KEY,
  spec    TEXT NOT NULL CHECK (json_valid(spec)),
  request TEXT CHECK (request IS NULL OR json_valid(request))
) STRICT;

CREATE TABLE tasks_v4 (
  seq           INTEGER PRIMARY KEY AUTOINCREMENT,
  id            TEXT NOT NULL UNIQUE CHECK (length(id) > 0),
  owner         TEXT NOT NULL,
  priority      TEXT NOT NULL CHECK (priority = 'CRITICAL' OR priority = 'HIGH' OR priority = 'NORMAL' OR priority = 'LOW'),
  priority_rank INTEGER GENERATED ALWAYS AS (
                  CASE priority WHEN 'CRITICAL' THEN 0 WHEN 'HIGH' THEN 1 WHEN 'NORMAL' THEN 2 ELSE 3 END
                ) VIRTUAL,
  state         TEXT NOT NULL CHECK (state = 'queued' OR state = 'running' OR state = 'paused' OR state = 'completed' OR state = 'failed' OR state = 'cancelled'),
  template_id   INTEGER REFERENCES task_templates (id),
  spec          TEXT NOT NULL CHECK (json_valid(spec)),
  request       TEXT CHECK (request IS NULL OR json_valid(request)),
  batch_id      TEXT,
  submitted_at  TEXT NOT NULL,
  started_at    TEXT,
  completed_at  TEXT,
  attempts      INTEGER NOT NULL CHECK (attempts >= 0),
  error_code    TEXT,
  error_message TEXT,
  cache_hit     INTEGER NOT NULL CHECK (cache_hit = 0 OR cache_hit = 1),
  cache_key     TEXT,
  run_ms        REAL,
  retry_at      TEXT,
  progress      TEXT CHECK (progress IS NULL OR json_valid(progress)),
  summary       TEXT CHECK (summary IS NULL OR json_valid(summary))
) STRICT;
INSERT INTO tasks_v4 (seq, id, owner, priority, state, template_id, spec, request, batch_id, submitted_at, started_at,
                      completed_at, attempts, error_code, error_message, cache_hit, cache_key, run_ms, retry_at, progress, summary)
  SELECT seq, id, owner, priority, state, NULL, spec, request, batch_id, submitted_at, started_at,
         completed_at, attempts, error_code, error_message, cache_hit, cache_key, run_ms, retry_at, progress, summary
  FROM tasks ORDER BY seq;
-- The next seq continues the old table's (AUTOINCREMENT never reuses one).
DELETE FROM sqlite_sequence WHERE name = 'tasks_v4';
INSERT INTO sqlite_sequence (name, seq) SELECT 'tasks_v4', seq FROM sqlite_sequence WHERE name = 'tasks';
DROP TABLE tasks;
ALTER TABLE tasks_v4 RENAME TO tasks;
CREATE INDEX tasks_schedule ON tasks (state, priority_rank, seq);
CREATE INDEX tasks_owner ON tasks (owner, seq);
CREATE INDEX tasks_batch ON tasks (batch_id, seq) WHERE batch_id IS NOT NULL;
CREATE INDEX tasks_batch_state ON tasks (batch_id, state) WHERE batch_id IS NOT NULL;

-- Without the UNIQUE (batch_id, task_id) index of version 1: nothing reads by it, the ids come
-- from tasks (unique there) or are checked for repeats before they are written, and it was most of
-- the time of writing a batch's rows (random ids: ≈ 0.35 of 0.55 s for 100 000).
CREATE TABLE batch_tasks_v4 (
  batch_id TEXT NOT NULL REFERENCES batches (id) ON DELETE CASCADE,
  position INTEGER NOT NULL CHECK (position >= 0),
  task_id  TEXT NOT NULL,
  PRIMARY KEY (batch_id, position)
) STRICT, WITHOUT ROWID;
INSERT INTO batch_tasks_v4 (batch_id, position, task_id) SELECT batch_id, position, task_id FROM batch_tasks;
DROP TABLE batch_tasks;
ALTER TABLE batch_tasks_v4 RENAME TO batch_tasks;

-- listed 1: the batch's tasks are its batch_tasks rows (positions as given, every batch before this
-- version); 0: they are the tasks whose batch_id is the batch's, in submission (seq) order, read by
-- the index tasks_batch: a batch of one submission then writes no row per task.
ALTER TABLE batches ADD COLUMN listed INTEGER NOT NULL DEFAULT 1 CHECK (listed = 0 OR listed = 1);

CREATE TABLE task_counts (
  owner TEXT NOT NULL,
  state TEXT NOT NULL,
  n     INTEGER NOT NULL,
  PRIMARY KEY (owner, state)
) STRICT, WITHOUT ROWID;
CREATE TABLE batch_counts (
  batch_id TEXT NOT NULL,
  state    TEXT NOT NULL,
  n        INTEGER NOT NULL,
  PRIMARY KEY (batch_id, state)
) STRICT, WITHOUT ROWID;
INSERT INTO task_counts (owner, state, n) SELECT owner, state, count(*) FROM tasks GROUP BY owner, state;
INSERT INTO batch_counts (batch_id, state, n) SELECT batch_id, state, count(*) FROM tasks WHERE batch_id IS NOT NULL GROUP BY batch_id, state;

CREATE TRIGGER tasks_counted_delete AFTER DELETE ON tasks BEGIN
  UPDATE task_counts SET n = n - 1 WHERE owner = old.owner AND state = old.state;
  UPDATE batch_counts SET n = n - 1 WHERE batch_id = old.batch_id AND state = old.state;
END;
CREATE TRIGGER tasks_counted_update AFTER UPDATE OF state, owner, batch_id ON tasks
  WHEN old.state IS NOT new.state OR old.owner IS NOT new.owner OR old.batch_id IS NOT new.batch_id
BEGIN
  UPDATE task_counts SET n = n - 1 WHERE owner = old.owner AND state = old.state;
  UPDATE batch_counts SET n = n - 1 WHERE batch_id = old.batch_id AND state = old.state;
  INSERT INTO task_counts (owner, state, n) VALUES (new.owner, new.state, 1) ON CONFLICT DO UPDATE SET n = n + 1;
  INSERT INTO batch_counts (batch_id, state, n) SELECT new.batch_id, new.state, 1 WHERE new.batch_id IS NOT NULL
    ON CONFLICT DO UPDATE SET n = n + 1;
END;
`;

/** Version 3: counts of a batch's runs per state from an index alone (the status of a batch of
 *  100 000 runs reads the index, not the rows). */
export const SCHEMA_V3 = `
CREATE INDEX tasks_batch_state ON tasks (batch_id, state) WHERE batch_id IS NOT NULL;
`;

/** Version 2: the result summary of a completed task (measurements and signal names, exact JSON),
 *  so that status reads need not open the result file. */
export const SCHEMA_V2 = `
ALTER TABLE tasks ADD COLUMN summary TEXT CHECK (summary IS NULL OR json_valid(summary));
`;

/** Version 1: circuits, tasks, batches, the cache index, logs and counters. */
export const SCHEMA_V1 = `
CREATE TABLE circuits (
  seq        INTEGER PRIMARY KEY AUTOINCREMENT,
  id         TEXT NOT NULL UNIQUE CHECK (length(id) > 0),
  name       TEXT NOT NULL,
  format     TEXT NOT NULL CHECK (format IN ('ipes', 'spice', 'json')),
  netlist    TEXT NOT NULL CHECK (json_valid(netlist)),
  source     BLOB,
  warnings   TEXT NOT NULL CHECK (json_valid(warnings)),
  created_at TEXT NOT NULL
) STRICT;

-- seq: insertion order, never reused (AUTOINCREMENT), so FIFO is exact even for equal timestamps.
-- priority_rank: 0 = CRITICAL ... 3 = LOW, derived from priority so the two cannot disagree.
CREATE TABLE tasks (
  seq           INTEGER PRIMARY KEY AUTOINCREMENT,
  id            TEXT NOT NULL UNIQUE CHECK (length(id) > 0),
  owner         TEXT NOT NULL,
  priority      TEXT NOT NULL CHECK (priority IN ('CRITICAL', 'HIGH', 'NORMAL', 'LOW')),
  priority_rank INTEGER GENERATED ALWAYS AS (
                  CASE priority WHEN 'CRITICAL' THEN 0 WHEN 'HIGH' THEN 1 WHEN 'NORMAL' THEN 2 ELSE 3 END
                ) VIRTUAL,
  state         TEXT NOT NULL CHECK (state IN ('queued', 'running', 'paused', 'completed', 'failed', 'cancelled')),
  spec          TEXT NOT NULL CHECK (json_valid(spec)),
  request       TEXT CHECK (request IS NULL OR json_valid(request)),
  batch_id      TEXT,
  submitted_at  TEXT NOT NULL,
  started_at    TEXT,
  completed_at  TEXT,
  attempts      INTEGER NOT NULL CHECK (attempts >= 0),
  error_code    TEXT,
  error_message TEXT,
  cache_hit     INTEGER NOT NULL CHECK (cache_hit IN (0, 1)),
  cache_key     TEXT,
  run_ms        REAL,
  retry_at      TEXT,
  progress      TEXT CHECK (progress IS NULL OR json_valid(progress))
) STRICT;
CREATE INDEX tasks_schedule ON tasks (state, priority_rank, seq);
CREATE INDEX tasks_owner ON tasks (owner, seq);
CREATE INDEX tasks_batch ON tasks (batch_id, seq) WHERE batch_id IS NOT NULL;

CREATE TABLE batches (
  id         TEXT NOT NULL PRIMARY KEY CHECK (length(id) > 0),
  owner      TEXT NOT NULL,
  created_at TEXT NOT NULL
) STRICT;

-- The tasks of a batch in submission order (position 0, 1, ...).
CREATE TABLE batch_tasks (
  batch_id TEXT NOT NULL REFERENCES batches (id) ON DELETE CASCADE,
  position INTEGER NOT NULL CHECK (position >= 0),
  task_id  TEXT NOT NULL,
  PRIMARY KEY (batch_id, position),
  UNIQUE (batch_id, task_id)
) STRICT, WITHOUT ROWID;

CREATE TABLE cache_entries (
  key          TEXT NOT NULL PRIMARY KEY CHECK (length(key) > 0),
  file         TEXT NOT NULL,
  format       TEXT NOT NULL CHECK (format IN ('parquet', 'hdf5', 'csv')),
  compression  TEXT NOT NULL CHECK (compression IN ('snappy', 'gzip', 'lz4', 'none')),
  model_file   TEXT NOT NULL,
  parameters   TEXT NOT NULL CHECK (json_valid(parameters)),
  created_at   TEXT NOT NULL,
  accessed_at  TEXT NOT NULL,
  access_count INTEGER NOT NULL CHECK (access_count >= 0),
  size_bytes   INTEGER NOT NULL CHECK (size_bytes >= 0),
  expires_at   TEXT,
  run_ms       REAL NOT NULL
) STRICT, WITHOUT ROWID;
CREATE INDEX cache_entries_expiry ON cache_entries (expires_at) WHERE expires_at IS NOT NULL;
CREATE INDEX cache_entries_created ON cache_entries (created_at);

-- level_rank: 0 = DEBUG ... 3 = ERROR, for "this level and above".
CREATE TABLE logs (
  seq        INTEGER PRIMARY KEY AUTOINCREMENT,
  timestamp  TEXT NOT NULL,
  level      TEXT NOT NULL CHECK (level IN ('DEBUG', 'INFO', 'WARNING', 'ERROR')),
  level_rank INTEGER GENERATED ALWAYS AS (
               CASE level WHEN 'DEBUG' THEN 0 WHEN 'INFO' THEN 1 WHEN 'WARNING' THEN 2 ELSE 3 END
             ) VIRTUAL,
  message    TEXT NOT NULL,
  task_id    TEXT,
  duration   REAL
) STRICT;
CREATE INDEX logs_level ON logs (level_rank, seq);

CREATE TABLE counters (
  name  TEXT NOT NULL PRIMARY KEY,
  value REAL NOT NULL
) STRICT, WITHOUT ROWID;
`;
