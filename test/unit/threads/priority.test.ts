// Simulation threads run nicer than the service's thread (src/threads/priority.ts): the setting,
// and an embedded executor's threads at their nice value while the calling thread keeps its own.
import { expect } from 'chai';
import { fileURLToPath } from 'node:url';
import { EmbeddedExecutor } from '../../../src/jobs/executors/embedded.js';
import { DEFAULT_SIMULATION_NICE, simulationNice, threadNice } from '../../../src/threads/priority.js';
import { rcStep } from '../../fixtures/circuits.js';

describe('threads: priority of the simulation threads', function () {
  this.timeout(60_000);

  it('reads PESIM_SIMULATION_NICE: 0 to 19, the default when unset, a clear error otherwise', () => {
    expect(simulationNice({})).to.equal(DEFAULT_SIMULATION_NICE);
    expect(simulationNice({ PESIM_SIMULATION_NICE: '' })).to.equal(DEFAULT_SIMULATION_NICE);
    expect(simulationNice({ PESIM_SIMULATION_NICE: '0' })).to.equal(0);
    expect(simulationNice({ PESIM_SIMULATION_NICE: '19' })).to.equal(19);
    for (const bad of ['-1', '20', '2.5', 'low']) {
      expect(() => simulationNice({ PESIM_SIMULATION_NICE: bad }), bad).to.throw(`PESIM_SIMULATION_NICE must be an integer from 0 to 19 (got "${bad}")`);
    }
  });

  it('starts an embedded executor\'s threads that many levels nicer, the calling thread unchanged', async function () {
    const own = threadNice();
    if (own === undefined) this.skip(); // threads have no priority of their own here (not Linux)
    const workerFile = fileURLToPath(new URL('../jobs/workers/nice-worker.ts', import.meta.url));
    const request = { spec: { netlist: rcStep('backward-euler', 1e-5, 1e-4), parameters: {} }, buffers: undefined } as never;
    for (const increment of [0, 7]) {
      const executor = new EmbeddedExecutor({ threads: 1, workerFile, niceIncrement: increment });
      try {
        const outcome = await executor.run(request);
        expect(outcome).to.deep.include({ ok: false });
        expect(Number((outcome as { error: { message: string } }).error.message)).to.equal(Math.min(19, own! + increment));
      } finally {
        await executor.close();
      }
    }
    expect(threadNice()).to.equal(own);
  });
});
