// Every endpoint of the job-queue service (spec §4) and every error row (spec §7, decisions §2),
// against the real server on 127.0.0.1 with a temporary data directory and models directory.
import { expect } from 'chai';
import { symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startTestService, waitForState, type TestService } from './harness.js';

type Json = Record<string, unknown>;

describe('job-queue service: endpoints', () => {
  let service: TestService;
  before(async () => {
    service = await startTestService();
  });
  after(async () => service.dispose());

  const submit = async (body: unknown) => service.request('POST', '/simulations', body);

  it('submits a simulation (201) and serves its record and result with the requested variables', async () => {
    const r = await submit({ model_file: 'buck.json', parameters: { Vin: 24, 'R.1.R': 4 }, output_variables: ['SCOPE.1.ch1', 'out', 'L.1'], priority: 'HIGH', metadata: { user: 'ada' } });
    expect(r.status).to.equal(201);
    const submitted = r.body as Json;
    expect(submitted).to.include({ status: 'queued', priority: 'HIGH', message: 'Simulation queued successfully' });
    expect(submitted.task_id).to.match(/^[0-9a-f-]{36}$/);
    expect(Date.parse(submitted.submitted_at as string)).to.be.closeTo(Date.now(), 60_000);

    await waitForState(service, submitted.task_id as string, ['completed']);
    const record = (await service.request('GET', `/simulations/${submitted.task_id}`)).body as Json;
    expect(record).to.include({ task_id: submitted.task_id, status: 'completed', priority: 'HIGH', model_file: 'buck.json', cache_hit: false, retry_count: 0, error_message: null });
    expect(record.parameters).to.deep.equal({ Vin: 24, 'R.1.R': 4 });
    expect(record.metadata).to.deep.equal({ user: 'ada' });
    expect(record.duration_seconds).to.be.a('number').and.to.be.at.least(0);
    expect(Date.parse(record.started_at as string)).to.be.at.least(Date.parse(record.submitted_at as string));

    const result = await service.request('GET', `/simulations/${submitted.task_id}/result`);
    expect(result.status).to.equal(200);
    const body = result.body as { status: string; results: Record<string, number[]>; metadata: Json; error_message: unknown };
    expect(body.status).to.equal('completed');
    expect(Object.keys(body.results).sort()).to.deep.equal(['L.1', 'SCOPE.1.ch1', 'out', 't']);
    expect(body.results.t[0]).to.equal(0);
    expect(body.results.t[body.results.t.length - 1]).to.be.closeTo(2e-3, 1e-9);
    for (const name of ['SCOPE.1.ch1', 'out', 'L.1']) expect(body.results[name]).to.have.length(body.results.t.length);
    // SCOPE.1.ch1 records v(out); the probe of node `out` must agree with it sample by sample.
    expect(body.results.out).to.deep.equal(body.results['SCOPE.1.ch1']);
    // Vin = 24 V at duty 0.5 charges the output towards 12 V (minus the diode drop), not 24 V.
    const vEnd = body.results.out[body.results.out.length - 1];
    expect(vEnd).to.be.greaterThan(1).and.lessThan(12.5);
    expect(body.metadata).to.include({ cache_hit: false });
    expect(body.metadata.simulation_time).to.be.a('number').and.greaterThan(0);
    expect(body.metadata.simulator_version).to.match(/^pesim \d+\.\d+\.\d+/);
  });

  it('reads .ipes models and returns every scope channel when output_variables is absent', async () => {
    const r = await submit({ model_file: 'buck_simple.ipes' });
    expect(r.status).to.equal(201);
    const id = (r.body as Json).task_id as string;
    await waitForState(service, id, ['completed', 'failed'], 60_000);
    const result = (await service.request('GET', `/simulations/${id}/result`)).body as { status: string; results: Record<string, number[]> };
    expect(result.status).to.equal('completed');
    expect(result.results.t.length).to.be.greaterThan(10);
    const channels = Object.keys(result.results).filter((k) => k !== 't');
    expect(channels.length).to.be.greaterThan(0);
    for (const name of channels) expect(name).to.match(/\.ch\d+$/);
  });

  it('answers 202 while queued or running, 200 with a message when cancelled', async () => {
    const long = (await submit({ model_file: 'long.json' })).body as Json;
    const pending = await service.request('GET', `/simulations/${long.task_id}/result`);
    expect(pending.status).to.equal(202);
    expect(pending.body).to.include({ task_id: long.task_id });
    expect(['queued', 'running']).to.include((pending.body as Json).status);
    expect((pending.body as Json).message).to.be.a('string');

    const cancel = await service.request('DELETE', `/simulations/${long.task_id}`);
    expect(cancel.status).to.equal(200);
    expect(cancel.body).to.deep.equal({ task_id: long.task_id, status: 'cancelled', message: 'Simulation cancelled successfully' });
    const after = await service.request('GET', `/simulations/${long.task_id}/result`);
    expect(after.status).to.equal(200);
    expect(after.body).to.include({ task_id: long.task_id, status: 'cancelled' });
    const again = await service.request('DELETE', `/simulations/${long.task_id}`);
    expect(again.status).to.equal(400);
    expect(again.body).to.include({ error_code: 'TASK_NOT_CANCELLABLE', detail: 'Cannot cancel cancelled simulation' });
  });

  it('refuses to cancel a completed simulation (400)', async () => {
    const id = ((await submit({ model_file: 'rc.json' })).body as Json).task_id as string;
    await waitForState(service, id, ['completed']);
    const r = await service.request('DELETE', `/simulations/${id}`);
    expect(r.status).to.equal(400);
    expect(r.body).to.deep.equal({ detail: 'Cannot cancel completed simulation', error_code: 'TASK_NOT_CANCELLABLE', field: 'task_id' });
  });

  it('reports a failed run as a 200 result with status failed and the error message', async () => {
    // Valid at submission; at the first diode turn-on the device states need more than the one
    // iteration allowed, so the run itself fails (SWITCH_ITERATION_LIMIT, deterministic).
    writeFileSync(join(service.modelsDir, 'unsettled.json'), JSON.stringify({
      settings: { tEnd: 2e-2, dt: 1e-5, maxSwitchIterations: 1 },
      elements: [
        { name: 'V.1', type: 'V', nodes: ['a', '0'], params: { waveform: 'sine', amplitude: 10, frequency: 50 } },
        { name: 'D.1', type: 'D', nodes: ['a', 'b'], params: {} },
        { name: 'D.2', type: 'D', nodes: ['b', 'c'], params: {} },
        { name: 'R.1', type: 'R', nodes: ['c', '0'], params: { R: 10 } },
        { name: 'C.1', type: 'C', nodes: ['c', '0'], params: { C: 1e-3 } },
      ],
    }));
    const id = ((await submit({ model_file: 'unsettled.json' })).body as Json).task_id as string;
    const task = await waitForState(service, id, ['failed', 'completed']);
    expect(task.state).to.equal('failed');
    expect(task.attempts, 'deterministic failures are not retried').to.equal(1);
    const r = await service.request('GET', `/simulations/${id}/result`);
    expect(r.status).to.equal(200);
    const body = r.body as Json;
    expect(body.status).to.equal('failed');
    expect(body.results).to.deep.equal({});
    expect(body.error_message).to.be.a('string').and.contain('did not settle');
    expect(((await service.request('GET', `/simulations/${id}`)).body as Json).error_message).to.equal(body.error_message);
  });

  describe('errors', () => {
    it('400 INVALID_PRIORITY listing the allowed values', async () => {
      const r = await submit({ model_file: 'buck.json', priority: 'URGENT' });
      expect(r.status).to.equal(400);
      expect(r.body).to.include({ error_code: 'INVALID_PRIORITY', field: 'priority' });
      for (const p of ['CRITICAL', 'HIGH', 'NORMAL', 'LOW']) expect((r.body as Json).detail).to.contain(p);
    });

    it('404 TASK_NOT_FOUND on record, result and cancel', async () => {
      for (const [method, path] of [['GET', '/simulations/nope'], ['GET', '/simulations/nope/result'], ['DELETE', '/simulations/nope']]) {
        const r = await service.request(method, path);
        expect(r.status, path).to.equal(404);
        expect(r.body).to.include({ error_code: 'TASK_NOT_FOUND' });
      }
    });

    it('422 in FastAPI shape for missing fields and wrong types, and for malformed JSON', async () => {
      const r = await submit({ parameters: { Vin: 'high' }, output_variables: 'out' });
      expect(r.status).to.equal(422);
      const detail = (r.body as { detail: { loc: unknown[]; msg: string; type: string }[] }).detail;
      const byLoc = Object.fromEntries(detail.map((d) => [d.loc.join('.'), d]));
      expect(byLoc['body.model_file']).to.include({ type: 'missing', msg: 'Field required' });
      expect(byLoc['body.parameters.Vin'].type).to.equal('float_type');
      expect(byLoc['body.output_variables'].type).to.equal('list_type');
      const bad = await submit('{"model_file": ');
      expect(bad.status).to.equal(422);
      expect((bad.body as { detail: { type: string }[] }).detail[0].type).to.equal('json_invalid');
    });

    it('400 INVALID_MODEL_PATH for paths leaving the models root, 404 MODEL_NOT_FOUND for missing files', async () => {
      for (const path of ['../etc/passwd', '/etc/passwd', 'sub/../../x.json']) {
        const r = await submit({ model_file: path });
        expect(r.status, path).to.equal(400);
        expect(r.body).to.include({ error_code: 'INVALID_MODEL_PATH', field: 'model_file' });
      }
      symlinkSync('/etc', join(service.modelsDir, 'escape'));
      const link = await submit({ model_file: 'escape/hostname' });
      expect(link.status).to.equal(400);
      expect(link.body).to.include({ error_code: 'INVALID_MODEL_PATH' });
      const missing = await submit({ model_file: 'missing.json' });
      expect(missing.status).to.equal(404);
      expect(missing.body).to.include({ error_code: 'MODEL_NOT_FOUND', field: 'model_file' });
    });

    it('400 VALIDATION_ERROR naming unknown parameters, unknown output variables and unreadable models', async () => {
      const param = await submit({ model_file: 'buck.json', parameters: { 'R.9.R': 1 } });
      expect(param.status).to.equal(400);
      expect(param.body).to.include({ error_code: 'VALIDATION_ERROR', field: 'parameters.R.9.R' });
      const dotted = await submit({ model_file: 'buck.json', parameters: { 'R.1.R': 'ten' } });
      expect(dotted.status).to.equal(422);
      expect((dotted.body as { detail: { loc: unknown[] }[] }).detail[0].loc).to.deep.equal(['body', 'parameters', 'R.1.R']);
      const big = await service.request('POST', '/simulations', `{"model_file": "${'x'.repeat(17 * 1024 * 1024)}"}`);
      expect(big.status).to.equal(413);
      expect(big.body).to.include({ error_code: 'PAYLOAD_TOO_LARGE', field: 'body' });
      expect((big.body as { detail: string }).detail).to.contain('limit of 16777216 bytes (16 MiB) (api.max_body_mb)');
      const name = await submit({ model_file: 'buck.json', parameters: { 'R.1.Z': 1 } });
      expect(name.status).to.equal(400);
      expect(name.body).to.include({ error_code: 'VALIDATION_ERROR', field: 'parameters.R.1.Z' });
      expect((name.body as Json).detail).to.contain('has the parameters');
      const variable = await submit({ model_file: 'buck.json', output_variables: ['out', 'nowhere'] });
      expect(variable.status).to.equal(400);
      expect(variable.body).to.include({ error_code: 'VALIDATION_ERROR', field: 'output_variables[1]' });
      // A model that does not read, or reads but cannot be simulated, is a 422 at model_file at
      // submission (the simulation service answers 422 CIRCUIT_INVALID for the same circuit).
      writeFileSync(join(service.modelsDir, 'broken.json'), '{"settings": {"tEnd": 1}, ');
      const broken = await submit({ model_file: 'broken.json' });
      expect(broken.status).to.equal(422);
      const brokenItem = (broken.body as { detail: { loc: unknown[]; msg: string; type: string }[] }).detail[0];
      expect(brokenItem).to.deep.include({ loc: ['body', 'model_file'], type: 'circuit_invalid' });
      expect(brokenItem.msg).to.contain('line 1');
      const loop = { settings: { tEnd: 1e-3, dt: 1e-6 }, elements: [
        { name: 'V.1', type: 'V', nodes: ['a', '0'], params: { waveform: 'dc', value: 1 } },
        { name: 'V.2', type: 'V', nodes: ['a', '0'], params: { waveform: 'dc', value: 2 } },
      ] };
      writeFileSync(join(service.modelsDir, 'loop.json'), JSON.stringify(loop));
      const unsimulatable = await submit({ model_file: 'loop.json' });
      expect(unsimulatable.status).to.equal(422);
      expect((unsimulatable.body as { detail: { msg: string }[] }).detail[0].msg).to.match(/V\.[12]/);
      const batch = await service.request('POST', '/simulations/batch', [{ model_file: 'buck.json' }, { model_file: 'loop.json' }]);
      expect(batch.status).to.equal(422);
      expect((batch.body as { detail: { loc: unknown[] }[] }).detail[0].loc).to.deep.equal(['body', 1, 'model_file']);
    });

    it('400 CONFIRMATION_REQUIRED for a cache clear without confirm=true', async () => {
      for (const query of ['', '?confirm=false']) {
        const r = await service.request('POST', `/cache/clear${query}`);
        expect(r.status).to.equal(400);
        expect(r.body).to.include({ error_code: 'CONFIRMATION_REQUIRED' });
        expect((r.body as Json).detail).to.match(/confirm/i);
      }
    });

    it('404 CACHE_ENTRY_NOT_FOUND for an unknown key', async () => {
      const r = await service.request('GET', `/cache/entry/${'0'.repeat(64)}`);
      expect(r.status).to.equal(404);
      expect(r.body).to.include({ error_code: 'CACHE_ENTRY_NOT_FOUND' });
    });

    it('422 for /logs limits out of range and unknown levels; 404 and 405 in the same error shape', async () => {
      const over = await service.request('GET', '/logs?limit=1001');
      expect(over.status).to.equal(422);
      expect((over.body as { detail: { loc: unknown[] }[] }).detail[0].loc).to.deep.equal(['query', 'limit']);
      const word = await service.request('GET', '/logs?limit=abc');
      expect(word.status).to.equal(422);
      expect((word.body as { detail: { loc: unknown[]; msg: string }[] }).detail[0]).to.deep.include({ loc: ['query', 'limit'] });
      expect((word.body as { detail: { msg: string }[] }).detail[0].msg).to.contain('from 1 to 1000');
      const level = await service.request('GET', '/logs?level=LOUD');
      expect(level.status).to.equal(422);
      expect((level.body as { detail: { loc: unknown[] }[] }).detail[0].loc).to.deep.equal(['query', 'level']);
      expect((await service.request('GET', '/unknown')).body).to.deep.equal({ detail: 'Not Found', error_code: 'NOT_FOUND' });
      expect((await service.request('PUT', '/health')).status).to.equal(405);
    });
  });

  it('serves health, stats and logs', async () => {
    const health = (await service.request('GET', '/health')).body as Json;
    expect(health).to.include({ status: 'healthy', version: '1.0.0', simulator_connected: true });
    expect(health.uptime_seconds).to.be.a('number').and.at.least(0);

    const stats = (await service.request('GET', '/stats')).body as { queue: Json; performance: Json; system: Json };
    expect(stats.queue.completed).to.be.at.least(2);
    expect(stats.queue.failed).to.be.at.least(1);
    expect(stats.queue.cancelled).to.be.at.least(1);
    expect(stats.performance.total_simulations).to.equal((stats.queue.completed as number) + (stats.queue.failed as number));
    expect(stats.performance.average_duration_seconds).to.be.greaterThan(0);
    expect(stats.performance.speedup_factor).to.be.greaterThan(0);
    expect(stats.system).to.include({ batch_size: 4, max_concurrent: 2 });
    expect(stats.system.cpu_cores).to.be.at.least(1);

    const logs = (await service.request('GET', '/logs?limit=5')).body as { logs: Json[]; count: number };
    expect(logs.count).to.equal(5);
    expect(logs.logs).to.have.length(5);
    expect(Date.parse(logs.logs[0].timestamp as string)).to.be.at.least(Date.parse(logs.logs[4].timestamp as string));
    const errors = (await service.request('GET', '/logs?level=error')).body as { logs: Json[]; count: number };
    expect(errors.count).to.be.at.least(1);
    for (const entry of errors.logs) expect(entry.level).to.equal('ERROR');
    expect(errors.logs.some((e) => typeof e.task_id === 'string')).to.equal(true);
  });

  it('serves Swagger UI at /docs and ReDoc at /redoc from local files, and the OpenAPI description', async () => {
    const docs = await fetch(`${service.url}/docs`);
    expect(docs.status).to.equal(200);
    const page = await docs.text();
    expect(page).to.contain('/docs/swagger-ui-bundle.js').and.contain('/openapi.json');
    const bundle = await fetch(`${service.url}/docs/swagger-ui-bundle.js`);
    expect(bundle.status).to.equal(200);
    expect((await bundle.text()).length).to.be.greaterThan(100_000);
    const redoc = await fetch(`${service.url}/redoc`);
    expect(await redoc.text()).to.contain('/redoc/redoc.standalone.js');
    const standalone = await fetch(`${service.url}/redoc/redoc.standalone.js`);
    expect(standalone.status).to.equal(200);
    expect(standalone.headers.get('content-type')).to.contain('javascript');
    const spec = (await service.request('GET', '/openapi.json')).body as { openapi: string; info: Json; paths: Json };
    expect(spec.openapi).to.match(/^3\./);
    expect(spec.info.version).to.equal('1.0.0');
    expect(Object.keys(spec.paths).sort()).to.deep.equal([
      '/cache/clear', '/cache/entry/{cache_key}', '/cache/stats', '/health', '/logs', '/simulations', '/simulations/batch',
      '/simulations/{task_id}', '/simulations/{task_id}/result', '/stats',
    ]);
  });

  it('answers CORS preflights for any origin by default', async () => {
    const r = await fetch(`${service.url}/simulations`, { method: 'OPTIONS', headers: { Origin: 'http://example.test', 'Access-Control-Request-Method': 'POST' } });
    expect(r.status).to.equal(204);
    expect(r.headers.get('access-control-allow-origin')).to.equal('*');
  });
});
