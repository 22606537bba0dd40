// Durability levels: the structural check of result files, the check after an unclean close (a
// task whose file did not reach the disk intact runs again; intact ones are left alone; nothing is
// checked after a clean close), PESIM_DURABILITY, and `full` asking the workers to flush.
import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { looksComplete, markOpen, removeAbandonedTemporaries } from '../../../src/jobs/durability.js';
import { readResult, writeResult } from '../../../src/jobs/cache/formats/index.js';
import type { ExecutionRequest, Executor } from '../../../src/jobs/executors/types.js';
import { durabilityFromEnv } from '../../../src/jobs/runtime.js';
import type { Compression, StorageFormat, StoredResult, TaskRecord } from '../../../src/jobs/types.js';
import { task, testRuntime, waitForState, type TestRuntime } from './harness.js';

const result: StoredResult = {
  time: Float64Array.from([0, 1, 2, 3]),
  signals: { a: Float64Array.from([1, 2, 3, 4]), b: Float64Array.from([-1, 0.5, 2, 9]) },
  measurements: { 'a.avg': 2.5 },
  stats: { steps: 3, preSteps: 0, factorizations: 1, cacheHits: 2, switchingEvents: 0, extraSolves: 0, unknowns: 2, solver: 'dense', wallMs: 0.1 },
};

