// API keys on STOMP (X-API-Key in CONNECT, any letter case; SUBSCRIBE refused without a valid
// key) over /ws-raw and /ws, the connection limit, the CONNECT time-out, and shutdown.
import { expect } from 'chai';
import { header } from '../../../src/realtime/stomp/frame.js';
import { collect, RawClient, startHarness, stompClient, type RealtimeHarness } from './harness.js';

describe('realtime: API keys', function () {
  this.timeout(30_000);
  let h: RealtimeHarness;
  let known: string;
  const raws: RawClient[] = [];
  const open = async (): Promise<RawClient> => {
    const c = await RawClient.open(h.port);
    raws.push(c);
    return c;
  };
  before(async () => {
    h = await startHarness({ auth: { enabled: true, keys: ['key-one', 'key-two'] } });
    known = (await h.submitBuck(0.005)).id;
    await h.waitFinished(known);
  });
  afterEach(() => raws.splice(0).forEach((c) => c.close()));
  after(async () => h.dispose());

  it('connects without a key (the endpoint is public) but refuses SUBSCRIBE with an ERROR frame', async () => {
    const c = await open();
    await c.connect();
    c.send(`SUBSCRIBE\nid:1\ndestination:/topic/simulations/${known}\nreceipt:r\n\n\0`);
    const error = await c.next('ERROR');
    expect(header(error, 'message')).to.equal('SUBSCRIBE refused: a valid X-API-Key is required');
    expect(header(error, 'receipt-id')).to.equal('r');
    expect(c.frames.filter((f) => f.command === 'MESSAGE')).to.have.length(0);
    expect(await c.closed).to.equal(1000);
  });

  it('refuses a CONNECT carrying a wrong key', async () => {
    const c = await open();
    c.send('CONNECT\naccept-version:1.2\nX-API-Key:key-three\n\n\0');
    expect(header(await c.next('ERROR'), 'message')).to.equal('invalid API key');
    expect(await c.closed).to.equal(1000);
  });

  for (const name of ['X-API-Key', 'x-api-key', 'X-Api-KEY']) {
    it(`accepts a valid key in a header spelled ${name}`, async () => {
      const c = await open();
      await c.connect(`accept-version:1.2\n${name}:key-two`);
      c.send(`SUBSCRIBE\nid:1\ndestination:/topic/simulations/${known}\n\n\0`);
      expect(JSON.parse((await c.next('MESSAGE')).body.toString())).to.include({ simulationId: known, status: 'COMPLETED' });
    });
  }

  it('@stomp/stompjs over /ws without a key gets the ERROR frame through SockJS', async () => {
    const client = await stompClient(h.port, { kind: 'sockjs', transports: ['xhr-streaming'] });
    const error = new Promise<string>((resolve) => (client.onStompError = (frame) => resolve(frame.headers.message)));
    const closed = new Promise<void>((resolve) => (client.onWebSocketClose = () => resolve()));
    client.subscribe(`/topic/simulations/${known}`, () => expect.fail('no MESSAGE without a key'));
    expect(await error).to.equal('SUBSCRIBE refused: a valid X-API-Key is required');
    await closed;
    await client.deactivate();
  });

  it('@stomp/stompjs with connectHeaders X-API-Key receives messages over /ws-raw and /ws', async () => {
    for (const endpoint of [{ kind: 'raw' as const }, { kind: 'sockjs' as const, transports: ['xhr-streaming'] }]) {
      const client = await stompClient(h.port, endpoint, { 'X-API-Key': 'key-one' });
      const messages = await collect(client, known).finished;
      expect(messages.map((m) => m.status)).to.deep.equal(['COMPLETED']);
      await client.deactivate();
    }
  });
});

describe('realtime: connection limits and shutdown', function () {
  this.timeout(30_000);
  let h: RealtimeHarness;
  before(async () => {
    h = await startHarness({ settings: { limits: { maxConnections: 2, connectTimeoutMs: 300 } } });
  });
  after(async () => h.dispose());

  it('refuses connections beyond maxConnections with an ERROR frame, and accepts again when one closes', async () => {
    const first = await RawClient.open(h.port);
    const second = await RawClient.open(h.port);
    await first.connect();
    await second.connect();
    const third = await RawClient.open(h.port);
    expect(header(await third.next('ERROR'), 'message')).to.equal('too many connections (limit 2)');
    expect(await third.closed).to.equal(1000);
    expect(h.realtime.stats()).to.deep.include({ connections: 2, connectionsRefused: 1 });
    first.close();
    await first.closed;
    while (h.realtime.stats().connections > 1) await new Promise((r) => setTimeout(r, 10));
    const fourth = await RawClient.open(h.port);
    expect((await fourth.connect()).command).to.equal('CONNECTED');
    second.close();
    fourth.close();
    await Promise.all([second.closed, fourth.closed]);
  });

  it('closes a connection that sends no CONNECT within connectTimeoutMs', async () => {
    while (h.realtime.stats().connections > 0) await new Promise((r) => setTimeout(r, 10));
    const c = await RawClient.open(h.port);
    const error = await c.next('ERROR');
    expect(header(error, 'message')).to.equal('no CONNECT frame within 300 ms');
    expect(await c.closed).to.equal(1000);
  });

  it('tells open sessions about a shutdown with an ERROR frame', async () => {
    while (h.realtime.stats().connections > 0) await new Promise((r) => setTimeout(r, 10));
    const c = await RawClient.open(h.port);
    await c.connect();
    await h.realtime.close();
    expect(header(await c.next('ERROR'), 'message')).to.equal('the server is shutting down');
    await c.closed;
    expect(h.realtime.stats().connections).to.equal(0);
  });
});
