// Progress over server-sent events, read with the `eventsource` package (the EventSource API of
// browsers): messages until COMPLETED with increasing ids, the end of the stream and the 204 that
// stops an EventSource from reconnecting; resumption with Last-Event-ID without gaps; heart-beat
// comments while a run is paused; the PAUSED message with the progress the run has reached; the final
// CANCELLED message.
import { expect } from 'chai';
import { EventSource } from 'eventsource';
import type { ProgressMessage } from '../../../src/simulations/ProgressPresenter.js';
import { buck } from '../../fixtures/circuits.js';
import { circuitFileOf, startHarness, type Harness } from './harness.js';

interface Received {
  id: string;
  message: ProgressMessage;
}

/** Parses an event-stream body into (id, data) pairs and comments. */
function parseEvents(text: string): { events: Received[]; comments: string[] } {
  const events: Received[] = [];
  const comments: string[] = [];
  for (const block of text.split('\n\n')) {
    let id = '';
    let data = '';
    for (const line of block.split('\n')) {
      if (line.startsWith(':')) comments.push(line.slice(1).trim());
      else if (line.startsWith('id: ')) id = line.slice(4);
      else if (line.startsWith('data: ')) data += line.slice(6);
    }
    if (data) events.push({ id, message: JSON.parse(data) as ProgressMessage });
  }
  return { events, comments };
}

