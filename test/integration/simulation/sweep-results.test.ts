// A sweep's results in one request: a 10 000-run grid sweep of a tiny RC circuit (10 steps each)
// through POST /api/v1/simulations/batch, then its results table from
// GET /api/v1/simulations/batch/{batchId}/results as JSON, CSV (Accept) and Parquet (read back by
// parquet-wasm, an independent reader), and the same rows over XML-RPC (getBatchResults, called
// from Python's xmlrpc.client). The rows come in sweep order with their parameter values, and the
// measured capacitor voltage falls as R (and with it the time constant R·C) grows.
import { expect } from 'chai';
import { tableFromIPC } from 'apache-arrow';
import { readParquet } from 'parquet-wasm';
import { rcStep } from '../../fixtures/circuits.js';
import { startRmiHarness, type RmiHarness } from '../rmi/harness.js';
import { circuitFileOf } from './harness.js';

const RUNS = 10_000;
const resistances = Array.from({ length: RUNS }, (_, i) => 100 + i);

interface TableRow {
  run: number;
  simulationId: string;
  status: string;
  parameters: Record<string, number>;
  measurements: Record<string, number>;
  durationMs: number | null;
  errorMessage: string | null;
}
interface Table {
  batchId: string;
  totalSimulations: number;
  parameters: string[];
  measurements: string[];
  rows: TableRow[];
}

