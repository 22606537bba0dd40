// The native Parquet writer (addon encodeParquet) checked against parquet-wasm, an independent
// reader: several pages per column, zero rows, special values bit for bit, many columns, unicode
// names, the footer as another implementation sees it, argument validation that names the field,
// and the codec decisions that files of the same columns share.
import { expect } from 'chai';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ParquetFile, readSchema } from 'parquet-wasm';
import { fileExtension, readResult, writeResult } from '../../../src/jobs/cache/formats/index.js';
import { writeResultInWorker } from '../../../src/jobs/cache/formats/eager.js';
import { columnName, encodeParquetResult, PARQUET_META_KEY } from '../../../src/jobs/cache/formats/parquet.js';
import { encodeParquet, writeParquetFile } from '../../../src/engine/result-codec.js';
import type { Compression, StoredResult } from '../../../src/jobs/types.js';
import { thrown } from '../../fixtures/thrown.js';
import { expectSameResult, sameBits, STATS } from './results.js';

const CODECS: readonly Compression[] = ['none', 'snappy', 'gzip', 'lz4'];
const PARQUET_NAMES: Readonly<Record<Compression, string>> = { none: 'UNCOMPRESSED', snappy: 'SNAPPY', gzip: 'GZIP', lz4: 'LZ4_RAW' };

function resultOf(time: Float64Array, signals: Record<string, Float64Array>): StoredResult {
  return { time, signals, measurements: { m: 1.25 }, stats: { ...STATS } };
}

function ramp(n: number, scale = 1): Float64Array {
  const values = new Float64Array(n);
  for (let i = 0; i < n; i++) values[i] = Math.sin(i * 1e-3) * scale + i * 1e-9;
  return values;
}

/** What parquet-wasm's metadata reader sees in the file. */
async function footer(bytes: Uint8Array): Promise<{ createdBy?: string; rows: number; groups: number; keys: string[]; columns: Array<{ path: string[]; codec: string; values: number }> }> {
  const file = await ParquetFile.fromFile(new Blob([bytes as Uint8Array<ArrayBuffer>]));
  try {
    const meta = file.metadata();
    const fileMeta = meta.fileMetadata();
    const groups = meta.rowGroups();
    const codecNames = ['UNCOMPRESSED', 'SNAPPY', 'GZIP', 'BROTLI', 'LZ4', 'ZSTD', 'LZ4_RAW', 'LZO'];
    return {
      createdBy: fileMeta.createdBy(),
      rows: fileMeta.numRows(),
      groups: meta.numRowGroups(),
      keys: [...(fileMeta.keyValueMetadata() as Map<string, string>).keys()],
      columns: groups.length === 0 ? [] : groups[0].columns().map((c) => ({ path: c.columnPath(), codec: codecNames[c.compression()], values: c.numValues() })),
    };
  } finally {
    file.free();
  }
}


