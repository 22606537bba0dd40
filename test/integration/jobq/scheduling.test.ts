// Scheduling through the job-queue service: priority order on one worker, retries with exponential
// back-off after injected transient failures, cancel stopping a running engine run, result-cache
// hits on resubmission, and atomic batches.
import { expect } from 'chai';
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sleep, startTestService, waitForState, type TestService } from './harness.js';

type Json = Record<string, unknown>;
const PRIORITY_RANK: Record<string, number> = { CRITICAL: 0, HIGH: 1, NORMAL: 2, LOW: 3 };

/** Task ids in the order the scheduler started them (from the "started" log entries). */
async function startOrder(service: TestService): Promise<string[]> {
  const { logs } = (await service.request('GET', '/logs?limit=1000')).body as { logs: { message: string; task_id?: string }[] };
  return logs.filter((l) => l.message.startsWith('started (attempt 1)')).map((l) => l.task_id!).reverse();
}

describe('job-queue service: scheduling', function () {
  this.timeout(120_000);

  describe('on one worker without cache', () => {
    let service: TestService;
    before(async () => {
      service = await startTestService((c) => {
        c.orchestration.max_concurrent_simulations = 1;
        c.cache.enabled = false;
      });
    });
    after(async () => service.dispose());

    it('starts 20 mixed-priority tasks by priority, first-in first-out within one priority', async () => {
      const blocker = ((await service.request('POST', '/simulations', { model_file: 'long.json', priority: 'CRITICAL' })).body as Json).task_id as string;
      await waitForState(service, blocker, ['running']);
      const submitted: { id: string; priority: string; index: number }[] = [];
      const priorities = ['LOW', 'NORMAL', 'HIGH', 'CRITICAL', 'NORMAL', 'LOW', 'HIGH'];
      for (let index = 0; index < 20; index++) {
        const priority = priorities[index % priorities.length];
        const r = await service.request('POST', '/simulations', { model_file: 'rc.json', parameters: { 'R.1.R': 100 + index }, priority });
        expect(r.status).to.equal(201);
        submitted.push({ id: (r.body as Json).task_id as string, priority, index });
      }
      expect((await service.request('DELETE', `/simulations/${blocker}`)).status).to.equal(200);
      for (const task of submitted) await waitForState(service, task.id, ['completed']);

      const expected = [...submitted].sort((a, b) => PRIORITY_RANK[a.priority] - PRIORITY_RANK[b.priority] || a.index - b.index).map((t) => t.id);
      const order = (await startOrder(service)).filter((id) => id !== blocker);
      expect(order).to.deep.equal(expected);
      const startedAt: number[] = [];
      for (const id of expected) startedAt.push(Date.parse(((await service.request('GET', `/simulations/${id}`)).body as Json).started_at as string));
      for (let i = 1; i < startedAt.length; i++) expect(startedAt[i], `start ${i}`).to.be.at.least(startedAt[i - 1]);
    });

    it('cancelling a running task stops its engine run and frees the worker', async () => {
      const id = ((await service.request('POST', '/simulations', { model_file: 'long.json' })).body as Json).task_id as string;
      await new Promise<void>((resolve) => {
        const listener = (task: { id: string }, progress: { step: number }): void => {
          if (task.id === id && progress.step > 0) {
            service.runtime.events.off('progress', listener);
            resolve();
          }
        };
        service.runtime.events.on('progress', listener);
      });
      expect(service.runtime.scheduler.activeRuns).to.equal(1);
      const r = await service.request('DELETE', `/simulations/${id}`);
      expect(r.status).to.equal(200);
      expect((r.body as Json).status).to.equal('cancelled');
      // The 30 s model would hold the only worker far beyond the test's time-out unless stopped.
      while (service.runtime.scheduler.activeRuns > 0) await sleep(20);
      const next = ((await service.request('POST', '/simulations', { model_file: 'rc.json' })).body as Json).task_id as string;
      expect((await waitForState(service, next, ['completed'])).state).to.equal('completed');
      const record = (await service.request('GET', `/simulations/${id}`)).body as Json;
      expect(record.status).to.equal('cancelled');
      expect(existsSync(service.runtime.scheduler.resultPath(id))).to.equal(false);
    });
  });

  describe('with transient failures injected through the executor', () => {
    let service: TestService;
    let markers: string;
    before(async () => {
      markers = mkdtempSync(join(tmpdir(), 'pesim-jobq-markers-'));
      process.env.JOBQ_TEST_MARKER_DIR = markers;
      service = await startTestService((c) => {
        c.orchestration.retry_attempts = 3;
        c.orchestration.retry_delay = 0.05;
        c.cache.enabled = false; // both flaky models are the RC circuit: one key
      });
      copyFileSync(join(service.modelsDir, 'rc.json'), join(service.modelsDir, 'flaky-2.json'));
      copyFileSync(join(service.modelsDir, 'rc.json'), join(service.modelsDir, 'flaky-9.json'));
    });
    after(async () => {
      await service.dispose();
      rmSync(markers, { recursive: true, force: true });
      delete process.env.JOBQ_TEST_MARKER_DIR;
    });

    it('retries with back-off retry_delay · 2^(n−1) and completes', async () => {
      const id = ((await service.request('POST', '/simulations', { model_file: 'flaky-2.json' })).body as Json).task_id as string;
      await waitForState(service, id, ['completed', 'failed']);
      const record = (await service.request('GET', `/simulations/${id}`)).body as Json;
      expect(record).to.include({ status: 'completed', retry_count: 2, error_message: null });
      const { logs } = (await service.request('GET', '/logs?level=WARNING')).body as { logs: { message: string; task_id?: string }[] };
      const retries = logs.filter((l) => l.task_id === id).map((l) => /retry in (\d+) ms/.exec(l.message)?.[1]).filter((d) => d !== undefined).reverse();
      expect(retries).to.deep.equal(['50', '100']);
      const result = (await service.request('GET', `/simulations/${id}/result`)).body as { status: string; results: Record<string, number[]> };
      expect(result.status).to.equal('completed');
      expect(result.results['SCOPE.1.ch1'].length).to.equal(result.results.t.length);
    });

    it('fails after retry_attempts retries with the last error', async () => {
      const id = ((await service.request('POST', '/simulations', { model_file: 'flaky-9.json' })).body as Json).task_id as string;
      await waitForState(service, id, ['failed', 'completed']);
      const record = (await service.request('GET', `/simulations/${id}`)).body as Json;
      expect(record).to.include({ status: 'failed', retry_count: 3, error_message: 'injected transient failure 4' });
      const { logs } = (await service.request('GET', '/logs?level=WARNING')).body as { logs: { message: string; task_id?: string }[] };
      const retries = logs.filter((l) => l.task_id === id).map((l) => /retry in (\d+) ms/.exec(l.message)?.[1]).filter((d) => d !== undefined).reverse();
      expect(retries).to.deep.equal(['50', '100', '200']);
    });
  });

  describe('with the result cache', () => {
    let service: TestService;
    before(async () => {
      service = await startTestService();
    });
    after(async () => service.dispose());

    it('completes a resubmission from the cache with identical results', async () => {
      const request = { model_file: 'rc.json', parameters: { 'R.1.R': 500 }, output_variables: ['SCOPE.1.ch1', 'out'] };
      const first = ((await service.request('POST', '/simulations', request)).body as Json).task_id as string;
      await waitForState(service, first, ['completed']);
      const again = await service.request('POST', '/simulations', request);
      expect(again.status).to.equal(201);
      expect(again.body).to.include({ status: 'completed' });
      const second = (again.body as Json).task_id as string;
      const record = (await service.request('GET', `/simulations/${second}`)).body as Json;
      expect(record.cache_hit).to.equal(true);
      const a = (await service.request('GET', `/simulations/${first}/result`)).body as { results: Json; metadata: Json };
      const b = (await service.request('GET', `/simulations/${second}/result`)).body as { results: Json; metadata: Json };
      expect(b.results).to.deep.equal(a.results);
      expect(b.metadata.cache_hit).to.equal(true);
      expect(a.metadata.cache_hit).to.equal(false);
      expect(b.metadata.simulation_time).to.equal(a.metadata.simulation_time);

      const entry = (await service.request('GET', `/cache/entry/${record.cache_key}`)).body as Json;
      expect(entry).to.include({ cache_key: record.cache_key, model_file: 'rc.json', access_count: 1, storage_format: 'parquet' });
      expect(entry.parameters).to.deep.equal({ 'R.1.R': 500 });
      expect(entry.size_bytes).to.be.greaterThan(0);
      // Other parameters are another key: a miss.
      const other = await service.request('POST', '/simulations', { ...request, parameters: { 'R.1.R': 600 } });
      expect(other.body).to.include({ status: 'queued' });
      await waitForState(service, (other.body as Json).task_id as string, ['completed']);

      const stats = (await service.request('GET', '/cache/stats')).body as Json;
      expect(stats).to.include({ enabled: true, hits: 1, misses: 2, total_entries: 2, storage_format: 'parquet', compression: 'snappy' });
      expect(stats.hit_rate).to.be.closeTo(1 / 3, 1e-12);
      expect(stats.disk_usage_mb).to.be.greaterThan(0);
      expect(Date.parse(stats.newest_entry as string)).to.be.at.least(Date.parse(stats.oldest_entry as string));

      const cleared = await service.request('POST', '/cache/clear?confirm=true');
      expect(cleared.status).to.equal(200);
      expect(cleared.body).to.include({ entries_removed: 2 });
      expect((cleared.body as Json).disk_space_freed_mb).to.be.closeTo(stats.disk_usage_mb as number, 1e-9);
      expect(((await service.request('GET', '/cache/stats')).body as Json).total_entries).to.equal(0);
      expect((await service.request('GET', `/cache/entry/${record.cache_key}`)).status).to.equal(404);
    });

    it('queues a batch of 50 with one task id per item in order, and nothing when one item is invalid', async () => {
      const items = Array.from({ length: 50 }, (_, i) => ({ model_file: 'rc.json', parameters: { 'R.1.R': 1000 + i }, priority: i % 2 ? 'LOW' : 'HIGH' }));
      const count = async () => service.runtime.store.tasks.countByState('jobq');
      const before = JSON.stringify(await count());
      for (const [index, item, status, code] of [
        [37, { ...items[37], priority: 'SOON' }, 400, 'INVALID_PRIORITY'],
        [12, { ...items[12], model_file: 'absent.json' }, 404, 'MODEL_NOT_FOUND'],
        [49, { ...items[49], parameters: { 'X.1.R': 1 } }, 400, 'VALIDATION_ERROR'],
      ] as const) {
        const bad: unknown[] = [...items];
        bad[index] = item;
        const r = await service.request('POST', '/simulations/batch', bad);
        expect(r.status).to.equal(status);
        expect(r.body).to.include({ error_code: code });
        expect((r.body as Json).field).to.match(new RegExp(`^\\[${index}\\]`));
      }
      const shape = [...items] as unknown[];
      shape[3] = { parameters: {} };
      const r422 = await service.request('POST', '/simulations/batch', shape);
      expect(r422.status).to.equal(422);
      expect((r422.body as { detail: { loc: unknown[] }[] }).detail[0].loc).to.deep.equal(['body', 3, 'model_file']);
      expect(JSON.stringify(await count())).to.equal(before);

      const ok = await service.request('POST', '/simulations/batch', items);
      expect(ok.status).to.equal(201);
      const body = ok.body as { task_ids: string[]; batch_size: number; message: string; submitted_at: string };
      expect(body.batch_size).to.equal(50);
      expect(body.task_ids).to.have.length(50);
      for (const [i, id] of body.task_ids.entries()) {
        const record = (await service.request('GET', `/simulations/${id}`)).body as Json;
        expect(record.parameters).to.deep.equal(items[i].parameters);
        expect(record.priority).to.equal(items[i].priority);
      }
      const tooMany = await service.request('POST', '/simulations/batch', Array.from({ length: 1001 }, () => items[0]));
      expect(tooMany.status).to.equal(422);
      for (const id of body.task_ids) await waitForState(service, id, ['completed']);
    });
  });
});
