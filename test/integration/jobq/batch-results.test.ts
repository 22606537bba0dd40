// The job-queue service's results table: POST /simulations/batch with 10 000 items of the RC model
// (short runs), then GET /simulations/batch/{batch_id}/results as JSON, CSV and Parquet (read back
// by parquet-wasm): one row per item in item order with the item's parameters, status and
// measurements.
import { expect } from 'chai';
import { tableFromIPC } from 'apache-arrow';
import { readParquet } from 'parquet-wasm';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { rcStep } from '../../fixtures/circuits.js';
import { startTestService, type TestService } from './harness.js';

const RUNS = 10_000;

interface Row {
  run: number;
  task_id: string;
  status: string;
  parameters: Record<string, number>;
  measurements: Record<string, number>;
  duration_ms: number | null;
  error_message: string | null;
}

describe('job-queue service: the results table of a 10 000-task batch', function () {
  this.timeout(600_000);
  let service: TestService;
  let batchId: string;
  let taskIds: string[];

  before(async () => {
    service = await startTestService((c) => {
      c.orchestration.queue_size = RUNS;
      c.cache.enabled = false;
      c.api.max_body_mb = 64;
    });
    writeFileSync(join(service.modelsDir, 'tiny.json'), JSON.stringify(rcStep('backward-euler', 1e-5, 1e-4)));
    const items = Array.from({ length: RUNS }, (_, i) => ({ model_file: 'tiny.json', parameters: { 'R.1.R': 100 + i } }));
    const r = await service.request('POST', '/simulations/batch', items);
    expect(r.status).to.equal(201);
    const body = r.body as { batch_id: string; task_ids: string[]; batch_size: number };
    expect(body.batch_size).to.equal(RUNS);
    batchId = body.batch_id;
    taskIds = body.task_ids;
    const deadline = Date.now() + 540_000;
    for (;;) {
      const stats = (await service.request('GET', '/stats')).body as { queue: { pending: number; running: number } };
      if (stats.queue.pending + stats.queue.running === 0) break;
      if (Date.now() > deadline) throw new Error('the batch did not finish in time');
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  });
  after(async () => service?.dispose());

  it('answers one row per task in item order as JSON, CSV and Parquet', async () => {
    const json = await service.request('GET', `/simulations/batch/${batchId}/results`);
    expect(json.status).to.equal(200);
    const table = json.body as { batch_id: string; batch_size: number; parameters: string[]; measurements: string[]; rows: Row[] };
    expect(table).to.include({ batch_id: batchId, batch_size: RUNS });
    expect(table.parameters).to.deep.equal(['R.1.R']);
    expect(table.rows).to.have.length(RUNS);
    table.rows.forEach((row, i) => {
      expect(row).to.include({ run: i, task_id: taskIds[i], status: 'completed', error_message: null });
      expect(row.parameters).to.deep.equal({ 'R.1.R': 100 + i });
      expect(row.measurements['SCOPE.1.ch1_avg']).to.be.a('number');
    });
    // A larger R charges the capacitor more slowly.
    expect(table.rows[RUNS - 1].measurements['SCOPE.1.ch1_avg']).to.be.below(table.rows[0].measurements['SCOPE.1.ch1_avg']);

    const csv = await fetch(`${service.url}/simulations/batch/${batchId}/results`, { headers: { accept: 'text/csv' } });
    expect(csv.headers.get('content-type')).to.match(/^text\/csv/);
    const lines = (await csv.text()).trim().split('\n');
    expect(lines).to.have.length(RUNS + 1);
    expect(lines[0].split(',').slice(0, 4)).to.deep.equal(['run', 'task_id', 'status', 'R.1.R']);
    expect(lines[1].split(',').slice(0, 4)).to.deep.equal(['0', taskIds[0], 'completed', '100']);

    const pq = await fetch(`${service.url}/simulations/batch/${batchId}/results?format=parquet`);
    expect(pq.headers.get('content-type')).to.equal('application/vnd.apache.parquet');
    const parquet = tableFromIPC(readParquet(new Uint8Array(await pq.arrayBuffer())).intoIPCStream());
    expect(parquet.numRows).to.equal(RUNS);
    expect(parquet.getChild('task_id')!.get(RUNS - 1)).to.equal(taskIds[RUNS - 1]);
    expect(parquet.getChild('R.1.R')!.get(RUNS - 1)).to.equal(100 + RUNS - 1);
    expect(parquet.getChild('SCOPE.1.ch1_avg')!.get(0)).to.equal(table.rows[0].measurements['SCOPE.1.ch1_avg']);
  });

  it('answers 404 BATCH_NOT_FOUND and 400 INVALID_FORMAT', async () => {
    const missing = await service.request('GET', '/simulations/batch/7a9e3c10-2b4d-4f6a-8c1e-0d5b9f2a6e38/results');
    expect(missing.status).to.equal(404);
    expect(JSON.stringify(missing.body)).to.include('BATCH_NOT_FOUND');
    const bad = await service.request('GET', `/simulations/batch/${batchId}/results?format=xml`);
    expect(bad.status).to.equal(400);
    expect(JSON.stringify(bad.body)).to.include('INVALID_FORMAT');
  });
});
