// Result storage formats: exact round trips for every format × compression, compression that
// shrinks files, refused combinations, atomic writes, and CORRUPT_RESULT for damaged files.
import { expect } from 'chai';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { checkCombination, fileExtension, readResult, writeResult } from '../../../src/jobs/cache/formats/index.js';
import type { Compression, StorageFormat, StoredResult } from '../../../src/jobs/types.js';
import { COMBINATIONS, compressibleResult, expectSameResult, largeResult, sameBits, sampleResult, STATS } from './results.js';
import { thrown } from '../../fixtures/thrown.js';

async function rejection(promise: Promise<unknown>): Promise<Error & { code?: string }> {
  try {
    await promise;
  } catch (error) {
    return error as Error & { code?: string };
  }
  throw new Error('expected a rejection');
}


describe('result storage formats', function () {
  this.timeout(120_000);
  let dir: string;
  let counter = 0;
  const fileFor = (format: StorageFormat, compression: Compression): string =>
    join(dir, `r${++counter}-${format}-${compression}${fileExtension(format, compression)}`);

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'pesim-formats-'));
  });
  after(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  describe('round trips', () => {
    for (const [format, compression] of COMBINATIONS) {
      it(`${format} + ${compression}: awkward names and special values come back bit-identical`, async () => {
        const result = sampleResult(2_000);
        const path = fileFor(format, compression);
        const bytes = await writeResult(path, result, format, compression);
        expect(bytes).to.equal(statSync(path).size);
        const back = await readResult(path, format);
        expectSameResult(back, result);
        expect(Object.is(back.signals['V(out)'][3 * 7 + 1], -0)).to.equal(true);
        expect(back.signals['SCOPE.1.ch1'][5 * 7]).to.equal(5e-324);
        // Each column owns its buffer, so a caller may transfer it to a worker thread.
        for (const values of [back.time, ...Object.values(back.signals)]) {
          expect(values.byteOffset).to.equal(0);
          expect(values.buffer.byteLength).to.equal(values.byteLength);
        }
      });

      it(`${format} + ${compression}: a result without signals, and one without points`, async () => {
        const noSignals: StoredResult = { time: Float64Array.of(0, 1e-6, 2e-6), signals: {}, measurements: {}, stats: { ...STATS, solver: 'dense' } };
        const path = fileFor(format, compression);
        await writeResult(path, noSignals, format, compression);
        expectSameResult(await readResult(path, format), noSignals);
        const noPoints = sampleResult(0, ['SCOPE.1.ch1', 'V(out)']);
        await writeResult(path, noPoints, format, compression);
        const back = await readResult(path, format);
        expectSameResult(back, noPoints);
        expect(back.signals['V(out)'].length).to.equal(0);
      });
    }

    it('keeps NaN payloads in parquet and hdf5; csv reads every NaN back as the canonical NaN', async () => {
      const raw = new DataView(new ArrayBuffer(8));
      raw.setUint32(0, 0xdeadbeef, true);
      raw.setUint32(4, 0x7ff81234, true);
      const payloadNaN = new Float64Array(raw.buffer);
      const result: StoredResult = { time: Float64Array.of(0, 1), signals: { x: Float64Array.of(1, payloadNaN[0]) }, measurements: {}, stats: { ...STATS } };
      for (const format of ['parquet', 'hdf5'] as const) {
        const path = fileFor(format, 'none');
        await writeResult(path, result, format, 'none');
        expect(sameBits((await readResult(path, format)).signals.x, result.signals.x), format).to.equal(true);
      }
      const path = fileFor('csv', 'none');
      await writeResult(path, result, 'csv', 'none');
      const back = (await readResult(path, 'csv')).signals.x;
      expect(back[0]).to.equal(1);
      expect(sameBits(back.subarray(1), Float64Array.of(NaN))).to.equal(true);
    });

    it('writes signal names, metadata and full-precision numbers readably in csv', async () => {
      const result: StoredResult = { time: Float64Array.of(0, 0.1 + 0.2), signals: { 'V(out)': Float64Array.of(-0, 1 / 3), 'a,b': Float64Array.of(NaN, -Infinity) }, measurements: { m: 1.5 }, stats: { ...STATS } };
      const path = fileFor('csv', 'none');
      await writeResult(path, result, 'csv', 'none');
      const lines = readFileSync(path, 'utf8').split('\n');
      expect(lines[0]).to.match(/^# pesim \{"format":"pesim-result","version":1,"rows":2,/);
      expect(lines.slice(1)).to.deep.equal(['time,V(out),"a,b"', '0,-0,NaN', '0.30000000000000004,0.3333333333333333,-Infinity', '']);
    });
  });

  describe('compression', () => {
    it('makes every format smaller than without compression for a compressible result', async () => {
      const result = compressibleResult(50_000);
      const sizes: Record<string, number> = {};
      for (const [format, compression] of COMBINATIONS) {
        const path = fileFor(format, compression);
        sizes[`${format}+${compression}`] = await writeResult(path, result, format, compression);
        expectSameResult(await readResult(path, format), result);
      }
      for (const [format, compression] of COMBINATIONS.filter(([, c]) => c !== 'none')) {
        expect(sizes[`${format}+${compression}`], `${format}+${compression} vs ${format}+none`).to.be.below(0.8 * sizes[`${format}+none`]);
      }
      // Uncompressed csv and hdf5 are at least as large as the raw doubles (50 000 × 3 × 8 bytes).
      expect(sizes['hdf5+none']).to.be.at.least(1_200_000);
      expect(sizes['csv+gzip']).to.be.below(0.3 * sizes['csv+none']);
    });

    it('compresses csv with plain gzip, readable by any gunzip', async () => {
      const path = fileFor('csv', 'gzip');
      await writeResult(path, compressibleResult(100), 'csv', 'gzip');
      const bytes = readFileSync(path);
      expect([bytes[0], bytes[1]]).to.deep.equal([0x1f, 0x8b]);
      const text = gunzipSync(bytes).toString('utf8');
      expect(text.split('\n')[1]).to.equal('time,GATE.1,V(C1)');
    });
  });

  describe('combinations and file names', () => {
    const refused: Array<[StorageFormat, Compression, string]> = [
      ['hdf5', 'snappy', 'gzip, none'],
      ['hdf5', 'lz4', 'gzip, none'],
      ['csv', 'snappy', 'gzip, none'],
      ['csv', 'lz4', 'gzip, none'],
    ];
    for (const [format, compression, supported] of refused) {
      it(`refuses ${format} + ${compression}, naming what ${format} supports`, async () => {
        const error = thrown(() => checkCombination(format, compression));
        expect(error.code).to.equal('UNSUPPORTED_COMBINATION');
        expect(error.message).to.equal(`Storage format ${format} does not support ${compression} compression; ${format} supports ${supported}`);
        const path = join(dir, `refused-${format}-${compression}`);
        const writeError = await rejection(writeResult(path, sampleResult(10), format, compression));
        expect(writeError.code).to.equal('UNSUPPORTED_COMBINATION');
        expect(readdirSync(dir).filter((name) => name.includes('refused'))).to.deep.equal([]);
      });
    }

    it('accepts every supported combination and refuses an unknown format', () => {
      for (const [format, compression] of COMBINATIONS) expect(() => checkCombination(format, compression)).not.to.throw();
      const error = thrown(() => checkCombination('xlsx' as StorageFormat, 'none'));
      expect(error.code).to.equal('UNSUPPORTED_COMBINATION');
      expect(error.message).to.contain('xlsx').and.contain('parquet, hdf5 and csv');
    });

    it('names files by format and compression', () => {
      expect(COMBINATIONS.map(([f, c]) => fileExtension(f, c))).to.deep.equal(['.parquet', '.parquet', '.parquet', '.parquet', '.h5', '.h5', '.csv', '.csv.gz']);
    });

    it('replaces a file atomically and leaves no temporary file, even when the write fails', async () => {
      const sub = mkdtempSync(join(dir, 'atomic-'));
      const path = join(sub, 'result.h5');
      await writeResult(path, sampleResult(100), 'hdf5', 'gzip');
      const second = sampleResult(50, ['other']);
      await writeResult(path, second, 'hdf5', 'gzip');
      expectSameResult(await readResult(path, 'hdf5'), second);
      const bad: StoredResult = { ...second, signals: { other: new Float64Array(3) } };
      const error = await rejection(writeResult(path, bad, 'hdf5', 'gzip'));
      expect(error.code).to.equal('INVALID_RESULT');
      expect(readdirSync(sub)).to.deep.equal(['result.h5']);
      expectSameResult(await readResult(path, 'hdf5'), second);
    });
  });

  describe('damaged files', () => {
    const expectCorrupt = async (path: string, format: StorageFormat): Promise<Error> => {
      const error = await rejection(readResult(path, format));
      expect(error.code, error.message).to.equal('CORRUPT_RESULT');
      expect(error.message).to.contain(path).and.contain(format);
      return error;
    };

    for (const [format, compression] of COMBINATIONS) {
      it(`${format} + ${compression}: truncated, garbage, empty and damaged files are CORRUPT_RESULT`, async () => {
        const path = fileFor(format, compression);
        await writeResult(path, sampleResult(3_000), format, compression);
        const good = readFileSync(path);
        const damaged = join(dir, `damaged-${format}-${compression}`);
        for (const cut of [good.length >> 1, good.length - 7, 100, 3]) {
          writeFileSync(damaged, good.subarray(0, cut));
          await expectCorrupt(damaged, format);
        }
        let seed = 7;
        const garbage = Buffer.alloc(4096, 0).map(() => (seed = (seed * 1103515245 + 12345) & 0xff));
        writeFileSync(damaged, garbage);
        await expectCorrupt(damaged, format);
        writeFileSync(damaged, '');
        await expectCorrupt(damaged, format);
        const flipped = Buffer.from(good);
        for (let i = Math.floor(good.length * 0.6); i < Math.floor(good.length * 0.6) + 64; i++) flipped[i] ^= 0x5a;
        writeFileSync(damaged, flipped);
        await expectCorrupt(damaged, format);
      });
    }

    it('refuses a file of another format and foreign files without pesim metadata', async () => {
      const result = sampleResult(100);
      const files = { parquet: fileFor('parquet', 'snappy'), hdf5: fileFor('hdf5', 'none'), csv: fileFor('csv', 'none') };
      for (const format of ['parquet', 'hdf5', 'csv'] as const) await writeResult(files[format], result, format, format === 'parquet' ? 'snappy' : 'none');
      for (const format of ['parquet', 'hdf5', 'csv'] as const) {
        for (const other of ['parquet', 'hdf5', 'csv'] as const) if (other !== format) await expectCorrupt(files[other], format);
      }
      const plainCsv = join(dir, 'plain.csv');
      writeFileSync(plainCsv, 'time,V(out)\n0,1\n1,2\n');
      expect((await expectCorrupt(plainCsv, 'csv')).message).to.contain('does not start with "# pesim"');
      const wrongHeader = readFileSync(files.csv, 'utf8').replace('\ntime,SCOPE.1.ch1,', '\ntime,SCOPE.1.ch2,');
      writeFileSync(plainCsv, wrongHeader);
      expect((await expectCorrupt(plainCsv, 'csv')).message).to.contain('header line does not match');
      const extraRow = `${readFileSync(files.csv, 'utf8')}${'1,'.repeat(13)}1\n`;
      writeFileSync(plainCsv, extraRow);
      expect((await expectCorrupt(plainCsv, 'csv')).message).to.contain('more than the 100 data rows');
    });

    it('reports a missing file as a file-system error, not as corrupt', async () => {
      const error = await rejection(readResult(join(dir, 'missing.parquet'), 'parquet'));
      expect(error.code).to.equal('ENOENT');
    });
  });

  describe('a million points', () => {
    let result: StoredResult;
    before(() => {
      result = largeResult();
    });
    for (const [format, compression] of COMBINATIONS) {
      it(`${format} + ${compression}: writes and reads back exactly`, async () => {
        const path = fileFor(format, compression);
        const bytes = await writeResult(path, result, format, compression);
        expect(bytes).to.be.above(compression === 'none' ? 1_000_000 * 8 : 100_000);
        const back = await readResult(path, format);
        expect(back.time.length).to.equal(1_000_000);
        expect(back.signals['V(out)'][999_999]).to.equal(result.signals['V(out)'][999_999]);
        expectSameResult(back, result);
        rmSync(path);
      });
    }
  });
});
