// Real STOMP clients during real runs: @stomp/stompjs over /ws-raw (Node `ws`) and over /ws
// (sockjs-client, websocket and xhr-streaming transports) receive the §2.4 progress messages of a
// running buck until COMPLETED; a finished run's final message comes at once; 200 subscribers on
// one run all receive the final message.
import { expect } from 'chai';
import type { Client } from '@stomp/stompjs';
import type { ProgressMessage } from '../../../src/simulations/ProgressPresenter.js';
import { collect, startHarness, stompClient, type Endpoint, type RealtimeHarness } from './harness.js';

const MESSAGE_FIELDS = ['simulationId', 'progress', 'currentTime', 'endTime', 'step', 'totalSteps', 'status', 'timestamp', 'errorMessage'];

function expectProgressSequence(messages: ProgressMessage[], id: string): void {
  expect(messages.length).to.be.greaterThan(2);
  for (const m of messages) {
    expect(Object.keys(m)).to.have.members(MESSAGE_FIELDS);
    expect(m.simulationId).to.equal(id);
    expect(m.endTime).to.be.closeTo(0.3, 1e-12);
    expect(new Date(m.timestamp).toISOString()).to.equal(m.timestamp);
  }
  const steps = messages.map((m) => m.step);
  expect(steps).to.deep.equal([...steps].sort((a, b) => a - b)); // progress never goes back
  expect(messages.filter((m) => m.status === 'RUNNING').length).to.be.greaterThan(0);
  const last = messages[messages.length - 1];
  expect(last).to.include({ status: 'COMPLETED', progress: 100, errorMessage: null });
  expect(last.step).to.equal(last.totalSteps);
  expect(messages.slice(0, -1).every((m) => m.status !== 'COMPLETED')).to.equal(true);
}

describe('realtime: STOMP clients during a real run', function () {
  this.timeout(60_000);
  let h: RealtimeHarness;
  const clients: Client[] = [];
  before(async () => {
    h = await startHarness();
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.deactivate()));
  });
  after(async () => {
    await h.dispose();
  });

  const endpoints: [string, Endpoint][] = [
    ['@stomp/stompjs over /ws-raw', { kind: 'raw' }],
    ['@stomp/stompjs over /ws (SockJS websocket)', { kind: 'sockjs', transports: ['websocket'] }],
    ['@stomp/stompjs over /ws (SockJS xhr-streaming)', { kind: 'sockjs', transports: ['xhr-streaming'] }],
  ];
  for (const [name, endpoint] of endpoints) {
    it(`${name}: progress messages of a running buck until COMPLETED`, async () => {
      const client = await stompClient(h.port, endpoint);
      clients.push(client);
      const task = await h.submitBuck();
      const collected = collect(client, task.id);
      const messages = await collected.finished;
      expectProgressSequence(messages, task.id);
      const frame = collected.frames[collected.frames.length - 1];
      expect(frame.headers['content-type']).to.equal('application/json');
      expect(frame.headers.destination).to.equal(`/topic/simulations/${task.id}`);
      expect(frame.headers.subscription).to.equal(collected.subscription.id);
      expect(frame.headers['message-id']).to.match(new RegExp(`^${task.id}-\\d+$`));
      expect(Number(frame.headers['content-length'])).to.equal(Buffer.byteLength(frame.body));
      const ids = collected.frames.map((f) => Number(f.headers['message-id'].slice(task.id.length + 1)));
      expect(ids).to.deep.equal([...ids].sort((a, b) => a - b));
      expect(new Set(ids).size).to.equal(ids.length);
    });
  }

  it('a subscription to a finished run receives its final message at once, then nothing more', async () => {
    const task = await h.submitBuck(0.01);
    await h.waitFinished(task.id);
    for (const endpoint of [{ kind: 'raw' }, { kind: 'sockjs' }] as Endpoint[]) {
      const client = await stompClient(h.port, endpoint);
      clients.push(client);
      const collected = collect(client, task.id);
      const messages = await collected.finished;
      expect(messages).to.have.length(1);
      expect(messages[0]).to.include({ simulationId: task.id, status: 'COMPLETED', progress: 100, errorMessage: null });
      // A receipt comes after every frame sent before it: still only the one message by then.
      const receipt = new Promise<void>((resolve) => client.watchForReceipt('unsubscribed', () => resolve()));
      collected.subscription.unsubscribe({ receipt: 'unsubscribed' });
      await receipt;
      expect(collected.messages).to.have.length(1);
    }
  });

  it('200 concurrent subscribers on one run all receive the final message', async () => {
    const SUBSCRIBERS = 200;
    const task = await h.submitBuck(0.3);
    const connections = await Promise.all(Array.from({ length: SUBSCRIBERS }, (_, i) => stompClient(h.port, i % 4 === 0 ? { kind: 'sockjs', transports: ['websocket'] } : { kind: 'raw' })));
    clients.push(...connections);
    const results = await Promise.all(connections.map((c) => collect(c, task.id).finished));
    expect(results).to.have.length(SUBSCRIBERS);
    for (const messages of results) {
      expect(messages[messages.length - 1]).to.include({ simulationId: task.id, status: 'COMPLETED', progress: 100 });
    }
    // Messages are built once per event: every subscriber's final message is the same one.
    const finalStamps = new Set(results.map((m) => m[m.length - 1].timestamp));
    expect(finalStamps.size).to.equal(1);
    expect(h.realtime.stats().connections).to.be.at.least(SUBSCRIBERS);
  });
});
