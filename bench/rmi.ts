// XML-RPC remote-control benchmark: the round trip of plecs.simulate on a 1 ms buck (1000 steps)
// through `pesim serve`'s XML-RPC port (p50 and p99 over RUNS calls, after a warm-up), and a
// 100-item plecs.simulate list against the same 100 runs submitted as one HTTP batch
// (POST /api/v1/simulations/batch, timed until the last completes), in runs per second. The service
// runs in this process with the result cache off (every call is a run) on two worker threads; the
// client is the project's XML-RPC client. Returns table lines for bench/run.ts.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pino } from 'pino';
import { startSimulationService } from '../src/server/server.js';
import { XmlRpcClient } from '../src/xmlrpc/client.js';
import { buck } from '../test/fixtures/circuits.js';
import { benchDataDir } from './data-dir.mjs';
import { freePort } from '../test/fixtures/free-port.js';
import { percentile } from './stats.js';

const RUNS = 100;
const WARM_UP = 10;
const LIST_SIZE = 100;



export async function benchSection(): Promise<string[]> {
  const dataDir = benchDataDir('rmi');
  const root = join(dataDir, 'models');
  mkdirSync(root, { recursive: true });
  const netlist = buck({ tEnd: 1e-3, dt: 1e-6 });
  writeFileSync(join(root, 'buck.json'), JSON.stringify(netlist));
  const rmiPort = await freePort();
  const service = await startSimulationService(
    { port: 0, host: '127.0.0.1', dataDir: join(dataDir, 'data'), rmiPort, rmiRoot: root, cacheEnabled: false, maxConcurrent: 2, logLevel: 'silent' },
    { logger: pino({ level: 'silent' }) },
  );
  const client = new XmlRpcClient({ host: '127.0.0.1', port: rmiPort, timeoutSeconds: 120 });
  try {
    const model = (await client.call('plecs.load', [join(root, 'buck.json')])) as string;
    const trips: number[] = [];
    for (let i = 0; i < WARM_UP + RUNS; i++) {
      const start = performance.now();
      await client.call('plecs.simulate', [model, { ModelVars: { 'R.1.R': 5 + i * 1e-6 } }]);
      if (i >= WARM_UP) trips.push(performance.now() - start);
    }
    const loads = Array.from({ length: LIST_SIZE }, (_, i) => 2 + i * 0.01);
    const listStart = performance.now();
    const answers = (await client.call('plecs.simulate', [model, loads.map((r) => ({ ModelVars: { 'R.1.R': r } }))])) as unknown[];
    const listSeconds = (performance.now() - listStart) / 1000;
    const failed = answers.filter((a) => typeof a === 'string').length;

    const circuitFile = Buffer.from(JSON.stringify(netlist)).toString('base64');
    const body = JSON.stringify({ simulations: loads.map((r) => ({ circuitFile, parameters: { 'R.1.R': r + 1e-3 } })) });
    const batchStart = performance.now();
    const response = await fetch(`${service.url}/api/v1/simulations/batch`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    const { simulationIds } = (await response.json()) as { simulationIds: string[] };
    const pending = new Set(simulationIds);
    for (const id of simulationIds) if (['completed', 'failed', 'cancelled'].includes(service.runtime.scheduler.get(id).state)) pending.delete(id);
    await new Promise<void>((resolve) => {
      const onState = (task: { id: string; state: string }): void => {
        if (['completed', 'failed', 'cancelled'].includes(task.state)) pending.delete(task.id);
        if (pending.size > 0) return;
        service.runtime.events.off('state', onState);
        resolve();
      };
      if (pending.size === 0) resolve();
      else service.runtime.events.on('state', onState);
    });
    const batchSeconds = (performance.now() - batchStart) / 1000;
    return [
      '## XML-RPC remote control',
      '',
      `plecs.simulate of a 1 ms buck (1000 steps) on \`pesim serve\`'s XML-RPC port, result cache off, 2 worker threads; ${RUNS} calls after ${WARM_UP}.`,
      '',
      '| measure | value |',
      '|---|---|',
      `| round trip p50 | ${percentile(trips, 50).toFixed(2)} ms |`,
      `| round trip p99 | ${percentile(trips, 99).toFixed(2)} ms |`,
      `| ${LIST_SIZE}-item plecs.simulate list | ${(LIST_SIZE / listSeconds).toFixed(0)} runs/s (${failed} failed) |`,
      `| the same ${LIST_SIZE} runs as one HTTP batch | ${(LIST_SIZE / batchSeconds).toFixed(0)} runs/s |`,
    ];
  } finally {
    client.close();
    await service.close(); // bench/run.ts removes the data folders after the last section
  }
}