describe('durability', function () {
  this.timeout(60_000);
  const dir = mkdtempSync(join(tmpdir(), 'pesim-durability-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  /** A runtime in a fresh data directory that completes `count` tasks and is closed again. */
  async function completedAndClosed(prefix: string, count: number): Promise<{ data: string; first: TestRuntime; done: TaskRecord[] }> {
    const data = mkdtempSync(join(dir, prefix));
    const first = testRuntime((s) => (s.cache.enabled = false), {}, data);
    const records = await first.scheduler.submitMany(Array.from({ length: count }, () => task()));
    const done = await Promise.all(records.map((r) => waitForState(first, r.id, ['completed'])));
    await first.dispose();
    return { data, first, done };
  }

  it('tells complete result files from truncated, emptied or zero-filled ones, in every format', async () => {
    const cases: Array<[StorageFormat, Compression, string]> = [
      ['parquet', 'snappy', 'parquet'], ['parquet', 'none', 'parquet'], ['hdf5', 'gzip', 'h5'], ['csv', 'none', 'csv'], ['csv', 'gzip', 'csv.gz'],
    ];
    for (const [format, compression, extension] of cases) {
      const path = join(dir, `r-${format}-${compression}.${extension}`);
      await writeResult(path, result, format, compression, { sync: false });
      expect(looksComplete(path, format), `${format}/${compression} complete`).to.equal(true);
      const bytes = readFileSync(path);
      if (format !== 'hdf5' && !(format === 'csv' && compression === 'gzip')) {
        writeFileSync(path, Buffer.concat([bytes.subarray(0, bytes.length - 8), Buffer.alloc(8)]));
        expect(looksComplete(path, format), `${format}/${compression} zero-filled tail`).to.equal(false);
        writeFileSync(path, bytes.subarray(0, Math.floor(bytes.length / 2)));
        expect(looksComplete(path, format), `${format}/${compression} truncated`).to.equal(false);
      }
      truncateSync(path, 0);
      expect(looksComplete(path, format), `${format}/${compression} empty`).to.equal(false);
      expect(looksComplete(join(dir, 'missing'), format)).to.equal(false);
    }
  });

  it('after an unclean close, runs again the tasks whose result file is damaged and leaves the others', async () => {
    const { data, first, done } = await completedAndClosed('unclean-', 3);
    const ids = done.map((t) => t.id);
    // The system stopped without the runtime closing: the marker stays, one file did not survive.
    markOpen(data);
    truncateSync(first.scheduler.resultPath(ids[1]), 100);

    const second = testRuntime((s) => (s.cache.enabled = false), {}, data);
    try {
      const again = await waitForState(second, ids[1], ['completed']);
      const rerun = second.store.tasks.get(ids[1])!;
      expect(rerun.state).to.equal('completed');
      expect(rerun.completedAt! > done[1].completedAt!, 'completed anew').to.equal(true);
      expect(again.attempts).to.equal(2);
      const restored = await readResult(second.scheduler.resultPath(ids[1]), 'parquet');
      expect(restored.time.length).to.be.greaterThan(1000);
      for (const i of [0, 2]) {
        const kept = second.store.tasks.get(ids[i])!;
        expect([kept.state, kept.completedAt, kept.attempts], `task ${i} untouched`).to.deep.equal(['completed', done[i].completedAt, 1]);
      }
      const warning = second.store.logs.recent(50).find((l) => l.taskId === ids[1] && l.level === 'WARNING');
      expect(warning?.message).to.match(/did not reach the disk intact/);
    } finally {
      await second.dispose();
    }
  });

  it('after an unclean close, removes the temporary files of writers that stopped and keeps those of living ones', async () => {
    const { data, done: [record] } = await completedAndClosed('temporaries-', 1);
    markOpen(data); // the process stopped without closing
    const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    const deadPid = Number(child.stdout);
    const results = join(data, 'results');
    const abandoned = join(results, `.x.parquet.${deadPid}-0123456789ab.tmp`);
    const living = join(results, `.y.parquet.${process.pid}-0123456789ab.tmp`);
    const unrelated = join(results, '.notes.tmp');
    for (const path of [abandoned, living, unrelated]) writeFileSync(path, 'partial');
    // Directly: the removed paths are returned, a missing directory is skipped.
    expect(removeAbandonedTemporaries([results, join(data, 'missing')])).to.deep.equal([abandoned]);
    writeFileSync(abandoned, 'partial');
    // And when the runtime opens the directory again.
    const second = testRuntime((s) => (s.cache.enabled = false), {}, data);
    try {
      expect(existsSync(abandoned), 'abandoned temporary file').to.equal(false);
      expect(existsSync(living), 'a living process\'s temporary file').to.equal(true);
      expect(existsSync(unrelated), 'a file of another pattern').to.equal(true);
      expect(existsSync(second.scheduler.resultPath(record.id)), 'the result file').to.equal(true);
    } finally {
      await second.dispose();
    }
  });

  it('checks nothing after a clean close (a damaged file then reads as CORRUPT_RESULT, the task stays completed)', async () => {
    const { data, first, done: [record] } = await completedAndClosed('clean-', 1);
    truncateSync(first.scheduler.resultPath(record.id), 100);
    const second = testRuntime((s) => (s.cache.enabled = false), {}, data);
    try {
      expect(second.store.tasks.get(record.id)!.state).to.equal('completed');
      const failure = await second.scheduler.result(record.id).then(() => undefined, (e: unknown) => e as { code?: string });
      expect(failure?.code).to.equal('CORRUPT_RESULT');
    } finally {
      await second.dispose();
    }
  });

  it('reads PESIM_DURABILITY and refuses unknown levels; `full` asks the executor to flush each result', async () => {
    expect(durabilityFromEnv({})).to.equal('normal');
    expect(durabilityFromEnv({ PESIM_DURABILITY: 'full' })).to.equal('full');
    expect(() => durabilityFromEnv({ PESIM_DURABILITY: 'fsync' })).to.throw(/PESIM_DURABILITY must be one of normal, full/);

    for (const durability of ['normal', 'full'] as const) {
      const requests: ExecutionRequest[] = [];
      const recording: Executor = {
        name: 'recording',
        capacity: 1,
        run: async (request) => {
          requests.push(request);
          return { ok: false, error: { code: 'TEST', message: 'not run', deterministic: true } };
        },
        connected: () => true,
        close: async () => {},
      };
      const runtime = testRuntime((s) => {
        s.cache.enabled = false;
        s.durability = durability;
      }, { executor: recording });
      try {
        const [record] = await runtime.scheduler.submitMany([task()]);
        await waitForState(runtime, record.id, ['failed']);
        expect(requests[0].output?.sync, durability).to.equal(durability === 'full');
      } finally {
        await runtime.dispose();
      }
    }
  });
});
