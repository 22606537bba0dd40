// Results used by the storage-format tests: a sample with awkward signal names and special values,
// a compressible one, a large one, and comparisons that check values bit for bit.
import { expect } from 'chai';
import type { RunStats } from '../../../src/engine/types.js';
import type { Compression, StorageFormat, StoredResult } from '../../../src/jobs/types.js';

export const COMBINATIONS: ReadonlyArray<readonly [StorageFormat, Compression]> = [
  ['parquet', 'none'],
  ['parquet', 'snappy'],
  ['parquet', 'gzip'],
  ['parquet', 'lz4'],
  ['hdf5', 'none'],
  ['hdf5', 'gzip'],
  ['csv', 'none'],
  ['csv', 'gzip'],
];

export const STATS: RunStats = {
  steps: 123456,
  preSteps: 789,
  factorizations: 17,
  cacheHits: 4242,
  switchingEvents: 3001,
  extraSolves: 12,
  unknowns: 9,
  solver: 'sparse',
  wallMs: 187.25,
};

/** Names that stress each layout: dots, parentheses, slashes, CSV and HDF5 specials, the empty name,
 * and clashes with "time" and with Parquet's column name for the empty name. */
export const AWKWARD_NAMES = [
  'SCOPE.1.ch1',
  'V(out)',
  'I(L1)/avg',
  'a/b/c',
  'time',
  '.',
  '..',
  '',
  '(unnamed)',
  'nul\0byte',
  '%2F',
  'comma,name',
  'quote"name',
  'line\nbreak',
  'µΩ → ±',
  ' padded ',
  '__proto__',
];

/** Values JSON and decimal text get wrong unless handled: NaN, ±Infinity, -0, extremes, subnormals. */
export const SPECIAL_VALUES = [NaN, Infinity, -Infinity, -0, 0, 5e-324, -2.2250738585072014e-308, Number.MAX_VALUE, 0.1 + 0.2, 1 / 3, -1e-300, 123456789.12345679];

function wave(n: number, k: number): Float64Array {
  const values = new Float64Array(n);
  for (let i = 0; i < n; i++) values[i] = Math.sin(0.001 * i * (k + 1) + k) * 10 ** (k % 7 - 3);
  SPECIAL_VALUES.forEach((value, j) => {
    if (j * 7 + k < n) values[j * 7 + k] = value;
  });
  return values;
}

/** A result whose signals have the given names (built with fromEntries, so "__proto__" is a key). */
export function sampleResult(n: number, names: readonly string[] = AWKWARD_NAMES): StoredResult {
  const time = new Float64Array(n);
  for (let i = 0; i < n; i++) time[i] = i * 1e-7 + 1e-9;
  return {
    time,
    signals: Object.fromEntries(names.map((name, k) => [name, wave(n, k)])),
    measurements: { 'avg(V(out))': 11.999999999999998, 'rms(I(L1))': 0.1 + 0.2, empty: NaN, peak: Infinity, trough: -Infinity, offset: -0 },
    stats: { ...STATS },
  };
}

/** Periodic signals on a binary time step: every codec finds redundancy here. */
export function compressibleResult(n: number): StoredResult {
  const time = new Float64Array(n);
  const gate = new Float64Array(n);
  const ripple = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    time[i] = i / 1048576;
    gate[i] = i % 400 < 180 ? 1 : 0;
    ripple[i] = 12 + 0.25 * Math.sin((2 * Math.PI * (i % 400)) / 400);
  }
  return { time, signals: { 'GATE.1': gate, 'V(C1)': ripple }, measurements: { 'avg(V(C1))': 12 }, stats: { ...STATS } };
}

/** A million points in two signals. */
export function largeResult(n = 1_000_000): StoredResult {
  const time = new Float64Array(n);
  const a = new Float64Array(n);
  const b = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    time[i] = i * 2e-8;
    a[i] = Math.sin(i * 1e-4) * 325.27;
    b[i] = i % 1000 < 500 ? 1.5e-3 * i : -0.75;
  }
  return { time, signals: { 'SCOPE.1.ch1': a, 'V(out)': b }, measurements: { 'max(V(out))': b[n - 1] }, stats: { ...STATS, steps: n } };
}

function bytesOf(values: Float64Array): Buffer {
  return Buffer.from(values.buffer, values.byteOffset, values.byteLength);
}

/** Whether two arrays hold the same bits (NaN payloads included). */
export function sameBits(a: Float64Array, b: Float64Array): boolean {
  return a.length === b.length && bytesOf(a).equals(bytesOf(b));
}

/** Asserts that `actual` equals `expected` exactly: names and their order, bits of every value. */
export function expectSameResult(actual: StoredResult, expected: StoredResult): void {
  expect(actual.time).to.be.instanceOf(Float64Array);
  expect(sameBits(actual.time, expected.time), 'time bits').to.equal(true);
  expect(Object.keys(actual.signals)).to.deep.equal(Object.keys(expected.signals));
  for (const name of Object.keys(expected.signals)) {
    const values = actual.signals[name];
    expect(values, name).to.be.instanceOf(Float64Array);
    expect(sameBits(values, expected.signals[name]), `bits of ${JSON.stringify(name)}`).to.equal(true);
  }
  expect(actual.measurements).to.deep.equal(expected.measurements);
  expect(Object.is(actual.measurements.offset, expected.measurements.offset)).to.equal(true);
  expect(actual.stats).to.deep.equal(expected.stats);
  // chai's deep equality on the whole object as well (it tells -0 from 0 and NaN equals NaN).
  expect(actual).to.deep.equal(expected);
}
