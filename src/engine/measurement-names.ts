// The one naming of measurements: `<SCOPE>.<n>.ch<k>_<statistic>` (`SCOPE.1.ch1_avg`), the
// specification's form (docs/spec/simulation-service.md). The native engine spells the statistic
// after a dot (`SCOPE.1.ch1.avg`); simulate() renames its keys to the form here, so that every
// interface (Node API results, command line, HTTP, XML-RPC, scripts) shows one spelling, and every
// place a user types a name accepts the dotted one as an alias.
import type { SimulationResult } from './simulate.js';

/** The statistics measured per scope channel over the measurement window. */
export const MEASUREMENT_STATISTICS = ['avg', 'rms', 'min', 'max'] as const;
export type MeasurementStatistic = (typeof MEASUREMENT_STATISTICS)[number];

const ENGINE_KEY = /^(.+)\.(avg|rms|min|max)$/;
const NAME = /^(.+)_(avg|rms|min|max)$/;

/** Names of the engine keys met (a sweep's runs have the same keys; a regular expression per key
 *  and run was ≈ 15 µs of a simulation thread's time per run), up to NAMES_KEPT of them. */
const namesOfKeys = new Map<string, string>();
const NAMES_KEPT = 4096;

/** `SCOPE.1.ch1.avg` (engine key) → `SCOPE.1.ch1_avg`; a name already in that form is returned unchanged. */
export function measurementName(key: string): string {
  let name = namesOfKeys.get(key);
  if (name === undefined) {
    name = key.replace(ENGINE_KEY, '$1_$2');
    if (namesOfKeys.size < NAMES_KEPT) namesOfKeys.set(key, name);
  }
  return name;
}

/** The measurement name of statistic `statistic` of channel `channelKey` (`SCOPE.1.ch1`). */
export function channelMeasurementName(channelKey: string, statistic: MeasurementStatistic): string {
  return `${channelKey}_${statistic}`;
}

/** `SCOPE.1.ch1_avg` or its alias `SCOPE.1.ch1.avg` → the engine key `SCOPE.1.ch1.avg`. */
export function engineMeasurementKey(name: string): string {
  return name.replace(NAME, '$1.$2');
}

/** Measurements keyed by their names (`SCOPE.1.ch1_avg`); keys already named stay as they are. */
export function namedMeasurements(measurements: Record<string, number>): Record<string, number> {
  const named: Record<string, number> = {};
  for (const key of Object.keys(measurements)) named[measurementName(key)] = measurements[key];
  return named;
}

/**
 * One measurement of a result by name (`SCOPE.1.ch1_avg`, or the alias `SCOPE.1.ch1.avg`); throws
 * an Error listing the names the result has when there is no such measurement.
 */
export function measurement(result: Pick<SimulationResult, 'measurements'>, name: string): number {
  const value = result.measurements[measurementName(name)];
  if (value !== undefined) return value;
  const names = Object.keys(result.measurements).map(measurementName);
  throw new Error(`no measurement ${JSON.stringify(name)}; expected <SCOPE>.<n>.ch<k>_avg|rms|min|max, one of: ${names.join(', ') || 'none (the circuit has no scope)'}`);
}
