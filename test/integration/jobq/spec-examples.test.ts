// The spec's examples, run against the service with a real GeckoCIRCUITS model (.ipes) in a temporary
// models directory: each row of spec §4 and §7, every response validated against the OpenAPI
// description the service serves.
import { expect } from 'chai';
import { ResponseValidator, type OpenApiDocument } from './openapi.js';
import { startTestService, waitForState, type TestService } from './harness.js';

type Json = Record<string, unknown>;

describe('job-queue service: the spec examples, validated against the served OpenAPI description', function () {
  this.timeout(60_000);
  let service: TestService;
  let validator: ResponseValidator;
  const call = async (method: string, path: string, body?: unknown): Promise<{ status: number; body: Json }> => {
    const r = await service.request(method, path, body);
    validator.validate(method, path, r.status, r.body);
    return r as { status: number; body: Json };
  };

  before(async () => {
    service = await startTestService();
    validator = new ResponseValidator((await service.request('GET', '/openapi.json')).body as OpenApiDocument);
  });
  after(async () => service.dispose());

  it('runs the submit → status → result → cache → system walk-through', async () => {
    const request = {
      model_file: 'buck_simple.ipes',
      parameters: { 'R.1.R': 5, 'L.1.L': 0.0005 },
      output_variables: ['u2', 'iL', 'SCOPE.1.ch1'],
      priority: 'HIGH',
      metadata: { project: 'buck-sweep', run: 1 },
    };
    const submitted = await call('POST', '/simulations', request);
    expect(submitted.status).to.equal(201);
    const id = submitted.body.task_id as string;
    const early = await call('GET', `/simulations/${id}/result`);
    expect([200, 202]).to.include(early.status);
    await waitForState(service, id, ['completed']);
    const record = await call('GET', `/simulations/${id}`);
    expect(record.body).to.include({ status: 'completed', model_file: 'buck_simple.ipes', priority: 'HIGH' });
    const result = await call('GET', `/simulations/${id}/result`);
    const results = result.body.results as Record<string, number[]>;
    expect(Object.keys(results).sort()).to.deep.equal(['SCOPE.1.ch1', 'iL', 't', 'u2']);
    // u1 is the 48 V source; the output (R = 5 Ω) settles below the input.
    expect(results['SCOPE.1.ch1'][results.t.length - 1]).to.be.closeTo(48, 1e-9);
    expect(Math.max(...results.u2)).to.be.lessThan(48 * 1.5);

    const batch = await call('POST', '/simulations/batch', [request, { ...request, parameters: { 'R.1.R': 20 } }, { model_file: 'buck_simple.ipes', priority: 'LOW' }]);
    expect(batch.status).to.equal(201);
    expect(batch.body.batch_size).to.equal(3);
    for (const taskId of batch.body.task_ids as string[]) await waitForState(service, taskId, ['completed']);
    expect((await call('GET', `/simulations/${(batch.body.task_ids as string[])[0]}`)).body.cache_hit).to.equal(true);

    expect((await call('DELETE', `/simulations/${id}`)).status).to.equal(400);
    const stats = await call('GET', '/cache/stats');
    expect(stats.body.total_entries).to.equal(3);
    expect((await call('GET', `/cache/entry/${record.body.cache_key}`)).body.model_file).to.equal('buck_simple.ipes');
    expect((await call('POST', '/cache/clear')).status).to.equal(400);
    expect((await call('POST', '/cache/clear?confirm=true')).body.entries_removed).to.equal(3);
    expect((await call('GET', '/health')).body.version).to.equal('1.0.0');
    expect((await call('GET', '/stats')).body.queue).to.include({ completed: 4 });
    const logs = await call('GET', '/logs?limit=5&level=INFO');
    expect(logs.body.count).to.equal(5); // of the 8 INFO lines: a batch submission logs one line
  });

  it('answers the error rows in their documented shapes', async () => {
    expect((await call('POST', '/simulations', { model_file: 'buck_simple.ipes', priority: 'urgent' })).body.error_code).to.equal('INVALID_PRIORITY');
    expect((await call('GET', '/simulations/00000000-0000-0000-0000-000000000000')).body.error_code).to.equal('TASK_NOT_FOUND');
    expect((await call('POST', '/simulations', { priority: 'LOW' })).status).to.equal(422);
    expect((await call('POST', '/simulations', { model_file: '../buck_simple.ipes' })).body.error_code).to.equal('INVALID_MODEL_PATH');
    expect((await call('POST', '/simulations', { model_file: 'gone.ipes' })).body.error_code).to.equal('MODEL_NOT_FOUND');
    expect((await call('POST', '/simulations/batch', [])).status).to.equal(422);
    expect((await call('GET', `/cache/entry/${'f'.repeat(64)}`)).body.error_code).to.equal('CACHE_ENTRY_NOT_FOUND');
    expect((await call('GET', '/logs?limit=0')).status).to.equal(422);
    const queued = await call('POST', '/simulations', { model_file: 'long.json' });
    const pending = await call('GET', `/simulations/${queued.body.task_id}/result`);
    expect(pending.status).to.equal(202);
    const cancelled = await call('DELETE', `/simulations/${queued.body.task_id}`);
    expect(cancelled.body.status).to.equal('cancelled');
    expect((await call('GET', `/simulations/${queued.body.task_id}/result`)).body.status).to.equal('cancelled');
    expect(validator.checked.length).to.be.greaterThan(10);
  });
});
