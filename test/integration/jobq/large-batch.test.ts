// Batches of the job-queue service large enough for their circuit checks to go to the
// circuit-check thread (src/jobs/check-thread.ts): the error is the one of the first failing item,
// as when each item is checked in turn, and a good batch runs every item with its own parameters.
import { expect } from 'chai';
import { CHECK_THREAD_MIN } from '../../../src/jobs/check-thread.js';
import { startTestService, waitForState, type TestService } from './harness.js';

interface ValidationBody {
  detail?: { loc: unknown[]; msg: string; type: string }[];
  error_code?: string;
  field?: string;
}

describe('job-queue service: large batches', function () {
  this.timeout(120_000);
  let service: TestService;
  before(async () => {
    service = await startTestService((c) => {
      c.orchestration.queue_size = 1000;
    });
  });
  after(async () => service.dispose());

  const items = (count: number, change: Record<number, Record<string, unknown>> = {}): Record<string, unknown>[] =>
    Array.from({ length: count }, (_, i) => ({ model_file: 'rc.json', parameters: { 'R.1.R': 100 + i }, ...change[i] }));

  it('reports the first failing item: a circuit check (made together with the others) before a later item that fails otherwise', async () => {
    const count = 2 * CHECK_THREAD_MIN;
    const before = (await service.request('GET', '/stats')).body;
    // Item 70: a resistance the engine refuses (a circuit check); item 90: a parameter the model has not.
    const both = await service.request('POST', '/simulations/batch', items(count, { 70: { parameters: { 'R.1.R': -1 } }, 90: { parameters: { 'X.9.y': 1 } } }));
    const alone = await service.request('POST', '/simulations/batch', [{ model_file: 'rc.json', parameters: { 'R.1.R': -1 } }]);
    expect(both.status).to.equal(alone.status);
    const field = (body: unknown): unknown => (body as ValidationBody).field ?? (body as ValidationBody).detail?.[0]?.loc;
    expect(JSON.stringify(field(both.body))).to.contain('70');
    // Only item 90 is bad: it is reported.
    const later = await service.request('POST', '/simulations/batch', items(count, { 90: { parameters: { 'X.9.y': 1 } } }));
    expect(later.status).to.equal(400);
    expect(JSON.stringify(field(later.body))).to.contain('90');
    // Nothing was queued.
    expect((await service.request('GET', '/stats')).body).to.deep.include({ queue: (before as { queue: unknown }).queue });
  });

  it('reports a model file that cannot be read at the turn of its first item, after the items before it', async () => {
    const count = 2 * CHECK_THREAD_MIN;
    const field = (body: unknown): string => JSON.stringify((body as ValidationBody).field ?? (body as ValidationBody).detail?.[0]?.loc ?? body);
    // Item 20 names a missing file, item 10 has a priority the service does not know: item 10.
    const priorityFirst = await service.request('POST', '/simulations/batch', items(count, { 10: { priority: 'URGENT' }, 20: { model_file: 'missing.json' } }));
    expect(priorityFirst.status).to.equal(400);
    expect(field(priorityFirst.body)).to.contain('10');
    // The other way round: the missing file of item 10 is reported, as a single item reports it.
    const modelFirst = await service.request('POST', '/simulations/batch', items(count, { 10: { model_file: 'missing.json' }, 20: { priority: 'URGENT' } }));
    const alone = await service.request('POST', '/simulations/batch', [{ model_file: 'missing.json' }]);
    expect(modelFirst.status).to.equal(alone.status);
    expect(modelFirst.status).to.be.within(400, 499);
    expect(JSON.stringify(modelFirst.body)).to.contain('missing.json');
    expect(field(modelFirst.body)).to.contain('10');
  });

  it('runs a good batch, each item with its own parameters', async () => {
    const r = await service.request('POST', '/simulations/batch', items(CHECK_THREAD_MIN + 6));
    expect(r.status).to.equal(201);
    const ids = (r.body as { task_ids: string[] }).task_ids;
    expect(ids).to.have.length(CHECK_THREAD_MIN + 6);
    const done = await Promise.all(ids.map((id) => waitForState(service, id, ['completed', 'failed'])));
    expect(done.every((t) => t.state === 'completed')).to.equal(true);
    expect(done.map((t) => t.spec.parameters['R.1.R'])).to.deep.equal(ids.map((_, i) => 100 + i));
  });
});
