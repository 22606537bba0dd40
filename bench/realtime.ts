// Realtime benchmark: STOMP frame parsing throughput, and fan-out of progress messages to many
// STOMP subscribers over /ws-raw (real `ws` clients on loopback, fed by a real ProgressHub on a
// task event bus): messages delivered per second and the time until every subscriber has the
// final message. Returns table lines for bench/run.ts.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocket } from 'ws';
import { TaskEvents } from '../src/jobs/events.js';
import type { TaskRecord } from '../src/jobs/types.js';
import { attachRealtime } from '../src/realtime/index.js';
import { StompParser } from '../src/realtime/stomp/parser.js';
import { ProgressHub } from '../src/simulations/progress-hub.js';
import { buck } from '../test/fixtures/circuits.js';

function parseThroughput(): string {
  const frame = Buffer.from('MESSAGE\nsubscription:s-1\nmessage-id:abc-17\ndestination:/topic/simulations/abc\ncontent-type:application/json\ncontent-length:20\n\n{"progress":42.5000}\0');
  const packed = Buffer.concat(Array.from({ length: 100 }, () => frame));
  const parser = new StompParser({ maxFrameBytes: 1 << 20 });
  parser.version = '1.2';
  const rounds = 2000;
  const started = process.hrtime.bigint();
  let frames = 0;
  for (let i = 0; i < rounds; i++) frames += parser.push(packed).length;
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  return `| parser: 100 packed MESSAGE frames per chunk | ${frames} frames | ${(seconds * 1000).toFixed(0)} ms | ${(frames / seconds / 1e6).toFixed(2)} M frames/s, ${((packed.length * rounds) / seconds / 2 ** 20).toFixed(0)} MiB/s |`;
}

function task(id: string, state: TaskRecord['state'], step: number): TaskRecord {
  return {
    id, owner: 'simulation', priority: 'NORMAL', state, spec: { netlist: buck({ tEnd: 0.1 }), parameters: {} }, request: {},
    batchId: null, submittedAt: new Date().toISOString(), startedAt: null, completedAt: null, attempts: 1, errorCode: null, errorMessage: null,
    cacheHit: false, cacheKey: null, runMs: null, retryAt: null,
    progress: { phase: 'main', step, totalSteps: 1_000_000, time: step * 1e-7, percent: step / 10_000, estimatedRemainingMs: null },
    summary: null,
  };
}

async function fanOut(subscribers: number, events: number): Promise<string> {
  const bus = new TaskEvents();
  let current = task('bench', 'running', 1);
  const hub = new ProgressHub(bus, () => current);
  const server = createServer();
  const realtime = attachRealtime(server, { hub, lookup: () => current, settings: { limits: { maxConnections: subscribers + 10, maxBufferedBytes: 64 * 2 ** 20 } } });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  let received = 0;
  const finals: Promise<void>[] = [];
  const sockets: WebSocket[] = [];
  for (let i = 0; i < subscribers; i++) {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/ws-raw`);
    sockets.push(ws);
    await new Promise((resolve) => ws.once('open', resolve));
    const ready = new Promise((resolve) => ws.once('message', resolve)); // CONNECTED
    finals.push(new Promise<void>((resolve) => ws.on('message', (data: Buffer) => {
      const text = data.toString();
      if (text.startsWith('MESSAGE')) received++;
      if (text.includes('"COMPLETED"')) resolve();
    })));
    ws.send('CONNECT\naccept-version:1.2\n\n\0SUBSCRIBE\nid:s\ndestination:/topic/simulations/bench\nreceipt:r\n\n\0');
    await ready;
  }
  while (realtime.stats().subscriptions < subscribers) await new Promise((r) => setTimeout(r, 5));
  received = 0;
  const started = process.hrtime.bigint();
  for (let i = 1; i <= events; i++) {
    current = task('bench', i === events ? 'completed' : 'running', i * 1000);
    bus.emit('progress', current, current.progress!);
    if (i % 50 === 0) await new Promise((r) => setImmediate(r)); // let the sockets drain, as the 100 ms progress interval would
  }
  await Promise.all(finals);
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  for (const ws of sockets) ws.terminate();
  await realtime.close();
  server.close();
  hub.close();
  return `| fan-out: ${events} progress events × ${subscribers} STOMP subscribers (/ws-raw, loopback) | ${received} MESSAGE frames | ${(seconds * 1000).toFixed(0)} ms | ${(received / seconds / 1000).toFixed(0)} k frames/s delivered |`;
}

export async function benchSection(): Promise<string[]> {
  return [
    '| realtime case | work | wall | rate |',
    '|---|---|---|---|',
    parseThroughput(),
    await fanOut(200, 200),
    await fanOut(1000, 50),
  ];
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop()!)) {
  for (const line of await benchSection()) console.log(line);
}