describe('simulation service: server-sent events', function () {
  this.timeout(60_000);
  let h: Harness;
  before(async () => {
    h = await startHarness({ maxConcurrent: 1, cacheEnabled: false, sseHeartbeatSeconds: 1 });
  });
  after(async () => h.close());

  it('streams progress until COMPLETED, then ends; a reconnect after the end gets 204 and stops', async () => {
    // 4e6 steps: several progress updates at the 100 ms interval.
    const id = (await h.client.post<{ simulationId: string }>('/api/v1/simulations', { circuitFile: circuitFileOf(buck({ tEnd: 0.4, dt: 1e-7 })) })).body.simulationId;
    const received: Received[] = [];
    const requests: (string | null)[] = [];
    const es = new EventSource(`${h.baseUrl}/api/v1/simulations/${id}/stream`, {
      fetch: (url, init) => {
        requests.push(new Headers(init?.headers as HeadersInit).get('last-event-id'));
        return fetch(url, init);
      },
    });
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no end of stream; got ${received.length} messages, last ${JSON.stringify(received.at(-1))}, requests ${JSON.stringify(requests)}, state ${es.readyState}`)), 20_000);
      es.onmessage = (e) => received.push({ id: e.lastEventId, message: JSON.parse(e.data) as ProgressMessage });
      es.onerror = () => {
        // The server ended the stream: the EventSource reconnects with Last-Event-ID, gets 204, closes.
        if (es.readyState === EventSource.CLOSED) {
          clearTimeout(timer);
          resolve();
        }
      };
    });
    es.close();
    expect(received.length).to.be.at.least(2);
    const ids = received.map((r) => Number(r.id));
    expect(ids).to.deep.equal(ids.map((_, i) => ids[0] + i)); // consecutive, no gaps
    const last = received[received.length - 1].message;
    expect(last).to.include({ simulationId: id, status: 'COMPLETED', progress: 100, step: 4e6, totalSteps: 4e6, endTime: 0.4, currentTime: 0.4, errorMessage: null });
    const progress = received.map((r) => r.message.progress);
    expect(progress).to.deep.equal([...progress].sort((a, b) => a - b)); // never goes back
    expect(received.slice(0, -1).every((r) => ['QUEUED', 'RUNNING'].includes(r.message.status))).to.equal(true);
    expect(requests[0]).to.equal(null);
    expect(requests[requests.length - 1]).to.equal(String(ids[ids.length - 1]));

    // A new client without Last-Event-ID gets the final message and the end.
    const fresh = parseEvents(await (await fetch(`${h.baseUrl}/api/v1/simulations/${id}/stream`)).text());
    expect(fresh.events.map((e) => e.message.status)).to.deep.equal(['COMPLETED']);
  });

  it('resumes with Last-Event-ID: the messages after that id, exactly, and no others', async () => {
    // A run far longer than the test: it is cancelled once four messages have arrived, so the
    // stream always holds enough messages, however fast the machine.
    const id = (await h.client.post<{ simulationId: string }>('/api/v1/simulations', { circuitFile: circuitFileOf(buck({ tEnd: 5, dt: 1e-7 })) })).body.simulationId;
    const response = await fetch(`${h.baseUrl}/api/v1/simulations/${id}/stream`);
    const reader = response.body!.getReader();
    let text = '';
    let cancelled = false;
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      text += new TextDecoder().decode(value);
      if (!cancelled && parseEvents(text).events.length >= 4) {
        cancelled = true;
        expect((await h.client.delete(`/api/v1/simulations/${id}`)).status).to.equal(200);
      }
    }
    const received = parseEvents(text).events;
    expect(received.length).to.be.at.least(5);
    expect(received.at(-1)!.message.status).to.equal('CANCELLED');
    const resumed = await fetch(`${h.baseUrl}/api/v1/simulations/${id}/stream`, { headers: { 'Last-Event-ID': received[1].id } });
    expect(resumed.status).to.equal(200);
    const { events } = parseEvents(await resumed.text());
    expect(events.map((e) => e.id)).to.deep.equal(received.slice(2).map((r) => r.id));
    expect(events.map((e) => e.message)).to.deep.equal(received.slice(2).map((r) => r.message));
  });

  it('carries the progress the run reached in its PAUSED message, as /progress reports it', async () => {
    const id = (await h.client.post<{ simulationId: string }>('/api/v1/simulations', { circuitFile: circuitFileOf(buck({ tEnd: 1.5, dt: 1e-7 })) })).body.simulationId;
    type Details = { mainSimProgress: number };
    // Past the first stored progress (the store keeps it at most once a second), well into the run.
    for (let t = Date.now(); (await h.client.get<Details>(`/api/v1/simulations/${id}/progress`)).body.mainSimProgress < 3;) {
      if (Date.now() - t > 30_000) throw new Error('the run did not reach 3 %');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect((await h.client.post(`/api/v1/simulations/${id}/pause`)).status).to.equal(200);
    // The engine stops at its next check of the pause flag: wait until the step no longer moves.
    let reached = -1;
    for (let before = NaN; reached !== before;) {
      before = reached;
      await new Promise((resolve) => setTimeout(resolve, 300));
      reached = (await h.client.get<Details>(`/api/v1/simulations/${id}/progress`)).body.mainSimProgress;
    }
    const response = await fetch(`${h.baseUrl}/api/v1/simulations/${id}/stream`);
    const reader = response.body!.getReader();
    let text = '';
    while (parseEvents(text).events.length === 0) text += new TextDecoder().decode((await reader.read()).value);
    await reader.cancel();
    const [paused] = parseEvents(text).events;
    expect(paused.message.status).to.equal('PAUSED');
    expect(paused.message.progress).to.be.closeTo(reached, 0.5);
    expect((await h.client.delete(`/api/v1/simulations/${id}`)).status).to.equal(200);
  });

  it('sends heart-beat comments while paused and the CANCELLED message at the end', async () => {
    const id = (await h.client.post<{ simulationId: string }>('/api/v1/simulations', { circuitFile: circuitFileOf(buck({ tEnd: 1.5, dt: 1e-7 })) })).body.simulationId;
    await h.client.waitForState(id, 'running');
    expect((await h.client.post(`/api/v1/simulations/${id}/pause`)).status).to.equal(200);
    const response = await fetch(`${h.baseUrl}/api/v1/simulations/${id}/stream`);
    expect(response.headers.get('content-type')).to.match(/^text\/event-stream/);
    expect(response.headers.get('cache-control')).to.contain('no-cache');
    const reader = response.body!.getReader();
    let text = '';
    while (!text.includes(': heartbeat')) {
      const { value, done } = await reader.read();
      if (done) throw new Error(`stream ended early: ${text}`);
      text += new TextDecoder().decode(value);
    }
    // PAUSED, and again with the steps the engine made before it stopped, if any.
    expect(new Set(parseEvents(text).events.map((e) => e.message.status))).to.deep.equal(new Set(['PAUSED']));
    expect((await h.client.delete(`/api/v1/simulations/${id}`)).status).to.equal(200);
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      text += new TextDecoder().decode(value);
    }
    const { events, comments } = parseEvents(text);
    expect(comments).to.include('heartbeat');
    expect(events[events.length - 1].message).to.include({ status: 'CANCELLED', errorMessage: null });
  });
});
