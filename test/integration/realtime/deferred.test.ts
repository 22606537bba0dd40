// The STOMP endpoints attached through attachRealtimeDeferred, as `pesim serve` attaches them: the
// server answers other paths before they load, the first SockJS request or WebSocket upgrade loads
// them and is then served as if they had been there from the start, and a shutdown before they
// load refuses requests under /ws with the JSON error body.
import { expect } from 'chai';
import type { Client } from '@stomp/stompjs';
import { WebSocket } from 'ws';
import { collect, startHarness, stompClient, type RealtimeHarness } from './harness.js';

describe('realtime: endpoints loaded on first use', function () {
  this.timeout(60_000);
  let h: RealtimeHarness;
  const clients: Client[] = [];
  const get = async (path: string): Promise<{ status: number; type: string; text: string }> => {
    const response = await fetch(`http://127.0.0.1:${h.port}${path}`);
    return { status: response.status, type: response.headers.get('content-type') ?? '', text: await response.text() };
  };
  beforeEach(async () => {
    h = await startHarness({ deferred: true });
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.deactivate()));
    await h.dispose();
  });

  it('passes paths outside /ws to the server\'s own handler without loading the endpoints', async () => {
    expect(await get('/api/v1/health')).to.include({ status: 404, text: 'not found' });
    expect(await get('/wsx')).to.include({ status: 404, text: 'not found' });
    expect(h.realtime.stats()).to.deep.equal({ connections: 0, subscriptions: 0, slowConsumersDropped: 0, connectionsRefused: 0 });
  });

  it('answers a first request under /ws once the endpoints have loaded (an unknown path: the JSON 404)', async () => {
    const unknown = await get('/ws/no-such-thing');
    expect(unknown.status).to.equal(404);
    expect(unknown.type).to.contain('application/json');
    expect(JSON.parse(unknown.text)).to.include({ error: 'NOT_FOUND', path: '/ws/no-such-thing' });
    const info = await get('/ws/info');
    expect(info.status).to.equal(200);
    expect(JSON.parse(info.text)).to.have.property('websocket', true);
  });

  it('serves a STOMP client on /ws-raw whose upgrade is the first event', async () => {
    const task = await h.submitBuck(0.005);
    await h.waitFinished(task.id);
    const client = await stompClient(h.port, { kind: 'raw' });
    clients.push(client);
    const messages = await collect(client, task.id).finished;
    expect(messages.at(-1)).to.include({ simulationId: task.id, status: 'COMPLETED' });
    expect(h.realtime.stats().connections).to.equal(1);
  });

  for (const transport of ['websocket', 'xhr-streaming']) {
    it(`serves a SockJS client on /ws (${transport}) whose first request loads the endpoints`, async () => {
      const task = await h.submitBuck(0.005);
      await h.waitFinished(task.id);
      const client = await stompClient(h.port, { kind: 'sockjs', transports: [transport] });
      clients.push(client);
      const messages = await collect(client, task.id).finished;
      expect(messages.at(-1)).to.include({ simulationId: task.id, status: 'COMPLETED' });
    });
  }

  it('refuses requests under /ws and drops upgrades after a shutdown before the endpoints loaded', async () => {
    await h.realtime.close();
    const refused = await get('/ws/info');
    expect(refused.status).to.equal(500);
    expect(JSON.parse(refused.text)).to.include({ error: 'INTERNAL_ERROR', path: '/ws/info' });
    expect(JSON.parse(refused.text).message).to.contain('the service is stopping');
    const socket = new WebSocket(`ws://127.0.0.1:${h.port}/ws-raw`, ['v12.stomp']);
    const outcome = await new Promise<string>((resolve) => {
      socket.on('open', () => resolve('open'));
      socket.on('error', () => resolve('error'));
    });
    expect(outcome).to.equal('error');
    expect(await get('/elsewhere')).to.include({ status: 404, text: 'not found' });
  });
});
