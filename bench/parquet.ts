// Parquet writing of results: the native writer (addon encodeParquet, behind encodeParquetResult)
// against the previous writer (apache-arrow Table → IPC stream → parquet-wasm writeParquet, kept
// here only as the peer), per codec, for a typical result (time + 2 signals × 20 001 points) and
// for a single 10 M-point column. Both sides include the metadata document (encodeMeta: CRC-32 of
// every column), as the job runtime pays it; the "addon call" column is the encoder alone.
import { Field, Float64, makeData, RecordBatch, Schema, Struct, Table, tableToIPC } from 'apache-arrow';
import { Compression as WasmCompression, Table as WasmTable, writeParquet, WriterPropertiesBuilder } from 'parquet-wasm';
import { encodeMeta } from '../src/jobs/cache/formats/meta.js';
import { columnName, encodeParquetResult, PARQUET_META_KEY } from '../src/jobs/cache/formats/parquet.js';
import { encodeParquet } from '../src/engine/result-codec.js';
import type { Compression, StoredResult } from '../src/jobs/types.js';

const CODECS: readonly Compression[] = ['none', 'snappy', 'gzip', 'lz4'];
const WASM_CODECS: Readonly<Record<Compression, WasmCompression>> = {
  none: WasmCompression.UNCOMPRESSED,
  snappy: WasmCompression.SNAPPY,
  gzip: WasmCompression.GZIP,
  lz4: WasmCompression.LZ4_RAW,
};

/** The previous writer (git history of src/jobs/cache/formats/parquet.ts), as the peer. */
function encodeWithArrowWasm(result: StoredResult, names: string[], compression: Compression): Uint8Array {
  const columns = [result.time, ...names.map((name) => result.signals[name])];
  const fields = ['time', ...names].map((name) => new Field(columnName(name), new Float64(), false));
  const schema = new Schema(fields);
  const length = result.time.length;
  const children = columns.map((data) => makeData({ type: new Float64(), length, nullCount: 0, data }));
  const batch = new RecordBatch(schema, makeData({ type: new Struct(fields), length, nullCount: 0, children }));
  const ipc = tableToIPC(new Table(schema, [batch]), 'stream');
  const properties = new WriterPropertiesBuilder()
    .setCompression(WASM_CODECS[compression])
    .setDictionaryEnabled(false)
    .setKeyValueMetadata(new Map([[PARQUET_META_KEY, encodeMeta(result, names)]]))
    .setCreatedBy('pesim')
    .build();
  return writeParquet(WasmTable.fromIPCStream(ipc), properties);
}

/** Median of `runs` wall times [ms] after two warm-ups. */
function median(runs: number, work: () => void): number {
  work();
  work();
  const times: number[] = [];
  for (let r = 0; r < runs; r++) {
    const t = performance.now();
    work();
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(runs / 2)];
}

/** A buck-converter-like result: time, an output-voltage ripple and a triangular inductor current. */
export function typicalResult(n = 20_001): StoredResult {
  const time = new Float64Array(n);
  const v = new Float64Array(n);
  const i = new Float64Array(n);
  for (let k = 0; k < n; k++) {
    time[k] = k * 1e-7;
    const phase = (k % 100) / 100;
    v[k] = 12 + 0.05 * Math.sin(2 * Math.PI * phase) + 1e-4 * Math.sin(k * 0.0137);
    i[k] = 2 + (phase < 0.5 ? phase : 1 - phase) * 0.8 + 1e-3 * Math.cos(k * 0.0071);
  }
  return {
    time,
    signals: { 'V(out)': v, 'I(L1)': i },
    measurements: { 'avg(V(out))': 12 },
    stats: { steps: n, preSteps: 0, factorizations: 4, cacheHits: n, switchingEvents: 400, extraSolves: 0, unknowns: 6, solver: 'dense', wallMs: 10 },
  };
}

function encodeBinding(result: StoredResult, names: string[], compression: Compression): Uint8Array {
  const columns = [result.time, ...names.map((name) => result.signals[name])];
  return encodeParquet(columns, ['time', ...names], { [PARQUET_META_KEY]: '{}' }, compression);
}

export function typicalRows(): string[] {
  const result = typicalResult();
  const names = Object.keys(result.signals);
  const lines: string[] = [];
  for (const codec of CODECS) {
    const size = encodeParquetResult(result, names, codec).byteLength;
    const oldSize = encodeWithArrowWasm(result, names, codec).byteLength;
    const native = median(51, () => encodeParquetResult(result, names, codec));
    const call = median(51, () => encodeBinding(result, names, codec));
    const old = median(51, () => encodeWithArrowWasm(result, names, codec));
    lines.push(
      `| Parquet ${codec}, 3 × 20 001 rows: native ${native.toFixed(2)} ms (addon call ${call.toFixed(2)} ms), ${(size / 1024).toFixed(0)} KiB | ` +
        `arrow + parquet-wasm ${old.toFixed(2)} ms, ${(oldSize / 1024).toFixed(0)} KiB | ${(old / native).toFixed(1)}× |`,
    );
  }
  return lines;
}

export function tenMillionRows(): string[] {
  const n = 10_000_000;
  const time = new Float64Array(n);
  for (let k = 0; k < n; k++) time[k] = k * 1e-8;
  const result: StoredResult = { ...typicalResult(1), time, signals: {} };
  const lines: string[] = [];
  for (const codec of CODECS) {
    const size = encodeParquetResult(result, [], codec).byteLength;
    const native = median(3, () => encodeParquetResult(result, [], codec));
    const call = median(3, () => encodeBinding(result, [], codec));
    let oldCell = 'n/a';
    try {
      const old = median(1, () => encodeWithArrowWasm(result, [], codec));
      oldCell = `${old.toFixed(0)} ms (${(old / native).toFixed(1)}×)`;
    } catch (error) {
      oldCell = `failed: ${(error as Error).message.slice(0, 60)}`;
    }
    lines.push(
      `| Parquet ${codec}, 1 × 10 M rows (77 pages): native ${native.toFixed(0)} ms (addon call ${call.toFixed(0)} ms), ${(size / 2 ** 20).toFixed(1)} MiB | arrow + parquet-wasm ${oldCell} | |`,
    );
  }
  return lines;
}

export async function benchSection(): Promise<string[]> {
  return ['| case | previous writer | speed-up |', '| --- | --- | --- |', ...typicalRows(), ...tenMillionRows()];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const line of await benchSection()) console.log(line);
}
