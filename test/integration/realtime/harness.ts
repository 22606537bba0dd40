// Test set-up of the realtime endpoints on real components: a job runtime in a temporary
// directory (real store, scheduler and embedded executor), a ProgressHub fed by its bus, a plain
// http.Server on 127.0.0.1:0 with attachRealtime, plus real protocol clients: @stomp/stompjs over
// `ws` (/ws-raw) and over sockjs-client (/ws), and a raw `ws` client for hand-made frames.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, type IMessage, type StompSubscription } from '@stomp/stompjs';
import SockJS from 'sockjs-client';
import { WebSocket } from 'ws';
import { createRuntime, defaultRuntimeSettings, type Runtime } from '../../../src/jobs/runtime.js';
import type { TaskRecord } from '../../../src/jobs/types.js';
import { attachRealtimeDeferred, type DeferredRealtime } from '../../../src/realtime/deferred.js';
import { attachRealtime, type Realtime, type RealtimeOptions } from '../../../src/realtime/index.js';
import { header, type StompFrame } from '../../../src/realtime/stomp/frame.js';
import { StompParser } from '../../../src/realtime/stomp/parser.js';
import { ProgressHub } from '../../../src/simulations/progress-hub.js';
import type { ProgressMessage } from '../../../src/simulations/ProgressPresenter.js';
import { buck } from '../../fixtures/circuits.js';

export interface RealtimeHarness {
  runtime: Runtime;
  hub: ProgressHub;
  server: Server;
  realtime: Realtime;
  port: number;
  /** Submits a buck long enough for several progress messages (tEnd 0.3 s: about 3 M steps). */
  submitBuck(tEnd?: number): Promise<TaskRecord>;
  waitFinished(id: string): Promise<TaskRecord>;
  dispose(): Promise<void>;
}

export interface HarnessOptions extends Omit<RealtimeOptions, 'hub' | 'lookup'> {
  /** Attach through attachRealtimeDeferred (as `pesim serve` does): the endpoints load on first use. */
  deferred?: boolean;
}

