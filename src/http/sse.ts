// Server-sent events of a sequenced message source (the simulation service's progress stream, GET
// /simulations/{id}/stream): one `data:` message per update with `id:` = its sequence number, the
// final message and then the end of the response; a `: heartbeat` comment every heartbeatMs keeps
// proxies from closing an idle stream. `Last-Event-ID` (header, or query lastEventId for clients
// that cannot set headers) resumes after that message without gaps. A client reconnecting after the
// final message gets 204, which tells an EventSource to stop reconnecting.
import { PassThrough } from 'node:stream';
import type { Context } from 'koa';

/** One message of a stream: increasing `seq` from 1, `final` on the last one. */
export interface SequencedEvent {
  seq: number;
  message: unknown;
  final: boolean;
}

/** What the stream reads from: delivers the messages after `afterSeq` (or the latest) and every later one. */
export interface SequencedSource {
  subscribe(id: string, listener: (entry: SequencedEvent) => void, afterSeq?: number): { close(): void };
}

export interface SseOptions {
  source: SequencedSource;
  /** The stream's id in the source (a simulation id). */
  streamId: string;
  /** Sequence number of the last message the client has. */
  lastEventId?: number;
  /** Whether the stream has ended at its source (decides 204 when nothing is left to send). */
  finished: () => boolean;
  heartbeatMs: number;
  /** Registry of open streams, ended when the service closes. */
  openStreams: Set<() => void>;
}

export function formatEvent(entry: SequencedEvent): string {
  return `id: ${entry.seq}\ndata: ${JSON.stringify(entry.message)}\n\n`;
}

/** Parses a Last-Event-ID value; undefined when absent or not a sequence number. */
export function parseLastEventId(raw: string | undefined): number | undefined {
  if (raw === undefined || !/^\d{1,15}$/.test(raw.trim())) return undefined;
  return Number(raw.trim());
}

/** Sets up the response on `ctx`; returns the body stream, or undefined for 204. */
export function openEventStream(ctx: Context, options: SseOptions): PassThrough | undefined {
  // The hub delivers the backlog synchronously inside subscribe(); it is collected first and
  // written once the response is set up.
  const backlog: SequencedEvent[] = [];
  let deliver = (entry: SequencedEvent): void => void backlog.push(entry);
  const subscription = options.source.subscribe(options.streamId, (entry) => deliver(entry), options.lastEventId);
  if (backlog.length === 0 && options.finished()) {
    // Everything up to the final message was delivered before: nothing more will come.
    subscription.close();
    return undefined;
  }

  const stream = new PassThrough();
  let ended = false;
  const end = (): void => {
    if (ended) return;
    ended = true;
    clearInterval(heartbeat);
    subscription.close();
    options.openStreams.delete(end);
    stream.end();
  };
  const heartbeat = setInterval(() => {
    if (!ended) stream.write(': heartbeat\n\n');
  }, options.heartbeatMs);
  heartbeat.unref();
  options.openStreams.add(end);
  ctx.req.once('close', end);

  ctx.req.socket.setTimeout(0);
  ctx.req.socket.setNoDelay(true);
  ctx.set('Cache-Control', 'no-cache, no-transform');
  ctx.set('Connection', 'keep-alive');
  ctx.set('X-Accel-Buffering', 'no');
  ctx.type = 'text/event-stream; charset=utf-8';

  deliver = (entry) => {
    if (ended) return;
    stream.write(formatEvent(entry));
    if (entry.final) end();
  };
  stream.write('retry: 2000\n\n');
  for (const entry of backlog) deliver(entry);
  return stream;
}
