// The simulation service as `pesim serve` starts it (src/http/server.ts with the realtime layer
// attached): the SSE stream and a STOMP subscription (over /ws-raw and over SockJS /ws) of one run
// carry identical message sequences, the same JSON fed at the same time, ending with COMPLETED.
import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSimulationService, type SimulationServiceHandle } from '../../../src/server/server.js';
import type { ProgressMessage } from '../../../src/simulations/ProgressPresenter.js';
import { buck } from '../../fixtures/circuits.js';
import { collect, stompClient } from './harness.js';

const circuitFileOf = (netlist: object): string => Buffer.from(JSON.stringify(netlist)).toString('base64');

interface Numbered {
  seq: number;
  message: ProgressMessage;
}

function parseSse(text: string): Numbered[] {
  return text.split('\n\n').filter((block) => block.includes('data: ')).map((block) => {
    const id = /^id: (\d+)$/m.exec(block)![1];
    const data = /^data: (.*)$/m.exec(block)![1];
    return { seq: Number(id), message: JSON.parse(data) as ProgressMessage };
  });
}

describe('realtime: SSE and STOMP carry the same messages', function () {
  this.timeout(60_000);
  let handle: SimulationServiceHandle;
  let dataDir: string;
  before(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'pesim-parity-'));
    handle = await startSimulationService({ port: 0, host: '127.0.0.1', dataDir, logLevel: 'silent', maxConcurrent: 1, cacheEnabled: false });
  });
  after(async () => {
    await handle.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const submit = async (netlist: object): Promise<string> => {
    const response = await fetch(`${handle.url}/api/v1/simulations`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ circuitFile: circuitFileOf(netlist) }) });
    expect(response.status).to.equal(202);
    return ((await response.json()) as { simulationId: string }).simulationId;
  };

  it('one run: the SSE events and the STOMP MESSAGE frames are identical, in order', async () => {
    const port = Number(new URL(handle.url).port);
    // A long run holds the only worker, so every stream subscribes while the run under test is
    // still queued; cancelling the blocker then starts it.
    const blocker = await submit(buck({ tEnd: 5, dt: 1e-7 }));
    const id = await submit(buck({ tEnd: 0.3, dt: 1e-7 }));
    const raw = await stompClient(port, { kind: 'raw' });
    const sockjs = await stompClient(port, { kind: 'sockjs', transports: ['websocket'] });
    try {
      const viaRaw = collect(raw, id);
      const viaSockjs = collect(sockjs, id);
      const sse = await fetch(`${handle.url}/api/v1/simulations/${id}/stream`);
      expect(sse.headers.get('content-type')).to.match(/^text\/event-stream/);
      const sseText = sse.text();
      // Receipts prove both subscriptions are registered before the run can start.
      await Promise.all([raw, sockjs].map((client, i) => new Promise<void>((resolve) => {
        client.watchForReceipt(`ready-${i}`, () => resolve());
        client.subscribe('/topic/simulations/' + blocker, () => undefined, { receipt: `ready-${i}` });
      })));
      expect((await fetch(`${handle.url}/api/v1/simulations/${blocker}`, { method: 'DELETE' })).status).to.equal(200);

      const sseMessages = parseSse(await sseText);
      await Promise.all([viaRaw.finished, viaSockjs.finished]);
      const stompSeqs = viaRaw.frames.map((f) => Number(f.headers['message-id'].slice(id.length + 1)));

      expect(sseMessages.length).to.be.greaterThan(3);
      expect(sseMessages[0].message.status).to.equal('QUEUED');
      expect(sseMessages.at(-1)!.message).to.include({ status: 'COMPLETED', progress: 100, simulationId: id });
      expect(stompSeqs).to.deep.equal(sseMessages.map((m) => m.seq));
      expect(viaRaw.messages).to.deep.equal(sseMessages.map((m) => m.message));
      expect(viaSockjs.messages).to.deep.equal(viaRaw.messages);
    } finally {
      await raw.deactivate();
      await sockjs.deactivate();
    }
  });

  it('a subscription to an id the service does not know gets an ERROR frame', async () => {
    const port = Number(new URL(handle.url).port);
    const client = await stompClient(port, { kind: 'raw' });
    const error = new Promise<string>((resolve) => (client.onStompError = (frame) => resolve(frame.headers.message)));
    client.subscribe('/topic/simulations/not-a-simulation', () => undefined);
    expect(await error).to.match(/unknown destination .*no simulation not-a-simulation/);
    await client.deactivate();
  });
});
