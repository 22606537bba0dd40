// The STOMP protocol of /ws-raw with hand-made frames from a raw `ws` client: every malformed or
// refused frame gets an ERROR frame and the connection closes; version negotiation 1.0/1.1/1.2
// (also with @stomp/stompjs limited to one version), escaping per version, receipts, heart-beats
// sent and enforced, the subscription limit, and other upgrade paths left to their owners.
import { expect } from 'chai';
import { Versions } from '@stomp/stompjs';
import { WebSocketServer, WebSocket } from 'ws';
import { header } from '../../../src/realtime/stomp/frame.js';
import { bodyOf, collect, RawClient, startHarness, stompClient, type RealtimeHarness } from './harness.js';

describe('realtime: STOMP protocol on /ws-raw', function () {
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
    h = await startHarness({ settings: { limits: { maxFrameBytes: 2048, maxSubscriptionsPerConnection: 3 }, heartBeat: { sendMs: 100, receiveMs: 100, graceMs: 150 } } });
    known = (await h.submitBuck(0.005)).id;
    await h.waitFinished(known);
  });
  afterEach(() => raws.splice(0).forEach((c) => c.close()));
  after(async () => h.dispose());

  describe('version negotiation', () => {
    const cases: [string, string, boolean][] = [
      ['accept-version:1.0,1.1,1.2', '1.2', true],
      ['accept-version:1.1,1.0', '1.1', true],
      ['accept-version:1.0', '1.0', false],
      ['host:localhost', '1.0', false],
    ];
    for (const [headers, version, beats] of cases) {
      it(`CONNECT with ${headers} → ${version}`, async () => {
        const c = await open();
        const connected = await c.connect(headers);
        expect(header(connected, 'version')).to.equal(version);
        expect(header(connected, 'session')).to.match(/^[0-9a-f-]{36}$/);
        expect(header(connected, 'heart-beat')).to.equal(beats ? '100,100' : undefined);
      });
    }

    it('refuses a CONNECT accepting no supported version with an ERROR listing them', async () => {
      const c = await open();
      c.send('CONNECT\naccept-version:2.0,2.1\n\n\0');
      const error = await c.next('ERROR');
      expect(header(error, 'message')).to.equal('unsupported STOMP version');
      expect(header(error, 'version')).to.equal('1.0,1.1,1.2');
      expect(await c.closed).to.equal(1000);
    });

    for (const version of ['1.0', '1.1', '1.2']) {
      it(`@stomp/stompjs limited to STOMP ${version} receives the final message`, async () => {
        const client = await stompClient(h.port, { kind: 'raw' }, {});
        await client.deactivate();
        client.stompVersions = new Versions([version]);
        const connected = new Promise<void>((resolve) => (client.onConnect = () => resolve()));
        client.activate();
        await connected;
        expect(client.connectedVersion).to.equal(version);
        const messages = await collect(client, known).finished;
        expect(messages.map((m) => m.status)).to.deep.equal(['COMPLETED']);
        await client.deactivate();
      });
    }
  });

  describe('escaping', () => {
    it('escapes the subscription id in MESSAGE headers for 1.1 and 1.2, not for 1.0', async () => {
      for (const [version, sent, expected] of [['1.2', 'a\\cb', 'a:b'], ['1.1', 'a\\cb', 'a:b'], ['1.0', 'a:b', 'a:b']]) {
        const c = await open();
        await c.connect(`accept-version:${version}`);
        c.send(`SUBSCRIBE\nid:${sent}\ndestination:/topic/simulations/${known}\n\n\0`);
        const message = await c.next('MESSAGE');
        expect(header(message, 'subscription')).to.equal(expected); // unescaped by the client's parser per version
        expect(JSON.parse(bodyOf(message))).to.include({ simulationId: known, status: 'COMPLETED' });
      }
    });
  });

  describe('receipts', () => {
    it('answers SUBSCRIBE, ACK, NACK, UNSUBSCRIBE and DISCONNECT receipts, then closes', async () => {
      const c = await open();
      await c.connect('accept-version:1.2');
      c.send(`SUBSCRIBE\nid:s1\nack:client-individual\ndestination:/topic/simulations/${known}\nreceipt:r-sub\n\n\0`);
      expect(header(await c.next('RECEIPT'), 'receipt-id')).to.equal('r-sub');
      const message = await c.next('MESSAGE');
      expect(header(message, 'ack')).to.equal(`s1:${header(message, 'message-id')!.split('-').pop()}`);
      c.send(`ACK\nid:${header(message, 'ack')}\nreceipt:r-ack\n\n\0NACK\nid:x\nreceipt:r-nack\n\n\0UNSUBSCRIBE\nid:s1\nreceipt:r-unsub\n\n\0DISCONNECT\nreceipt:r-bye\n\n\0`);
      const ids = [];
      for (let i = 0; i < 4; i++) ids.push(header(await c.next('RECEIPT'), 'receipt-id'));
      expect(ids).to.deep.equal(['r-ack', 'r-nack', 'r-unsub', 'r-bye']);
      expect(await c.closed).to.equal(1000);
    });
  });

  describe('ERROR frames', () => {
    // [name, frames sent after CONNECT (or instead of it when null), expected message]
    const cases: [string, string, RegExp, boolean][] = [
      ['a header line without a colon', 'SUBSCRIBE\nid:1\nnonsense\n\n\0', /header line without a name and colon/, true],
      ['an undefined escape sequence', 'SUBSCRIBE\nid:a\\tb\ndestination:/x\n\n\0', /undefined escape sequence/, true],
      ['a content-length that is not a number', 'SUBSCRIBE\ncontent-length:ten\n\n\0', /content-length is not a non-negative integer/, true],
      ['a body longer than its content-length', 'ACK\nid:1\ncontent-length:1\n\nabc\0', /longer than its content-length/, true],
      ['a NUL inside the headers', 'SUBSCRIBE\nid:1\0\n\n\0', /malformed frame: NUL (before the empty line|inside the command or headers)/, true],
      ['a frame over maxFrameBytes', `ACK\nid:1\n\n${'x'.repeat(3000)}\0`, /frame too large: the limit is 2048 bytes/, true],
      ['a garbage command line', 'hello world\n\n\0', /command line is not a command/, true],
      ['an unknown command', 'PUBLISH\ndestination:/x\n\n\0', /unknown command PUBLISH/, true],
      ['a lower-case command', 'subscribe\nid:1\n\n\0', /unknown command subscribe/, true],
      ['a second CONNECT', 'CONNECT\naccept-version:1.2\n\n\0', /already connected/, true],
      ['SEND (client-to-server messages)', 'SEND\ndestination:/topic/simulations/x\nreceipt:r9\n\nhi\0', /client-to-server commands are not supported: SEND/, true],
      ['BEGIN (transactions)', 'BEGIN\ntransaction:t1\n\n\0', /client-to-server commands are not supported: BEGIN/, true],
      ['SUBSCRIBE without destination', 'SUBSCRIBE\nid:1\n\n\0', /without a destination/, true],
      ['SUBSCRIBE without id in 1.2', 'SUBSCRIBE\ndestination:/topic/simulations/x\n\n\0', /without an id header/, true],
      ['SUBSCRIBE with an invalid ack mode', 'SUBSCRIBE\nid:1\nack:sometimes\ndestination:/topic/simulations/x\n\n\0', /invalid ack mode sometimes/, true],
      ['SUBSCRIBE to an unknown destination', 'SUBSCRIBE\nid:1\ndestination:/queue/orders\n\n\0', /unknown destination \/queue\/orders/, true],
      ['SUBSCRIBE to an unknown simulation', 'SUBSCRIBE\nid:1\ndestination:/topic/simulations/no-such-run\n\n\0', /unknown destination .*no simulation no-such-run/, true],
      ['UNSUBSCRIBE of an unknown id', 'UNSUBSCRIBE\nid:nope\n\n\0', /UNSUBSCRIBE of unknown subscription nope/, true],
      ['ACK without id in 1.2', 'ACK\nmessage-id:1\n\n\0', /ACK without id header/, true],
      ['SUBSCRIBE before CONNECT', 'SUBSCRIBE\nid:1\ndestination:/topic/simulations/x\n\n\0', /SUBSCRIBE before CONNECT/, false],
      ['a malformed heart-beat header', 'CONNECT\naccept-version:1.2\nheart-beat:often\n\n\0', /malformed heart-beat header/, false],
    ];
    for (const [name, frames, pattern, connectFirst] of cases) {
      it(`answers ${name} with an ERROR frame and closes`, async () => {
        const c = await open();
        if (connectFirst) await c.connect('accept-version:1.2');
        c.send(frames);
        const error = await c.next('ERROR');
        expect(header(error, 'message')).to.match(pattern);
        expect(header(error, 'content-type')).to.equal('text/plain');
        expect(bodyOf(error).length).to.be.greaterThan(0);
        expect(Number(header(error, 'content-length'))).to.equal(error.body.length);
        if (frames.includes('receipt:r9')) expect(header(error, 'receipt-id')).to.equal('r9');
        expect(await c.closed).to.equal(1000);
      });
    }

    it('answers a duplicate subscription id and the subscription limit with ERROR frames', async () => {
      const dup = await open();
      await dup.connect();
      dup.send(`SUBSCRIBE\nid:same\ndestination:/topic/simulations/${known}\n\n\0SUBSCRIBE\nid:same\ndestination:/topic/simulations/${known}\n\n\0`);
      expect(header(await dup.next('ERROR'), 'message')).to.match(/duplicate subscription id same/);

      // Finished subscriptions do not count against the limit; running ones do.
      const running = await h.submitBuck(0.3);
      const c = await open();
      await c.connect();
      for (let i = 0; i < 3; i++) c.send(`SUBSCRIBE\nid:s${i}\ndestination:/topic/simulations/${running.id}\nreceipt:${i}\n\n\0`);
      for (let i = 0; i < 3; i++) await c.next('RECEIPT');
      c.send(`SUBSCRIBE\nid:s3\ndestination:/topic/simulations/${running.id}\n\n\0`);
      const error = await c.next('ERROR');
      expect(header(error, 'message')).to.equal('too many subscriptions (limit 3 per connection)');
      await h.waitFinished(running.id);
    });

    it('reassembles frames split across WebSocket messages and packed into one', async () => {
      const c = await open();
      const connect = 'CONNECT\naccept-version:1.2\n\n\0';
      for (const ch of connect) c.send(ch);
      await c.next('CONNECTED');
      c.send(`SUBSCRIBE\nid:a\ndestination:/topic/simulations/${known}\nreceipt:1\n\n\0SUBSCRIBE\r\nid:b\r\ndestination:/topic/simulations/${known}\r\nreceipt:2\r\n\r\n\0\n`);
      expect(header(await c.next('RECEIPT'), 'receipt-id')).to.equal('1');
      expect(header(await c.next('RECEIPT'), 'receipt-id')).to.equal('2');
      const subscriptions = [header(await c.next('MESSAGE'), 'subscription'), header(await c.next('MESSAGE'), 'subscription')];
      expect(subscriptions).to.have.members(['a', 'b']);
    });
  });

  describe('heart-beats', () => {
    it('sends heart-beats at the negotiated interval and closes a silent client with an ERROR', async () => {
      const c = await open();
      const connected = await c.connect('accept-version:1.2\nheart-beat:100,100');
      expect(header(connected, 'heart-beat')).to.equal('100,100');
      const error = await c.next('ERROR');
      expect(header(error, 'message')).to.equal('heart-beat timeout');
      expect(bodyOf(error)).to.match(/the negotiated interval is 100 ms/);
      expect(c.heartbeats).to.be.greaterThan(0);
      expect(await c.closed).to.equal(1000);
    });

    it('keeps a client that sends heart-beats connected', async () => {
      const c = await open();
      await c.connect('accept-version:1.1\nheart-beat:100,0');
      const beat = setInterval(() => c.send('\n'), 40);
      await new Promise((r) => setTimeout(r, 1000)); // four times the silence allowed (100 + 150 ms)
      clearInterval(beat);
      expect(c.ws.readyState).to.equal(WebSocket.OPEN);
      c.send('DISCONNECT\nreceipt:done\n\n\0');
      expect(header(await c.next('RECEIPT'), 'receipt-id')).to.equal('done');
      expect(c.frames.filter((f) => f.command === 'ERROR')).to.have.length(0);
      expect(c.heartbeats).to.equal(0); // the client asked for none (cy = 0)
    });
  });

  it('leaves upgrades of other paths to their own handlers', async () => {
    const other = new WebSocketServer({ noServer: true });
    other.on('connection', (ws) => ws.send('from the other endpoint'));
    const onUpgrade = (req: import('node:http').IncomingMessage, socket: import('node:stream').Duplex, head: Buffer): void => {
      if (req.url === '/other') other.handleUpgrade(req, socket, head, (ws) => other.emit('connection', ws, req));
    };
    h.server.on('upgrade', onUpgrade);
    try {
      const ws = new WebSocket(`ws://127.0.0.1:${h.port}/other`);
      const first = await new Promise<string>((resolve, reject) => {
        ws.once('message', (data) => resolve(String(data)));
        ws.once('error', reject);
      });
      expect(first).to.equal('from the other endpoint');
      ws.terminate();
      const c = await open();
      expect((await c.connect()).command).to.equal('CONNECTED');
    } finally {
      h.server.off('upgrade', onUpgrade);
      other.close();
    }
  });
});
