// The job queue in `simulator.mode: xmlrpc` against a real `pesim serve` (in this process, its
// XML-RPC port on loopback): tasks run as plecs.load + plecs.simulate and give the same results as
// the embedded mode; /health probes the simulator; with the simulator stopped in the middle of a
// batch the health turns false, a submission answers 500 SIMULATOR_CONNECTION_ERROR, the runs in
// flight are retried, and every task completes once the simulator is back.
import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { startSimulationService, type SimulationServiceHandle } from '../../../src/server/server.js';
import { defaultConfig } from '../../../src/jobq/config.js';
import { startJobq, type JobqServer } from '../../../src/jobq/server.js';
import { startTestService, waitForState, writeModels, type TestService } from '../jobq/harness.js';
import { freePort } from '../../fixtures/free-port.js';

type Json = Record<string, unknown>;

async function request(service: JobqServer, method: string, path: string, body?: unknown): Promise<{ status: number; body: Json }> {
  const response = await fetch(`${service.url}${path}`, { method, headers: body === undefined ? {} : { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: response.status, body: (await response.json()) as Json };
}

describe('job queue with simulator.mode xmlrpc against pesim serve', function () {
  this.timeout(180_000);
  const modelsDir = mkdtempSync(join(tmpdir(), 'pesim-jobq-xmlrpc-models-'));
  const dataDirs: string[] = [];
  let port: number;
  let simulator: SimulationServiceHandle | undefined;
  let queue: JobqServer;
  let embedded: TestService;

  const startSimulator = async (): Promise<SimulationServiceHandle> => {
    const dataDir = mkdtempSync(join(tmpdir(), 'pesim-jobq-xmlrpc-sim-'));
    dataDirs.push(dataDir);
    return startSimulationService({ port: 0, host: '127.0.0.1', dataDir, logLevel: 'silent', maxConcurrent: 2, rmiPort: port, rmiRoot: modelsDir, cacheEnabled: false });
  };

  before(async () => {
    writeModels(modelsDir);
    port = await freePort();
    simulator = await startSimulator();
    const config = defaultConfig();
    config.api.host = '127.0.0.1';
    config.api.port = 0;
    config.data_dir = mkdtempSync(join(tmpdir(), 'pesim-jobq-xmlrpc-data-'));
    dataDirs.push(config.data_dir);
    config.simulator = { ...config.simulator, mode: 'xmlrpc', host: '127.0.0.1', port, timeout: 60, models_dir: modelsDir };
    config.orchestration = { ...config.orchestration, max_concurrent_simulations: 2, retry_attempts: 6, retry_delay: 0.25 };
    config.cache.enabled = false;
    queue = await startJobq(config, { logger: pino({ level: 'silent' }) });
    embedded = await startTestService((c) => {
      c.cache.enabled = false;
    });
  });

  after(async () => {
    await queue?.close();
    await embedded?.dispose();
    await simulator?.close();
    for (const dir of [...dataDirs, modelsDir]) rmSync(dir, { recursive: true, force: true });
  });

  it('reports the simulator connected and gives the same results as the embedded mode', async () => {
    const health = await request(queue, 'GET', '/health');
    expect(health.body).to.include({ status: 'healthy', simulator_connected: true });
    const task = { model_file: 'buck.json', parameters: { Vin: 36, 'R.1.R': 8 }, output_variables: ['SCOPE.1.ch1', 'SCOPE.1.ch2'] };
    const viaRpc = await request(queue, 'POST', '/simulations', task);
    expect(viaRpc.status).to.equal(201);
    const local = await embedded.request('POST', '/simulations', task);
    const rpcId = viaRpc.body.task_id as string;
    const localId = (local.body as Json).task_id as string;
    await waitForState(queue, rpcId, ['completed', 'failed']);
    await waitForState(embedded, localId, ['completed', 'failed']);
    const a = (await request(queue, 'GET', `/simulations/${rpcId}/result`)).body as { status: string; results: Record<string, number[]> };
    const b = (await embedded.request('GET', `/simulations/${localId}/result`)).body as { status: string; results: Record<string, number[]> };
    expect(a.status).to.equal('completed');
    expect(Object.keys(a.results).sort()).to.deep.equal(['SCOPE.1.ch1', 'SCOPE.1.ch2', 't']);
    for (const key of ['t', 'SCOPE.1.ch1', 'SCOPE.1.ch2']) expect(a.results[key], key).to.deep.equal(b.results[key]);
    // Vin = 36 V reached the simulator: the output heads for about half of it, not of 48 V.
    expect(a.results['SCOPE.1.ch1'].at(-1)).to.be.lessThan(24);
    // The run is a simulation of the simulator's own service too.
    const listed = await fetch(`${simulator!.url}/api/v1/simulations?size=100`);
    expect(await listed.text()).to.contain('buck');
  });

  it('a model variable the simulator cannot record fails the task for good, naming it', async () => {
    const r = await request(queue, 'POST', '/simulations', { model_file: 'buck.json', output_variables: ['out'] });
    const done = await waitForState(queue, r.body.task_id as string, ['completed', 'failed']);
    expect(done.state).to.equal('failed');
    expect(done.errorMessage).to.match(/only the model's own scope channels/);
    expect(done.attempts).to.equal(1);
  });

  it('survives the simulator stopping mid-batch: health false, 500 on submit, retries, all tasks completed after it returns', async () => {
    const batch = Array.from({ length: 6 }, (_, i) => ({ model_file: 'medium.json', parameters: { 'R.1.R': 4 + i } }));
    const submitted = await request(queue, 'POST', '/simulations/batch', batch);
    expect(submitted.status).to.equal(201);
    const ids = submitted.body.task_ids as string[];
    expect(ids).to.have.length(6);
    await waitForState(queue, ids[0], ['running', 'completed']);
    await simulator!.close();
    simulator = undefined;
    const health = await request(queue, 'GET', '/health');
    expect(health.body).to.include({ simulator_connected: false });
    const refused = await request(queue, 'POST', '/simulations', { model_file: 'buck.json' });
    expect(refused.status).to.equal(500);
    expect(refused.body).to.include({ error_code: 'SIMULATOR_CONNECTION_ERROR' });
    expect(refused.body.suggestion).to.be.a('string');
    // Some attempt failed on the connection and waits for its retry.
    const deadline = Date.now() + 30_000;
    while (!ids.some((id) => queue.runtime.store.tasks.get(id)!.errorCode === 'SIMULATOR_CONNECTION_ERROR')) {
      if (Date.now() > deadline) throw new Error('no attempt failed on the stopped simulator');
      await new Promise((r) => setTimeout(r, 50));
    }
    simulator = await startSimulator();
    for (const id of ids) {
      const done = await waitForState(queue, id, ['completed', 'failed', 'cancelled'], 120_000);
      expect(done.state, `${id}: ${done.errorMessage}`).to.equal('completed');
    }
    expect(ids.some((id) => queue.runtime.store.tasks.get(id)!.attempts > 1)).to.equal(true);
    expect((await request(queue, 'GET', '/health')).body).to.include({ simulator_connected: true });
  });

  it('fails a task with SIMULATOR_CONNECTION_ERROR and a suggestion once its retries are spent', async () => {
    const submitted = await request(queue, 'POST', '/simulations', { model_file: 'medium.json', parameters: { 'R.1.R': 3 } });
    const id = submitted.body.task_id as string;
    await waitForState(queue, id, ['running', 'completed']);
    await simulator!.close();
    simulator = undefined;
    const done = await waitForState(queue, id, ['completed', 'failed'], 90_000);
    expect(done.state).to.equal('failed');
    expect(done.errorCode).to.equal('SIMULATOR_CONNECTION_ERROR');
    expect(done.attempts).to.equal(7); // the first attempt and retry_attempts = 6 retries
    expect(done.errorMessage).to.match(/cannot reach the simulator at http:\/\/127\.0\.0\.1:\d+\/RPC2.*Start the simulator/);
    const result = await request(queue, 'GET', `/simulations/${id}/result`);
    expect(result.body).to.include({ status: 'failed' });
  });
});
