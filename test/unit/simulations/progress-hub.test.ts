// The progress hub: numbered messages fanned out identically to every subscriber, the backlog for
// Last-Event-ID resumption, the final message ending a subscription, and history bounds.
import { expect } from 'chai';
import { TaskEvents } from '../../../src/jobs/events.js';
import type { TaskRecord, TaskState } from '../../../src/jobs/types.js';
import { ProgressHub, type SequencedMessage } from '../../../src/simulations/progress-hub.js';
import { buck } from '../../fixtures/circuits.js';

function task(id: string, state: TaskState, step = 0): TaskRecord {
  const totalSteps = 20_000;
  return {
    id, owner: 'simulation', priority: 'NORMAL', state, spec: { netlist: buck({ tEnd: 2e-3, dt: 1e-7 }), parameters: {} }, request: {},
    batchId: null, submittedAt: '2025-01-01T00:00:00.000Z', startedAt: null, completedAt: null, attempts: 1, errorCode: null,
    errorMessage: state === 'failed' ? 'singular matrix at node x' : null, cacheHit: false, cacheKey: null, runMs: null, retryAt: null,
    progress: step > 0 ? { phase: 'main', step, totalSteps, time: step * 1e-7, percent: (100 * step) / totalSteps, estimatedRemainingMs: 10 } : null,
    summary: null,
  };
}

describe('ProgressHub', () => {
  const fixed = new Date('2025-01-01T12:00:00.000Z');
  let events: TaskEvents;
  let records: Map<string, TaskRecord>;
  let hub: ProgressHub;
  const lookup = (id: string): TaskRecord => {
    const t = records.get(id);
    if (!t) throw new Error(`no task ${id}`);
    return t;
  };
  const emit = (t: TaskRecord, kind: 'state' | 'progress' = 'progress'): void => {
    records.set(t.id, t);
    if (kind === 'state') events.emit('state', t);
    else events.emit('progress', t, t.progress!);
  };

  beforeEach(() => {
    events = new TaskEvents();
    records = new Map([['a', task('a', 'running', 100)]]);
    hub = new ProgressHub(events, lookup, { now: () => fixed, historyLength: 5 });
  });
  afterEach(() => hub.close());

  it('gives a new subscriber the current state, then every update to all subscribers identically', () => {
    const first: SequencedMessage[] = [];
    const second: SequencedMessage[] = [];
    hub.subscribe('a', (m) => first.push(m));
    expect(first).to.have.length(1);
    expect(first[0].seq).to.equal(1);
    expect(first[0].message).to.deep.equal({
      simulationId: 'a', progress: 0.5, currentTime: 100 * 1e-7, endTime: 2e-3, step: 100, totalSteps: 20_000,
      status: 'RUNNING', timestamp: '2025-01-01T12:00:00.000Z', errorMessage: null,
    });
    hub.subscribe('a', (m) => second.push(m));
    emit(task('a', 'running', 5000));
    expect(first.map((m) => m.seq)).to.deep.equal([1, 2]);
    expect(second.map((m) => m.seq)).to.deep.equal([1, 2]);
    expect(first[1]).to.equal(second[1]); // built once, shared
    expect(first[1].message.progress).to.equal(25);
  });

  it('ends with the final message and delivers nothing after it', () => {
    const got: SequencedMessage[] = [];
    hub.subscribe('a', (m) => got.push(m));
    emit(task('a', 'completed'), 'state');
    emit(task('a', 'running', 9000));
    expect(got.map((m) => [m.seq, m.message.status, m.final])).to.deep.equal([[1, 'RUNNING', false], [2, 'COMPLETED', true]]);
    expect(got[1].message.progress).to.equal(100);
    expect(got[1].message.step).to.equal(20_000);
    // A late subscriber gets the final message at once.
    const late: SequencedMessage[] = [];
    hub.subscribe('a', (m) => late.push(m));
    expect(late.map((m) => m.message.status)).to.deep.equal(['COMPLETED']);
  });

  it('carries the error text of a failed run', () => {
    const got: SequencedMessage[] = [];
    hub.subscribe('a', (m) => got.push(m));
    emit(task('a', 'failed'), 'state');
    expect(got[1].message.status).to.equal('FAILED');
    expect(got[1].message.errorMessage).to.equal('singular matrix at node x');
  });

  it('resumes after Last-Event-ID without gaps or repeats', () => {
    const got: SequencedMessage[] = [];
    const sub = hub.subscribe('a', (m) => got.push(m));
    emit(task('a', 'running', 1000));
    emit(task('a', 'running', 2000));
    sub.close();
    emit(task('a', 'running', 3000)); // seq 4, missed by the closed subscriber
    const resumed: SequencedMessage[] = [];
    hub.subscribe('a', (m) => resumed.push(m), got[got.length - 1].seq);
    emit(task('a', 'running', 4000));
    expect(got.map((m) => m.seq)).to.deep.equal([1, 2, 3]);
    expect(resumed.map((m) => m.seq)).to.deep.equal([4, 5]);
    expect(resumed.map((m) => m.message.step)).to.deep.equal([3000, 4000]);
  });

  it('sends the latest state when the resumption point has left the history or is unknown', () => {
    hub.subscribe('a', () => undefined);
    for (let step = 1000; step <= 9000; step += 1000) emit(task('a', 'running', step)); // seq 2..10, history keeps 5
    const old: SequencedMessage[] = [];
    hub.subscribe('a', (m) => old.push(m), 2);
    expect(old.map((m) => m.seq)).to.deep.equal([10]);
    const future: SequencedMessage[] = [];
    hub.subscribe('a', (m) => future.push(m), 500); // numbering from an earlier process
    expect(future.map((m) => m.seq)).to.deep.equal([10]);
    const current: SequencedMessage[] = [];
    hub.subscribe('a', (m) => current.push(m), 10);
    expect(current).to.deep.equal([]);
  });

  it('throws the lookup error for an unknown simulation and ignores tasks nobody follows', () => {
    expect(() => hub.subscribe('nope', () => undefined)).to.throw('no task nope');
    records.set('b', task('b', 'running', 10));
    emit(task('b', 'running', 20)); // no channel: nothing is built
    const got: SequencedMessage[] = [];
    hub.subscribe('b', (m) => got.push(m));
    expect(got.map((m) => [m.seq, m.message.step])).to.deep.equal([[1, 20]]);
  });

  it('stops listening to the bus when closed', () => {
    const got: SequencedMessage[] = [];
    hub.subscribe('a', (m) => got.push(m));
    hub.close();
    expect(events.listenerCount('progress')).to.equal(0);
    emit(task('a', 'running', 7000));
    expect(got).to.have.length(1);
  });
});
