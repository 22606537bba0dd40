// The job-queue WebSocket at /ws (spec §6), on the service's own http.Server: a client sends
// {action: "subscribe" | "unsubscribe", task_id} and receives {type: "update", task_id, status,
// progress} messages driven by the job runtime's event bus — the current state at once, then every
// change, progress a non-decreasing fraction 0–1, the last message in a final state. An unknown task
// or a malformed message gets {type: "error", error_code, detail}; the socket stays open.
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import type { TaskEvents } from '../jobs/events.js';
import { FINAL_STATES, type TaskProgress, type TaskRecord } from '../jobs/types.js';
import { ApiKeys } from './access.js';
import type { JobStatus } from './models.js';
import { JOBQ_OWNER } from './service.js';
import { statusOf } from './TaskPresenter.js';

export type ServerMessage =
  | { type: 'update'; task_id: string; status: JobStatus; progress: number }
  | { type: 'unsubscribed'; task_id: string }
  | { type: 'error'; error_code: string; detail: string; task_id?: string };

/** Above this many bytes waiting to be sent, progress-only updates to that client are skipped. */
const MAX_BUFFERED = 1 << 20;

interface Subscription {
  status: JobStatus | undefined;
  progress: number;
}

function fractionOf(progress: TaskProgress | null): number {
  if (!progress) return 0;
  if (progress.phase === 'done') return 1;
  return progress.phase === 'main' ? Math.min(1, Math.max(0, progress.percent / 100)) : 0;
}

export class TaskUpdatesSocket {
  private readonly wss = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024 });
  private readonly subscribers = new Map<string, Map<WebSocket, Subscription>>();
  private readonly onState = (task: TaskRecord): void => this.publish(task, task.progress, true);
  private readonly onProgress = (task: TaskRecord, progress: TaskProgress): void => this.publish(task, progress, false);
  private readonly onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer): void => this.upgrade(request, socket, head);

  constructor(
    private readonly server: Server,
    private readonly events: TaskEvents,
    private readonly lookup: (id: string) => TaskRecord | undefined,
    private readonly keys: ApiKeys,
  ) {
    events.on('state', this.onState);
    events.on('progress', this.onProgress);
    server.on('upgrade', this.onUpgrade);
    this.wss.on('connection', (ws) => this.accept(ws));
  }

  private upgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void {
    const path = new URL(request.url ?? '/', 'http://localhost').pathname;
    if (path !== '/ws') {
      socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    if (this.keys.enabled && !this.keys.accepts(ApiKeys.keyOf(request))) {
      socket.end('HTTP/1.1 401 Unauthorized\r\nWWW-Authenticate: Bearer\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    this.wss.handleUpgrade(request, socket, head, (ws) => this.wss.emit('connection', ws, request));
  }

  private accept(ws: WebSocket): void {
    ws.on('message', (data, isBinary) => this.receive(ws, data, isBinary));
    ws.on('close', () => {
      for (const [id, clients] of this.subscribers) {
        clients.delete(ws);
        if (clients.size === 0) this.subscribers.delete(id);
      }
    });
    ws.on('error', () => ws.terminate());
  }

  private receive(ws: WebSocket, data: RawData, isBinary: boolean): void {
    let message: unknown;
    try {
      if (isBinary) throw new Error('binary frame');
      message = JSON.parse(data.toString());
    } catch {
      return this.send(ws, { type: 'error', error_code: 'VALIDATION_ERROR', detail: 'Messages must be JSON text: {"action": "subscribe", "task_id": "..."}' });
    }
    const { action, task_id: id } = (typeof message === 'object' && message !== null ? message : {}) as { action?: unknown; task_id?: unknown };
    if ((action !== 'subscribe' && action !== 'unsubscribe') || typeof id !== 'string' || id === '') {
      return this.send(ws, { type: 'error', error_code: 'VALIDATION_ERROR', detail: 'Expected {"action": "subscribe" | "unsubscribe", "task_id": "<task id>"}' });
    }
    if (action === 'unsubscribe') {
      this.subscribers.get(id)?.delete(ws);
      return this.send(ws, { type: 'unsubscribed', task_id: id });
    }
    const task = this.lookup(id);
    if (!task || task.owner !== JOBQ_OWNER) return this.send(ws, { type: 'error', error_code: 'TASK_NOT_FOUND', detail: `Simulation task ${id} not found`, task_id: id });
    const subscription: Subscription = { status: undefined, progress: 0 };
    let clients = this.subscribers.get(id);
    if (!clients) this.subscribers.set(id, (clients = new Map()));
    clients.set(ws, subscription);
    this.deliver(ws, subscription, task, task.progress, true);
  }

  private publish(task: TaskRecord, progress: TaskProgress | null, isStateChange: boolean): void {
    const clients = this.subscribers.get(task.id);
    if (!clients) return;
    for (const [ws, subscription] of clients) this.deliver(ws, subscription, task, progress, isStateChange);
  }

  private deliver(ws: WebSocket, subscription: Subscription, task: TaskRecord, progress: TaskProgress | null, isStateChange: boolean): void {
    const status = statusOf(task);
    const final = FINAL_STATES.includes(task.state);
    const fraction = Math.max(subscription.progress, task.state === 'completed' ? 1 : fractionOf(progress));
    if (status === subscription.status && fraction === subscription.progress) return;
    if (!isStateChange && !final && ws.bufferedAmount > MAX_BUFFERED) return;
    subscription.status = status;
    subscription.progress = fraction;
    this.send(ws, { type: 'update', task_id: task.id, status, progress: fraction });
    if (final) {
      const clients = this.subscribers.get(task.id);
      clients?.delete(ws);
      if (clients?.size === 0) this.subscribers.delete(task.id);
    }
  }

  private send(ws: WebSocket, message: ServerMessage): void {
    if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(message));
  }

  close(): void {
    this.events.off('state', this.onState);
    this.events.off('progress', this.onProgress);
    this.server.off('upgrade', this.onUpgrade);
    for (const ws of this.wss.clients) ws.close(1001, 'server shutting down');
    this.wss.close();
  }
}
