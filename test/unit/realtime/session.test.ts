// The STOMP session over an in-memory transport, fed by a real ProgressHub on a real task event
// bus: MESSAGE frames for each bus event, the final message (with errorMessage for a failed run)
// and nothing after it, a slow consumer dropped while the other subscribers keep receiving.
import { expect } from 'chai';
import { TaskEvents } from '../../../src/jobs/events.js';
import type { TaskRecord } from '../../../src/jobs/types.js';
import { Broker } from '../../../src/realtime/broker.js';
import { resolveRealtimeSettings } from '../../../src/realtime/settings.js';
import { header, type StompFrame } from '../../../src/realtime/stomp/frame.js';
import { StompParser } from '../../../src/realtime/stomp/parser.js';
import { silentLogger, type Transport } from '../../../src/realtime/transport.js';
import { ProgressHub } from '../../../src/simulations/progress-hub.js';
import { buck } from '../../fixtures/circuits.js';

class MemoryTransport implements Transport {
  readonly kind = 'memory';
  readonly frames: StompFrame[] = [];
  backlog = 0;
  state: 'open' | 'closed' | 'terminated' = 'open';
  private readonly parser = new StompParser({ maxFrameBytes: 1 << 20 });
  send(data: Buffer): void {
    for (const item of this.parser.push(data)) if (item.kind === 'frame') this.frames.push(item.frame);
  }
  bufferedAmount(): number {
    return this.backlog;
  }
  close(): void {
    this.state = 'closed';
  }
  terminate(): void {
    this.state = 'terminated';
  }
  messages(): { seq: number; status: string; errorMessage: string | null; step: number }[] {
    return this.frames.filter((f) => f.command === 'MESSAGE').map((f) => ({ ...JSON.parse(f.body.toString()), seq: Number(header(f, 'message-id')!.split('-').pop()) }));
  }
}

function record(id: string, state: TaskRecord['state'], step = 0, errorMessage: string | null = null): TaskRecord {
  return {
    id, owner: 'simulation', priority: 'NORMAL', state, spec: { netlist: buck({ tEnd: 1e-3, dt: 1e-7 }), parameters: {} }, request: {},
    batchId: null, submittedAt: new Date().toISOString(), startedAt: null, completedAt: null, attempts: 1, errorCode: null, errorMessage,
    cacheHit: false, cacheKey: null, runMs: null, retryAt: null,
    progress: step > 0 ? { phase: 'main', step, totalSteps: 10_000, time: step * 1e-7, percent: step / 100, estimatedRemainingMs: null } : null,
    summary: null,
  };
}

describe('STOMP session on an in-memory transport', () => {
  let events: TaskEvents;
  let tasks: Map<string, TaskRecord>;
  let hub: ProgressHub;
  let broker: Broker;
  const update = (task: TaskRecord): void => {
    tasks.set(task.id, task);
    events.emit(task.progress ? 'progress' : 'state', task, task.progress!);
  };
  const connectAndSubscribe = (id: string): MemoryTransport => {
    const transport = new MemoryTransport();
    const session = broker.open(transport)!;
    session.receive(`CONNECT\naccept-version:1.2\n\n\0SUBSCRIBE\nid:s\ndestination:/topic/simulations/${id}\n\n\0`);
    return transport;
  };

  beforeEach(() => {
    events = new TaskEvents();
    tasks = new Map();
    hub = new ProgressHub(events, (id) => {
      const task = tasks.get(id);
      if (!task) throw new Error(`no task ${id}`);
      return task;
    });
    broker = new Broker(hub, (id) => tasks.get(id), { enabled: false, keys: [] }, resolveRealtimeSettings({ limits: { maxBufferedBytes: 1000 } }), silentLogger);
  });
  afterEach(() => {
    broker.close();
    hub.close();
  });

  it('sends one MESSAGE per bus event, the final one last, then nothing more', () => {
    update(record('a', 'running', 100));
    const t = connectAndSubscribe('a');
    update(record('a', 'running', 2000));
    update(record('a', 'running', 5000));
    update(record('a', 'completed'));
    update(record('a', 'running', 9000)); // a late event after the final one
    const messages = t.messages();
    expect(messages.map((m) => m.status)).to.deep.equal(['RUNNING', 'RUNNING', 'RUNNING', 'COMPLETED']);
    expect(messages.map((m) => m.step)).to.deep.equal([100, 2000, 5000, 10_000]);
    expect(messages.map((m) => m.seq)).to.deep.equal([1, 2, 3, 4]);
    expect(broker.stats().subscriptions).to.equal(0); // the finished subscription no longer counts
  });

  it('carries the error text in the final message of a failed run', () => {
    update(record('f', 'running', 10));
    const t = connectAndSubscribe('f');
    update(record('f', 'failed', 0, 'singular matrix at node out, t = 1e-6 s'));
    const last = t.messages().at(-1)!;
    expect(last).to.include({ status: 'FAILED', errorMessage: 'singular matrix at node out, t = 1e-6 s' });
  });

  it('drops a slow consumer without holding up the other subscribers', () => {
    update(record('b', 'running', 10));
    const slow = connectAndSubscribe('b');
    const fast = connectAndSubscribe('b');
    expect(broker.stats()).to.deep.include({ connections: 2, subscriptions: 2 });
    slow.backlog = 5000; // above maxBufferedBytes (1000): the client is not reading
    update(record('b', 'running', 20));
    update(record('b', 'running', 30));
    update(record('b', 'completed'));
    expect(slow.state).to.equal('terminated');
    expect(slow.messages().map((m) => m.step)).to.deep.equal([10]);
    expect(fast.messages().map((m) => m.status)).to.deep.equal(['RUNNING', 'RUNNING', 'RUNNING', 'COMPLETED']);
    expect(broker.stats()).to.deep.include({ connections: 1, slowConsumersDropped: 1 });
  });

  it('refuses connections after close() with an ERROR frame', () => {
    broker.close();
    const t = new MemoryTransport();
    expect(broker.open(t)).to.equal(undefined);
    expect(header(t.frames[0], 'message')).to.equal('the server is shutting down');
    expect(t.state).to.equal('closed');
  });
});
