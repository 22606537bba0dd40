// The SQL of the schema migrations, one constant per version (listed in migrations.ts). Tables are
// STRICT (no silent type coercion) with CHECK constraints on enumerations and JSON columns, so a
// bad write fails instead of storing something the readers cannot decode. A migration, once
// released, is never edited: changes go into a new version.

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
