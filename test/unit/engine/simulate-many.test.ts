// simulateMany (the Node API's sweep): 10 000 runs of a tiny RC circuit spread over two worker
// threads come back as one row per parameter set in their order, with the measurements of each run
// equal to a single simulateSync of the same set; a set that fails is a failed row; the table
// writes as CSV and Parquet (read back by parquet-wasm).
import { expect } from 'chai';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { tableFromIPC } from 'apache-arrow';
import { readParquet } from 'parquet-wasm';
import { measurement, simulateMany, simulateSync, writeSweepTable } from '../../../src/index.js';
import { rcStep } from '../../fixtures/circuits.js';

const RUNS = 10_000;

describe('Node API: simulateMany', function () {
  this.timeout(300_000);
  const netlist = rcStep('backward-euler', 1e-5, 1e-4);
  const sets = Array.from({ length: RUNS }, (_, i) => ({ 'R.1.R': 100 + i }));

  it('runs a 10 000-run sweep on two threads into one table in parameter order', async () => {
    let reported = 0;
    const results = await simulateMany(netlist, sets, { threads: 2, onRow: () => reported++ });
    expect(reported).to.equal(RUNS);
    expect(results.parameters).to.deep.equal(['R.1.R']);
    expect(results.measurements).to.include('SCOPE.1.ch1_avg');
    expect(results.rows).to.have.length(RUNS);
    results.rows.forEach((row, i) => {
      expect(row.run).to.equal(i);
      expect(row.status).to.equal('completed');
      expect(row.parameters).to.deep.equal(sets[i]);
    });
    for (const i of [0, 4321, RUNS - 1]) {
      const single = simulateSync(netlist, { parameters: sets[i] });
      expect(results.rows[i].measurements['SCOPE.1.ch1_avg']).to.equal(measurement(single, 'SCOPE.1.ch1_avg'));
    }

    const dir = mkdtempSync(join(tmpdir(), 'pesim-sweep-'));
    try {
      await writeSweepTable(results, join(dir, 'sweep.csv'), 'csv');
      const lines = readFileSync(join(dir, 'sweep.csv'), 'utf8').trim().split('\n');
      expect(lines).to.have.length(RUNS + 1);
      expect(lines[0].split(',').slice(0, 4)).to.deep.equal(['run', 'id', 'status', 'R.1.R']);
      await writeSweepTable(results, join(dir, 'sweep.parquet'), 'parquet');
      const table = tableFromIPC(readParquet(new Uint8Array(readFileSync(join(dir, 'sweep.parquet')))).intoIPCStream());
      expect(table.numRows).to.equal(RUNS);
      expect(table.getChild('R.1.R')!.get(RUNS - 1)).to.equal(100 + RUNS - 1);
      expect(table.getChild('SCOPE.1.ch1_avg')!.get(7)).to.equal(results.rows[7].measurements['SCOPE.1.ch1_avg']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reports a set the engine refuses as a failed row, and a bad first set as an error', async () => {
    const results = await simulateMany(netlist, [{ 'R.1.R': 10 }, { 'R.1.R': -5 }, { 'R.1.R': 20 }], { threads: 2 });
    expect(results.rows.map((r) => r.status)).to.deep.equal(['completed', 'failed', 'completed']);
    expect(results.rows[1].errorMessage).to.be.a('string').and.not.equal('');
    expect(results.rows[1].measurements).to.deep.equal({});
    let error: unknown;
    try {
      await simulateMany(netlist, [{ 'R.9.R': 1 }]);
    } catch (e) {
      error = e;
    }
    expect((error as Error).message).to.match(/R\.9/);
  });
});
