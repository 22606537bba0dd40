// A stored batch as a results table (src/engine/results-table.ts): its columns from the store, and
// its rows read a page at a time in batch order, measurements under their user-facing names
// (`SCOPE.1.ch1_avg`). The services pass the names of the fixed columns and how a state reads.
import { measurementName } from '../engine/measurement-names.js';
import type { ResultsTableLayout, ResultsTableRow } from '../engine/results-table.js';
import type { BatchResultRow, SqliteBatchResults } from '../store/batch-results.js';
import type { TaskState } from '../store/records.js';

export interface BatchTable {
  layout: ResultsTableLayout;
  rows: Iterable<ResultsTableRow>;
}

export interface BatchTableOptions {
  names: ResultsTableLayout['names'];
  head: ResultsTableLayout['head'];
  /** The state as the service spells it (default: as stored). */
  status?: (state: TaskState) => string;
}

function named(measurements: Record<string, number>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const key in measurements) out[measurementName(key)] = measurements[key];
  return out;
}

function* tableRows(reader: SqliteBatchResults, batchId: string, status: (state: TaskState) => string): Generator<ResultsTableRow> {
  for (const row of reader.rows(batchId) as Iterable<BatchResultRow>) {
    yield {
      run: row.position,
      id: row.taskId,
      status: status(row.state),
      parameters: row.parameters,
      measurements: row.state === 'completed' ? named(row.measurements) : {},
      durationMs: row.state === 'completed' ? row.runMs : null,
      errorMessage: row.state === 'failed' ? (row.errorMessage ?? row.errorCode ?? 'the simulation failed') : null,
    };
  }
}

export function batchTable(reader: SqliteBatchResults, batchId: string, options: BatchTableOptions): BatchTable {
  const columns = reader.columns(batchId);
  return {
    layout: { names: options.names, head: options.head, parameters: columns.parameters, measurements: columns.measurements.map(measurementName) },
    rows: { [Symbol.iterator]: () => tableRows(reader, batchId, options.status ?? ((state) => state)) },
  };
}
