// Test set-up of the store: a fresh temporary data directory per test, the real SQLite store over
// it, and builders of valid records to vary in each test.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CacheEntryRecord, TaskRecord } from '../../../src/jobs/types.js';
import { openStore, type StoreOptions } from '../../../src/store/open.js';
import type { CircuitRecord, Store } from '../../../src/store/types.js';
import { rcStep } from '../../fixtures/circuits.js';

export interface TempStore {
  dir: string;
  store: Store;
  /** Closes the store and opens the same directory again (a service restart). */
  reopen(options?: StoreOptions): Store;
  /** Closes the store, waits for its checkpoint thread, removes the folder. */
  dispose(): Promise<void>;
}

export function tempStore(options: StoreOptions = {}): TempStore {
  const dir = mkdtempSync(join(tmpdir(), 'pesim-store-'));
  const handle: TempStore = {
    dir,
    store: openStore(dir, options),
    reopen(again = options) {
      handle.store.close();
      handle.store = openStore(dir, again);
      return handle.store;
    },
    async dispose() {
      handle.store.close();
      await handle.store.whenClosed();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return handle;
}

/** An ISO time `seconds` after a fixed origin. */
export const at = (seconds: number): string => new Date(Date.UTC(2025, 0, 1) + seconds * 1000).toISOString();

export function taskRecord(id: string, overrides: Partial<TaskRecord> = {}): TaskRecord {
  return {
    id,
    owner: 'simulation',
    priority: 'NORMAL',
    state: 'queued',
    spec: { netlist: rcStep('trapezoidal', 1e-6), parameters: { 'R.1.R': 2000 }, signals: ['SCOPE.1.ch1'] },
    request: { modelName: 'rc', nested: { list: [1, 2, 3] } },
    batchId: null,
    submittedAt: at(0),
    startedAt: null,
    completedAt: null,
    attempts: 0,
    errorCode: null,
    errorMessage: null,
    cacheHit: false,
    cacheKey: null,
    runMs: null,
    retryAt: null,
    progress: null,
    summary: null,
    ...overrides,
  };
}

export function circuitRecord(id: string, overrides: Partial<CircuitRecord> = {}): CircuitRecord {
  return {
    id,
    name: `circuit ${id}`,
    format: 'ipes',
    netlist: rcStep('backward-euler', 1e-6),
    source: Uint8Array.from([0x1f, 0x8b, 0x00, 0xff, 0x7f, 0x80]),
    warnings: ['unknown component ignored'],
    createdAt: at(0),
    ...overrides,
  };
}

export function cacheEntry(key: string, overrides: Partial<CacheEntryRecord> = {}): CacheEntryRecord {
  return {
    key,
    file: `${key}.parquet`,
    format: 'parquet',
    compression: 'snappy',
    modelFile: 'buck.ipes',
    parameters: { 'R.1.R': 4, $duty: 0.25 },
    createdAt: at(0),
    accessedAt: at(0),
    accessCount: 0,
    sizeBytes: 1000,
    expiresAt: null,
    runMs: 12.5,
    ...overrides,
  };
}

export { thrown } from '../../fixtures/thrown.js';
