// simulateMany: a parameter sweep of one netlist on every core of this machine (worker threads, one
// per core by default), answered as a results table: one row per parameter set, in their order,
// with the parameter values, the state (completed or failed), every measurement under its
// user-facing name (`SCOPE.1.ch1_avg`), the run time and the error. Only the measurements come back
// from the threads, so a sweep of 100 000 runs holds 100 000 small rows, not their waveforms.
// writeSweepTable writes the table as JSON, CSV or Parquet (results-table.ts).
import { createWriteStream } from 'node:fs';
import { availableParallelism } from 'node:os';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Worker } from 'node:worker_threads';
import type { Netlist, ParameterOverrides } from '../formats/netlist.js';
import { measurementName } from './measurement-names.js';
import { resultsTableChunks, type ResultsTableFormat } from './results-table.js';
import { prepareNetlist, validateNetlist } from './simulate.js';

export interface SweepRow {
  /** Index of the parameter set, from 0. */
  run: number;
  parameters: ParameterOverrides;
  status: 'completed' | 'failed';
  /** By name (`SCOPE.1.ch1_avg`); empty when failed. */
  measurements: Record<string, number>;
  /** Engine run time [ms]; null when failed. */
  durationMs: number | null;
  errorMessage: string | null;
}

export interface SweepResults {
  /** Parameter names, in the order of the first set that has them. */
  parameters: string[];
  /** Measurement names, in the engine's order. */
  measurements: string[];
  rows: SweepRow[];
}

export interface SimulateManyOptions {
  /** Worker threads (default: the number of cores). */
  threads?: number;
  /** Called as each run ends (in the order they end). */
  onRow?: (row: SweepRow) => void;
}

interface Answer {
  run: number;
  ok: boolean;
  measurements?: Record<string, number>;
  wallMs?: number;
  message?: string;
}

/**
 * The thread's code: it imports simulate-many-worker. Under tsx (the sources run as .ts, in the
 * tests) the thread registers tsx's loader first: a worker thread does not inherit it.
 */
function workerSource(): string {
  const fromSources = import.meta.url.endsWith('.ts');
  const file = new URL(`./simulate-many-worker${fromSources ? '.ts' : '.js'}`, import.meta.url).href;
  return fromSources
    ? `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(file)}); });`
    : `import(${JSON.stringify(file)});`;
}

function named(measurements: Record<string, number>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const key in measurements) out[measurementName(key)] = measurements[key];
  return out;
}

/**
 * Runs `netlist` once per parameter set, spread over worker threads. The netlist and the first set
 * are checked before any thread starts (a bad circuit or an unknown parameter throws as simulate
 * would); a run that fails later is a failed row with its error.
 */
export async function simulateMany(netlist: Netlist, parameterSets: ParameterOverrides[], options: SimulateManyOptions = {}): Promise<SweepResults> {
  const prepared = prepareNetlist(netlist);
  validateNetlist(prepared, parameterSets[0] ?? {});
  const rows: SweepRow[] = new Array<SweepRow>(parameterSets.length);
  const threads = Math.max(1, Math.min(options.threads ?? availableParallelism(), parameterSets.length));
  let next = 0;
  let measurementNames: string[] = [];
  const workers: Worker[] = [];
  try {
    await Promise.all(
      Array.from({ length: parameterSets.length === 0 ? 0 : threads }, () => new Promise<void>((resolve, reject) => {
        const worker = new Worker(workerSource(), { eval: true, workerData: { netlist: prepared } });
        workers.push(worker);
        const send = (): void => {
          if (next >= parameterSets.length) {
            resolve();
            return;
          }
          const run = next++;
          worker.postMessage({ run, parameters: parameterSets[run] });
        };
        worker.on('message', (answer: Answer) => {
          const row: SweepRow = answer.ok
            ? { run: answer.run, parameters: parameterSets[answer.run], status: 'completed', measurements: named(answer.measurements!), durationMs: answer.wallMs!, errorMessage: null }
            : { run: answer.run, parameters: parameterSets[answer.run], status: 'failed', measurements: {}, durationMs: null, errorMessage: answer.message ?? 'the simulation failed' };
          if (answer.ok && measurementNames.length === 0) measurementNames = Object.keys(row.measurements);
          rows[answer.run] = row;
          options.onRow?.(row);
          send();
        });
        worker.once('error', reject);
        worker.once('exit', (code) => {
          if (next < parameterSets.length || code !== 0) reject(new Error(`a simulateMany thread stopped (exit code ${code})`));
        });
        send();
      })),
    );
  } finally {
    await Promise.all(workers.map((worker) => worker.terminate()));
  }
  const parameters: string[] = [];
  const seen = new Set<string>();
  for (const set of parameterSets) {
    for (const key of Object.keys(set)) {
      if (!seen.has(key)) {
        seen.add(key);
        parameters.push(key);
      }
    }
  }
  return { parameters, measurements: measurementNames, rows };
}

/** Writes simulateMany's table to `path` as JSON, CSV or Parquet (the services' results-table layout). */
export async function writeSweepTable(results: SweepResults, path: string, format: ResultsTableFormat): Promise<void> {
  const layout = {
    names: { run: 'run', id: 'id', status: 'status', duration: 'durationMs', error: 'errorMessage' },
    parameters: results.parameters,
    measurements: results.measurements,
    head: { runs: results.rows.length },
  };
  const rows = results.rows.map((row) => ({ ...row, id: String(row.run), parameters: row.parameters as Record<string, number> }));
  await pipeline(Readable.from(resultsTableChunks(layout, rows, format)), createWriteStream(path));
}