describe('native Parquet writer', function () {
  this.timeout(60_000);
  let dir: string;
  let counter = 0;
  const roundTrip = async (result: StoredResult, compression: Compression): Promise<StoredResult> => {
    const path = join(dir, `r${++counter}-${compression}${fileExtension('parquet', compression)}`);
    await writeResult(path, result, 'parquet', compression);
    return readResult(path, 'parquet');
  };

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'pesim-parquet-'));
  });
  after(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  for (const compression of CODECS) {
    it(`${compression}: 300 000 rows (three pages per column) come back exactly, codec ${PARQUET_NAMES[compression]} in the footer`, async () => {
      const n = 300_000;
      // A gate signal: every codec shrinks it, so its column keeps the codec asked for.
      const gate = Float64Array.from({ length: n }, (_, i) => (i % 50 < 20 ? 1 : 0));
      const result = resultOf(ramp(n, 1e-6), { 'V(out)': ramp(n, 325), 'I(L1)': gate });
      const bytes = encodeParquetResult(result, ['V(out)', 'I(L1)'], compression);
      if (compression === 'none') expect(bytes.byteLength).to.be.above(3 * n * 8);
      const seen = await footer(bytes);
      expect(seen.createdBy).to.equal('pesim');
      expect(seen.rows).to.equal(n);
      expect(seen.groups).to.equal(1);
      expect(seen.keys).to.deep.equal([PARQUET_META_KEY]);
      expect(seen.columns.map((c) => ({ path: c.path, values: c.values }))).to.deep.equal(['time', 'V(out)', 'I(L1)'].map((name) => ({ path: [name], values: n })));
      // A ramp's column keeps the codec or, when the codec would barely shrink it, is stored uncompressed.
      for (const column of seen.columns.slice(0, 2)) expect(column.codec).to.be.oneOf([PARQUET_NAMES[compression], 'UNCOMPRESSED']);
      expect(seen.columns[2].codec).to.equal(PARQUET_NAMES[compression]);
      expectSameResult(await roundTrip(result, compression), result);
    });

    it(`${compression}: zero rows keep the columns, their names and the metadata`, async () => {
      const result = resultOf(new Float64Array(0), { a: new Float64Array(0), '': new Float64Array(0) });
      const bytes = encodeParquetResult(result, ['a', ''], compression);
      expect(Buffer.from(bytes.subarray(0, 4)).toString()).to.equal('PAR1');
      const seen = await footer(bytes);
      expect(seen.rows).to.equal(0);
      expect(seen.keys).to.deep.equal([PARQUET_META_KEY]);
      const back = await roundTrip(result, compression);
      expectSameResult(back, result);
      expect(back.signals[''].length).to.equal(0);
    });
  }

  it('stores a waveform snappy and LZ4 cannot shrink uncompressed, beside a gate signal they do shrink', async () => {
    const n = 10_001;
    const time = Float64Array.from({ length: n }, (_, i) => i * 1e-7);
    const current = Float64Array.from({ length: n }, (_, i) => 4 + 0.3 * Math.sin(2 * Math.PI * 20e3 * i * 1e-7) + 0.01 * Math.sin(1.7e6 * i * 1e-7));
    const gate = Float64Array.from({ length: n }, (_, i) => (i % 50 < 25 ? 1 : 0));
    const result = resultOf(time, { 'I(L1)': current, gate });
    for (const compression of ['snappy', 'lz4'] as const) {
      const seen = await footer(encodeParquetResult(result, ['I(L1)', 'gate'], compression));
      expect(seen.columns.map((c) => c.codec).slice(1)).to.deep.equal(['UNCOMPRESSED', PARQUET_NAMES[compression]]);
      expectSameResult(await roundTrip(result, compression), result);
    }
  });

  it('lets files of the same columns share one codec trial (writeParquetFile keepCodec), and uses decisions given', async () => {
    const n = 10_001;
    const time = Float64Array.from({ length: n }, (_, i) => i * 1e-7);
    const current = Float64Array.from({ length: n }, (_, i) => 4 + 0.3 * Math.sin(2 * Math.PI * 20e3 * i * 1e-7) + 0.01 * Math.sin(1.7e6 * i * 1e-7));
    const gate = Float64Array.from({ length: n }, (_, i) => (i % 50 < 25 ? 1 : 0));
    const written = (keepCodec: Int32Array): Uint8Array => {
      const path = join(dir, `keep${++counter}.parquet`);
      const fd = openSync(path, 'w');
      try {
        writeParquetFile(fd, [time, current, gate], ['time', 'I(L1)', 'gate'], {}, 'snappy', keepCodec);
      } finally {
        closeSync(fd);
      }
      return new Uint8Array(readFileSync(path));
    };
    // All -1: the codec is tried on each column, and the decisions come back.
    const keep = Int32Array.of(-1, -1, -1);
    const tried = await footer(written(keep));
    expect(Array.from(keep)).to.deep.equal([0, 0, 1]);
    expect(tried.columns.map((c) => c.codec)).to.deep.equal(['UNCOMPRESSED', 'UNCOMPRESSED', 'SNAPPY']);
    // Decisions given are used as they are, whatever the columns would give; the file reads back.
    expect((await footer(written(Int32Array.of(1, 1, 0)))).columns.map((c) => c.codec)).to.deep.equal(['SNAPPY', 'SNAPPY', 'UNCOMPRESSED']);
    const result = resultOf(time, { 'I(L1)': current, gate });
    const path = join(dir, 'kept.parquet');
    await writeResultInWorker(path, result, 'parquet', 'snappy', { sync: false, keepCodec: Int32Array.of(1, 1, 0) });
    expect((await footer(new Uint8Array(readFileSync(path)))).columns.map((c) => c.codec)).to.deep.equal(['SNAPPY', 'SNAPPY', 'UNCOMPRESSED']);
    expectSameResult(await readResult(path, 'parquet'), result);
    for (const [bad, field] of [[Int32Array.of(1, 0), 'keepCodec'], [Int32Array.of(-1, 1, 0), 'keepCodec[1]'], [Int32Array.of(2, 0, 0), 'keepCodec[0]']] as const) {
      const fd = openSync(join(dir, 'bad.parquet'), 'w');
      try {
        expect(thrown(() => writeParquetFile(fd, [time, current, gate], ['time', 'I(L1)', 'gate'], {}, 'snappy', bad))).to.deep.include({ code: 'ENCODE_INVALID', field });
      } finally {
        closeSync(fd);
      }
    }
  });

  it('keeps NaN (with payloads), ±Infinity, -0, subnormals and extremes bit for bit with every codec', async () => {
    const raw = new DataView(new ArrayBuffer(16));
    raw.setFloat64(0, NaN, true);
    raw.setUint32(8, 0x00000001, true);
    raw.setUint32(12, 0xfff00000, true); // a signalling-range NaN with the sign bit set
    const nans = new Float64Array(raw.buffer);
    const special = Float64Array.of(NaN, Infinity, -Infinity, -0, 0, 5e-324, -5e-324, Number.MAX_VALUE, -Number.MAX_VALUE, Number.MIN_VALUE, nans[1], 1 / 3);
    const result = resultOf(Float64Array.from(special.keys()), { x: special, y: special.slice().reverse() });
    for (const compression of CODECS) {
      const back = await roundTrip(result, compression);
      expect(sameBits(back.signals.x, special), compression).to.equal(true);
      expect(Object.is(back.signals.x[3], -0), compression).to.equal(true);
      expectSameResult(back, result);
    }
  });

  it('writes 50 columns in key order, each with its own values', async () => {
    const n = 2_000;
    const signals: Record<string, Float64Array> = {};
    for (let k = 0; k < 50; k++) signals[`SCOPE.${k}.ch${k % 4}`] = ramp(n, k + 1);
    const result = resultOf(ramp(n, 1e-6), signals);
    const names = Object.keys(signals);
    const seen = await footer(encodeParquetResult(result, names, 'snappy'));
    expect(seen.columns.map((c) => c.path[0])).to.deep.equal(['time', ...names]);
    const back = await roundTrip(result, 'lz4');
    expectSameResult(back, result);
    expect(back.signals['SCOPE.49.ch1'][n - 1]).to.equal(signals['SCOPE.49.ch1'][n - 1]);
  });

  it('stores unicode, NUL, duplicate and empty names exactly (the empty one as "(unnamed)")', async () => {
    const names = ['µΩ → ±', '日本語の信号', '⚡🔋 V(bat)', 'e\u0301', 'nul\0byte', 'time', '', '(unnamed)', 'time'];
    const unique = [...new Set(names)];
    const signals = Object.fromEntries(unique.map((name, k) => [name, ramp(10, k + 2)]));
    const result = resultOf(ramp(10, 1e-6), signals);
    const bytes = encodeParquetResult(result, names, 'gzip');
    const schema = readSchema(bytes);
    try {
      expect((schema.metadata() as Map<string, string>).has(PARQUET_META_KEY)).to.equal(true);
    } finally {
      schema.free();
    }
    const seen = await footer(bytes);
    expect(seen.columns.map((c) => c.path[0])).to.deep.equal(['time', ...names.map(columnName)]);
    expectSameResult(await roundTrip(result, 'gzip'), result);
  });

  it('reads the columns in place: subarrays of one buffer, even overlapping ones, are written as given', async () => {
    const shared = ramp(1_000);
    const result = resultOf(shared.subarray(0, 500), { a: shared.subarray(250, 750), b: shared.subarray(500) });
    expectSameResult(await roundTrip(result, 'snappy'), result);
  });

  describe('writeParquetFile: the file streamed to a descriptor', () => {
    const columns = [ramp(300_000), ramp(300_000, 3), ramp(300_000, -1)];
    const names = ['time', 'a', 'b'];
    for (const compression of CODECS) {
      it(`${compression}: writes exactly the bytes encodeParquet returns and reports their count`, () => {
        const path = join(dir, `fd-${compression}.parquet`);
        const fd = openSync(path, 'w');
        let size: number;
        try {
          size = writeParquetFile(fd, columns, names, { pesim: 'meta', other: 'x' }, compression);
        } finally {
          closeSync(fd);
        }
        const expected = encodeParquet(columns, names, { pesim: 'meta', other: 'x' }, compression);
        const written = readFileSync(path);
        expect(size).to.equal(expected.byteLength);
        expect(Buffer.compare(written, Buffer.from(expected))).to.equal(0);
      });
    }

    it('reports a failed write as Node does: ENOSPC on /dev/full, EBADF on a closed descriptor', () => {
      const full = openSync('/dev/full', 'w');
      try {
        const error = thrown(() => writeParquetFile(full, columns, names, {}, 'none'));
        expect(error.code).to.equal('ENOSPC');
        expect(error.syscall).to.equal('write');
      } finally {
        closeSync(full);
      }
      const closed = openSync(join(dir, 'closed.parquet'), 'w');
      closeSync(closed);
      expect(thrown(() => writeParquetFile(closed, columns, names, {}, 'none')).code).to.equal('EBADF');
    });

    it('refuses a descriptor that is not a non-negative integer, and bad columns, naming the field', () => {
      for (const fd of [-1, 1.5, '3', undefined]) {
        const error = thrown(() => writeParquetFile(fd as never, columns, names, {}, 'none'));
        expect(error.code).to.equal('ENCODE_INVALID');
        expect(error.field).to.equal('fd');
      }
      const fd = openSync(join(dir, 'refused.parquet'), 'w');
      try {
        const error = thrown(() => writeParquetFile(fd, [columns[0], Float64Array.of(1)], ['a', 'b'], {}, 'none'));
        expect(error.code).to.equal('ENCODE_INVALID');
        expect(error.field).to.equal('columns[1]');
      } finally {
        closeSync(fd);
      }
      expect(readFileSync(join(dir, 'refused.parquet')).length, 'nothing written for refused arguments').to.equal(0);
    });
  });

  describe('argument validation of the binding', () => {
    const ok = [Float64Array.of(1, 2), Float64Array.of(3, 4)];
    const cases: Array<[string, () => unknown, string]> = [
      ['columns not an array', () => encodeParquet('x' as never, ['a'], {}, 'none'), 'columns'],
      ['no columns', () => encodeParquet([], [], {}, 'none'), 'columns'],
      ['a Float32Array column', () => encodeParquet([ok[0], Float32Array.of(1, 2) as never], ['a', 'b'], {}, 'none'), 'columns[1]'],
      ['a plain array column', () => encodeParquet([[1, 2] as never], ['a'], {}, 'none'), 'columns[0]'],
      ['columns of different lengths', () => encodeParquet([ok[0], Float64Array.of(1)], ['a', 'b'], {}, 'none'), 'columns[1]'],
      ['names not an array', () => encodeParquet(ok, 'a,b' as never, {}, 'none'), 'names'],
      ['one name too few', () => encodeParquet(ok, ['a'], {}, 'none'), 'names'],
      ['a name that is not a string', () => encodeParquet(ok, ['a', 7 as never], {}, 'none'), 'names[1]'],
      ['metadata null', () => encodeParquet(ok, ['a', 'b'], null as never, 'none'), 'metadata'],
      ['metadata an array', () => encodeParquet(ok, ['a', 'b'], ['x'] as never, 'none'), 'metadata'],
      ['a metadata value that is not a string', () => encodeParquet(ok, ['a', 'b'], { pesim: 1 } as never, 'none'), 'metadata.pesim'],
      ['an unknown codec', () => encodeParquet(ok, ['a', 'b'], {}, 'zstd' as never), 'codec'],
      ['a codec that is not a string', () => encodeParquet(ok, ['a', 'b'], {}, 1 as never), 'codec'],
      ['no arguments', () => (encodeParquet as () => unknown)(), 'columns'],
    ];
    for (const [what, run, field] of cases) {
      it(`${what}: ENCODE_INVALID naming ${field}`, () => {
        const error = thrown(run);
        expect(error.code, error.message).to.equal('ENCODE_INVALID');
        expect(error.field).to.equal(field);
        expect(error.message).to.contain(field);
      });
    }

    it('still encodes after a refused call, with any key-value metadata', () => {
      thrown(() => encodeParquet(ok, ['a'], {}, 'none'));
      const bytes = encodeParquet(ok, ['a', 'b'], { one: '1', two: 'zwei' }, 'lz4');
      expect(Buffer.from(bytes.subarray(bytes.byteLength - 4)).toString()).to.equal('PAR1');
      const schema = readSchema(bytes);
      try {
        const metadata = schema.metadata() as Map<string, string>;
        expect(metadata.get('one')).to.equal('1');
        expect(metadata.get('two')).to.equal('zwei');
      } finally {
        schema.free();
      }
    });
  });
});