describe('simulation service: the results table of a 10 000-run sweep', function () {
  this.timeout(600_000);
  let h: RmiHarness;
  let batchId: string;
  let ids: string[];

  before(async () => {
    h = await startRmiHarness({ maxBatchSize: RUNS, cacheEnabled: false });
    // 1 V step into R·C (C = 1 µF), 10 steps of 10 µs.
    const base = { circuitFile: circuitFileOf(rcStep('backward-euler', 1e-5, 1e-4)) };
    const r = await h.client.post<{ batchId: string; simulationIds: string[]; totalSimulations: number }>('/api/v1/simulations/batch', { base, sweep: { 'R.1.R': resistances } });
    expect(r.status).to.equal(202);
    expect(r.body.totalSimulations).to.equal(RUNS);
    batchId = r.body.batchId;
    ids = r.body.simulationIds;
    const deadline = Date.now() + 540_000;
    for (;;) {
      const status = await h.client.get<{ done: boolean; completed: number; totalSimulations: number; simulations: Record<string, unknown> }>(`/api/v1/simulations/batch/${batchId}`);
      expect(status.status).to.equal(200);
      expect(status.body.totalSimulations).to.equal(RUNS);
      expect(Object.keys(status.body.simulations)).to.have.length(1000); // a page of the entries
      if (status.body.done) {
        expect(status.body.completed).to.equal(RUNS);
        break;
      }
      if (Date.now() > deadline) throw new Error('the sweep did not finish in time');
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  });
  after(async () => h?.close());

  it('answers the table as JSON: one row per run in sweep order, with parameters and measurements', async () => {
    const r = await h.client.get<Table>(`/api/v1/simulations/batch/${batchId}/results`);
    expect(r.status).to.equal(200);
    expect(r.contentType).to.match(/^application\/json/);
    const table = r.body;
    expect(table).to.include({ batchId, totalSimulations: RUNS });
    expect(table.parameters).to.deep.equal(['R.1.R']);
    expect(table.measurements).to.include.members(['SCOPE.1.ch1_avg', 'SCOPE.1.ch1_rms', 'SCOPE.1.ch1_min', 'SCOPE.1.ch1_max']);
    expect(table.rows).to.have.length(RUNS);
    table.rows.forEach((row, i) => {
      expect(row.run).to.equal(i);
      expect(row.simulationId).to.equal(ids[i]);
      expect(row.status).to.equal('completed');
      expect(row.parameters).to.deep.equal({ 'R.1.R': resistances[i] });
      expect(row.durationMs).to.be.a('number');
      expect(row.errorMessage).to.equal(null);
    });
    // vC(t) = 1 − e^(−t/RC): a larger R charges the capacitor more slowly.
    const averages = table.rows.map((row) => row.measurements['SCOPE.1.ch1_avg']);
    for (let i = 1; i < RUNS; i++) expect(averages[i], `run ${i}`).to.be.below(averages[i - 1]);
    const tau = 100 * 1e-6;
    expect(table.rows[0].measurements['SCOPE.1.ch1_max']).to.be.closeTo(1 - Math.exp(-1e-4 / tau), 0.05);
  });

  it('answers CSV for Accept: text/csv and Parquet for ?format=parquet, with the same rows', async () => {
    const csv = await h.client.get<string>(`/api/v1/simulations/batch/${batchId}/results`, { headers: { accept: 'text/csv' } });
    expect(csv.status).to.equal(200);
    expect(csv.contentType).to.match(/^text\/csv/);
    const lines = csv.body.trim().split('\n');
    expect(lines).to.have.length(RUNS + 1);
    const header = lines[0].split(',');
    expect(header.slice(0, 4)).to.deep.equal(['run', 'simulationId', 'status', 'R.1.R']);
    expect(header.at(-2)).to.equal('durationMs');
    expect(header.at(-1)).to.equal('errorMessage');
    const last = lines[RUNS].split(',');
    expect(last.slice(0, 4)).to.deep.equal([String(RUNS - 1), ids[RUNS - 1], 'completed', String(resistances[RUNS - 1])]);

    const json = (await h.client.get<Table>(`/api/v1/simulations/batch/${batchId}/results`)).body;
    const pq = await h.client.get(`/api/v1/simulations/batch/${batchId}/results?format=parquet`);
    expect(pq.status).to.equal(200);
    expect(pq.contentType).to.equal('application/vnd.apache.parquet');
    const table = tableFromIPC(readParquet(pq.bytes).intoIPCStream());
    expect(table.numRows).to.equal(RUNS);
    expect(table.schema.fields.map((f) => f.name)).to.deep.equal(header);
    const column = (name: string): unknown[] => table.getChild(name)!.toArray() as unknown[];
    expect(Array.from(column('R.1.R') as unknown as Float64Array)).to.deep.equal(resistances);
    expect(column('simulationId')[RUNS - 1]).to.equal(ids[RUNS - 1]);
    expect(new Set(column('status'))).to.deep.equal(new Set(['completed']));
    const avg = column('SCOPE.1.ch1_avg') as unknown as Float64Array;
    json.rows.forEach((row, i) => expect(avg[i]).to.equal(row.measurements['SCOPE.1.ch1_avg']));
  });

  it('answers the same rows over XML-RPC (getBatchResults, a list of structs), and a page of them', async () => {
    const r = await h.python<{ count: number; first: TableRow; last: TableRow; page: number[] }>(`
rows = server.getBatchResults(${JSON.stringify(batchId)})
page = server.getBatchResults(${JSON.stringify(batchId)}, 9990, 5)
out({"count": len(rows), "first": rows[0], "last": rows[-1], "page": [row["run"] for row in page]})`, h.rmiUrl, 300_000);
    expect(r.count).to.equal(RUNS);
    expect(r.first).to.include({ run: 0, simulationId: ids[0], status: 'completed', errorMessage: null });
    expect(r.first.parameters).to.deep.equal({ 'R.1.R': 100 });
    expect(r.first.measurements['SCOPE.1.ch1_avg']).to.be.a('number');
    expect(r.last).to.include({ run: RUNS - 1, simulationId: ids[RUNS - 1] });
    expect(r.page).to.deep.equal([9990, 9991, 9992, 9993, 9994]);
  });

  it('answers 404 for an unknown batch and 400 for an unknown format', async () => {
    const missing = await h.client.get<{ error: string }>('/api/v1/simulations/batch/7a9e3c10-2b4d-4f6a-8c1e-0d5b9f2a6e38/results');
    expect(missing.status).to.equal(404);
    expect(missing.body.error).to.equal('BATCH_NOT_FOUND');
    const bad = await h.client.get<{ error: string; details: { field: string }[] }>(`/api/v1/simulations/batch/${batchId}/results?format=xlsx`);
    expect(bad.status).to.equal(400);
    expect(bad.body.details[0].field).to.equal('format');
  });
});
