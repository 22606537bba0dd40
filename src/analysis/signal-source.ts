// Resolves an analysis request to samples and a sample rate: raw `data` + `sampleRate`, or a time
// window of a signal recorded by a completed simulation (read through the simulation service,
// which answers 404 SIMULATION_NOT_FOUND and 409 INVALID_STATE).
import type { StoredResult } from '../jobs/types.js';
import { validationError } from '../http/errors.js';
import type { SignalRequest } from './model.js';

export interface Samples {
  data: Float64Array;
  /** Absent for the rms endpoint with raw data (no rate needed). */
  sampleRate?: number;
}

/** Reads a completed simulation's stored result (404/409 as AppError). */
export type ResultReader = (simulationId: string) => Promise<StoredResult>;

const invalid = (field: string, message: string): Error => validationError(`${field}: ${message}`, [{ field, message }]);

export async function resolveSamples(body: SignalRequest, readResult: ResultReader, needRate: boolean): Promise<Samples> {
  const fromData = body.data !== undefined;
  const fromSimulation = body.simulationId !== undefined;
  if (fromData === fromSimulation) {
    throw invalid('data', 'give either data (with sampleRate) or simulationId with signalName, not both or neither');
  }
  if (fromData) {
    if (needRate && body.sampleRate === undefined) throw invalid('sampleRate', 'is required with data');
    for (const field of ['signalName', 'startTime', 'endTime'] as const) {
      if (body[field] !== undefined) throw invalid(field, 'applies only with simulationId');
    }
    return { data: new Float64Array(body.data ?? []), sampleRate: body.sampleRate };
  }
  if (body.sampleRate !== undefined) throw invalid('sampleRate', 'is taken from the simulation; give it only with data');
  if (body.signalName === undefined) throw invalid('signalName', 'is required with simulationId');
  const result = await readResult(body.simulationId ?? '');
  return windowOf(result, body.signalName, body.startTime, body.endTime);
}

/** The samples of `signalName` with startTime ≤ t ≤ endTime, and their mean sample rate. */
export function windowOf(result: StoredResult, signalName: string, startTime?: number, endTime?: number): Required<Samples> {
  const values = result.signals[signalName];
  if (!values) {
    const recorded = Object.keys(result.signals);
    throw invalid('signalName', `no recorded signal ${signalName}; recorded: ${recorded.join(', ') || 'none'}`);
  }
  const { time } = result;
  const t0 = time[0] ?? 0;
  const tEnd = time[time.length - 1] ?? 0;
  const from = startTime ?? t0;
  const to = endTime ?? tEnd;
  if (from >= to) throw invalid('startTime', `must be before endTime (${from} ≥ ${to})`);
  let first = 0;
  while (first < time.length && time[first] < from) first++;
  let last = time.length - 1;
  while (last >= 0 && time[last] > to) last--;
  if (last - first + 1 < 2) {
    throw invalid('startTime', `the window [${from}, ${to}] s holds fewer than 2 samples; the signal spans [${t0}, ${tEnd}] s`);
  }
  // Scope channels are recorded with a fixed stride, so the mean spacing is the sample spacing.
  const sampleRate = (last - first) / (time[last] - time[first]);
  return { data: values.slice(first, last + 1), sampleRate };
}
