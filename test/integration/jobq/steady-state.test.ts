// The periodic steady state through the job-queue service (request field `steady`): one settled
// period in `results`, its report in `metadata.steady_state`, options checked naming the field.
import { expect } from 'chai';
import { startTestService, waitForState, type TestService } from './harness.js';

type Json = Record<string, unknown>;

describe('job-queue service: periodic steady state', function () {
  this.timeout(60_000);
  let service: TestService;
  before(async () => {
    service = await startTestService();
  });
  after(async () => service.dispose());

  it('runs a steady-state task: one settled period and metadata.steady_state', async () => {
    const r = await service.request('POST', '/simulations', { model_file: 'buck.json', parameters: { 'R.1.R': 4 }, steady: { tolerance: 1e-10, max_iterations: 10 } });
    expect(r.status).to.equal(201);
    const id = (r.body as Json).task_id as string;
    await waitForState(service, id, ['completed']);
    const body = (await service.request('GET', `/simulations/${id}/result`)).body as { results: Record<string, number[]>; metadata: Json & { steady_state: Json } };
    const report = body.metadata.steady_state;
    expect(report).to.include({ converged: true, method: 'shooting' });
    expect(report.error as number).to.be.at.most(1e-10);
    const t = body.results.t!;
    expect(t[0]).to.equal(0);
    expect(t.at(-1)).to.be.closeTo(report.period as number, 1e-12);
    expect(t.length).to.equal((report.steps_per_period as number) + 1);
    // A transient task of the same model has no steady_state.
    const plain = await service.request('POST', '/simulations', { model_file: 'buck.json' });
    const plainId = (plain.body as Json).task_id as string;
    await waitForState(service, plainId, ['completed']);
    const plainBody = (await service.request('GET', `/simulations/${plainId}/result`)).body as { metadata: Json };
    expect(plainBody.metadata).to.not.have.property('steady_state');
  });

  it('refuses a bad option naming it', async () => {
    const r = await service.request('POST', '/simulations', { model_file: 'buck.json', steady: { max_iterations: 1.5 } });
    expect(r.status).to.equal(400);
    expect(r.body as Json).to.include({ field: 'steady.max_iterations' });
    for (const [steady, field] of [[{ jacobian: 'medium' }, 'steady.jacobian'], [{ init_periods: -1 }, 'steady.init_periods'], [{ perturbation: 0 }, 'steady.perturbation']] as const) {
      const bad = await service.request('POST', '/simulations', { model_file: 'buck.json', steady });
      expect(bad.status, field).to.equal(400);
      expect(bad.body as Json).to.include({ field });
    }
  });
});
