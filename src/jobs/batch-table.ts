// A stored batch as a results table (src/engine/results-table.ts): its columns from the store, and
// its rows read a page at a time in batch order, measurements under their user-facing names
// (`SCOPE.1.ch1_avg`). The services pass the names of the fixed columns and how a state reads.
import { measurementName } from '../engine/measurement-names.js';
import type { ResultsTableLayout, ResultsTableRow, TableRows } from '../engine/results-table.js';
import type { BatchResultRow, SqliteBatchResults } from '../store/batch-results.js';
import type { TaskState } from '../store/records.js';

export interface BatchTable {
  layout: ResultsTableLayout;
  rows: TableRows;
}

export interface BatchTableOptions {
  names: ResultsTableLayout['names'];
  head: ResultsTableLayout['head'];
  /** The state as the service spells it (default: as stored). */
  status?: (state: TaskState) => string;
  /** The measurements (engine keys) of a completed run, from its result file: cache hits have no
   *  summary in the store. */
  readMeasurements: (taskId: string) => Promise<Record<string, number>>;
}

function named(measurements: Record<string, number>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const key in measurements) out[measurementName(key)] = measurements[key];
  return out;
}

async function* tableRows(reader: SqliteBatchResults, batchId: string, options: BatchTableOptions): AsyncGenerator<ResultsTableRow> {
  const status = options.status ?? ((state: TaskState) => state);
  for (const row of reader.rows(batchId) as Iterable<BatchResultRow>) {
    const completed = row.state === 'completed';
    const measurements = completed && !row.hasSummary ? await options.readMeasurements(row.taskId) : row.measurements;
    yield {
      run: row.position,
      id: row.taskId,
      status: status(row.state),
      parameters: row.parameters,
      measurements: completed ? named(measurements) : {},
      durationMs: completed ? row.runMs : null,
      errorMessage: row.state === 'failed' ? (row.errorMessage ?? row.errorCode ?? 'the simulation failed') : null,
    };
  }
}

/** The table of a stored batch; its measurement columns from the summaries, else (every completed
 *  run a cache hit) from the first completed run's result file. */
export async function batchTable(reader: SqliteBatchResults, batchId: string, options: BatchTableOptions): Promise<BatchTable> {
  const columns = reader.columns(batchId);
  let measurements = columns.measurements;
  if (measurements.length === 0) {
    const [first] = reader.idsInStates(batchId, ['completed'], 1);
    if (first !== undefined) measurements = Object.keys(await options.readMeasurements(first));
  }
  return {
    layout: { names: options.names, head: options.head, parameters: columns.parameters, measurements: measurements.map(measurementName) },
    rows: { [Symbol.asyncIterator]: () => tableRows(reader, batchId, options) },
  };
}