export async function startHarness(options: HarnessOptions = {}): Promise<RealtimeHarness & { deferred?: DeferredRealtime }> {
  const dir = mkdtempSync(join(tmpdir(), 'pesim-realtime-'));
  const settings = defaultRuntimeSettings(dir);
  settings.maxConcurrentSimulations = 2;
  settings.cache.enabled = false; // every run really runs, so it has progress to report
  settings.scheduler.progressIntervalMs = 50;
  settings.scheduler.retryAttempts = 0; // a failing run shows at once instead of after back-offs
  const runtime = createRuntime(settings);
  const hub = new ProgressHub(runtime.events, (id) => runtime.scheduler.get(id));
  const server = createServer((_req, res) => {
    res.statusCode = 404;
    res.end('not found');
  });
  const { deferred: useDeferred, ...realtimeOptions } = options;
  const attach = useDeferred ? attachRealtimeDeferred : attachRealtime;
  const realtime = attach(server, { ...realtimeOptions, hub, lookup: (id) => runtime.scheduler.get(id) });
  const deferred = useDeferred ? (realtime as DeferredRealtime) : undefined;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    runtime, hub, server, realtime, port, deferred,
    submitBuck: (tEnd = 0.3) => runtime.scheduler.submit({ owner: 'simulation', priority: 'NORMAL', spec: { netlist: buck({ tEnd }), parameters: {} }, request: {}, modelName: 'buck' }),
    waitFinished: (id) => waitFinished(runtime, id),
    async dispose() {
      await realtime.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      hub.close();
      await runtime.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function waitFinished(runtime: Runtime, id: string): Promise<TaskRecord> {
  return new Promise((resolve, reject) => {
    const done = (t: TaskRecord): boolean => t.state === 'completed' || t.state === 'failed' || t.state === 'cancelled';
    const current = runtime.scheduler.get(id);
    if (done(current)) return resolve(current);
    const timer = setTimeout(() => reject(new Error(`simulation ${id} did not finish`)), 60_000);
    const listener = (t: TaskRecord): void => {
      if (t.id !== id || !done(t)) return;
      clearTimeout(timer);
      runtime.events.off('state', listener);
      resolve(t);
    };
    runtime.events.on('state', listener);
  });
}

export type Endpoint = { kind: 'raw' } | { kind: 'sockjs'; transports?: string[] };

/** A connected @stomp/stompjs client (no reconnect) over /ws-raw or /ws. */
export async function stompClient(port: number, endpoint: Endpoint, connectHeaders: Record<string, string> = {}): Promise<Client> {
  const client = new Client({
    webSocketFactory: () => (endpoint.kind === 'raw'
      ? new WebSocket(`ws://127.0.0.1:${port}/ws-raw`, ['v12.stomp', 'v11.stomp', 'v10.stomp'])
      : new SockJS(`http://127.0.0.1:${port}/ws`, undefined, { transports: endpoint.transports, timeout: 20_000 })),
    connectHeaders,
    reconnectDelay: 0,
    heartbeatIncoming: 0,
    heartbeatOutgoing: 0,
    debug: () => undefined,
  });
  await new Promise<void>((resolve, reject) => {
    client.onConnect = () => resolve();
    client.onStompError = (frame) => reject(new Error(`STOMP error: ${frame.headers.message}`));
    client.onWebSocketClose = (event: { code?: number; reason?: string }) => reject(new Error(`closed before CONNECTED (${event.code} ${event.reason})`));
    client.activate();
  });
  return client;
}

export interface Collected {
  messages: ProgressMessage[];
  frames: IMessage[];
  /** Resolves with the messages once the final one (a finished state) has arrived. */
  finished: Promise<ProgressMessage[]>;
  subscription: StompSubscription;
}

export const FINAL_STATUSES = ['COMPLETED', 'FAILED', 'CANCELLED'];

/** Subscribes to a simulation's topic and collects its progress messages until the final one. */
export function collect(client: Client, simulationId: string, headers: Record<string, string> = {}): Collected {
  const messages: ProgressMessage[] = [];
  const frames: IMessage[] = [];
  let resolveFinished!: (m: ProgressMessage[]) => void;
  const finished = new Promise<ProgressMessage[]>((resolve) => (resolveFinished = resolve));
  const subscription = client.subscribe(`/topic/simulations/${simulationId}`, (frame) => {
    frames.push(frame);
    const message = JSON.parse(frame.body) as ProgressMessage;
    messages.push(message);
    if (FINAL_STATUSES.includes(message.status)) resolveFinished(messages);
  }, headers);
  return { messages, frames, finished, subscription };
}

/** A raw WebSocket client on /ws-raw that sends hand-made frames and reads the server's frames. */
export class RawClient {
  readonly frames: StompFrame[] = [];
  heartbeats = 0;
  readonly closed: Promise<number>;
  private readonly parser = new StompParser({ maxFrameBytes: 16 * 1024 * 1024 });
  private waiters: (() => void)[] = [];

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data: Buffer) => {
      for (const item of this.parser.push(data)) {
        if (item.kind === 'heartbeat') this.heartbeats++;
        else {
          if (item.frame.command === 'CONNECTED') this.parser.version = (header(item.frame, 'version') ?? '1.0') as StompParser['version'];
          this.frames.push(item.frame);
        }
      }
      this.notify();
    });
    this.closed = new Promise((resolve) => ws.on('close', (code) => {
      resolve(code);
      this.notify();
    }));
  }

  static async open(port: number, path = '/ws-raw'): Promise<RawClient> {
    const ws = new WebSocket(`ws://127.0.0.1:${port}${path}`);
    const client = new RawClient(ws); // listening before 'open': a refusal may arrive with the handshake
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    return client;
  }

  send(data: string | Buffer): void {
    this.ws.send(data);
  }

  /** Resolves with the first received frame of that command (waits for it), or rejects if the socket closes first. */
  async next(command: string, timeoutMs = 10_000): Promise<StompFrame> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const index = this.frames.findIndex((f) => f.command === command);
      if (index >= 0) return this.frames.splice(index, 1)[0];
      if (this.ws.readyState === WebSocket.CLOSED) throw new Error(`closed without a ${command} frame (got ${this.frames.map((f) => f.command).join(', ') || 'nothing'})`);
      if (Date.now() > deadline) throw new Error(`no ${command} frame`);
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 200);
      });
    }
  }

  async connect(headers = 'accept-version:1.2'): Promise<StompFrame> {
    this.send(`CONNECT\n${headers}\n\n\0`);
    return this.next('CONNECTED');
  }

  close(): void {
    this.ws.terminate();
  }

  private notify(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w();
  }
}

export const bodyOf = (frame: StompFrame): string => frame.body.toString('utf8');
