// The WebSocket/STOMP endpoints (/ws-raw, SockJS /ws) attached to a server without loading them
// yet: `ws`, `sockjs` and the STOMP broker are ≈ 0.15 s of module loading that a service would
// otherwise spend before it listens. Until `load()` has run, a small gate stands in for them: it
// passes every request outside the SockJS prefix to the server's own handler, and holds requests
// under the prefix and every upgrade; the first of these starts the loading. Once loaded, the gate
// steps aside, attachRealtime (index.ts) sets the server up exactly as it would have at start, and
// the held events are replayed to it. A service calls `load()` once it listens, so in practice the
// endpoints are ready a moment after start-up.
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { AppError } from '../http/errors.js';
import { errorBody } from '../http/error-body.js';
import type { BrokerStats } from './broker.js';
import type { Realtime, RealtimeOptions } from './index.js';
import { resolveRealtimeSettings } from './settings.js';

export interface DeferredRealtime extends Realtime {
  /** Loads and attaches the endpoints (once); the held requests and upgrades then proceed. */
  load(): Promise<void>;
}

type RequestListener = (req: IncomingMessage, res: ServerResponse) => void;
type Held = { kind: 'request'; req: IncomingMessage; res: ServerResponse } | { kind: 'upgrade'; req: IncomingMessage; socket: Duplex; head: Buffer };

const NO_STATS: BrokerStats = { connections: 0, subscriptions: 0, slowConsumersDropped: 0, connectionsRefused: 0 };

/** Whether the request path is the prefix itself or below it (what sockjs answers). */
function underPrefix(url: string | undefined, prefix: string): boolean {
  const path = new URL(url ?? '/', 'http://localhost').pathname;
  return path === prefix || path.startsWith(`${prefix}/`);
}

/**
 * Same contract as attachRealtime: call it after the server's HTTP request handler is in place.
 * Options are checked now (a bad configuration fails the start, not the first connection).
 */
export function attachRealtimeDeferred(server: Server, options: RealtimeOptions): DeferredRealtime {
  const settings = resolveRealtimeSettings(options.settings);
  const auth = options.auth ?? { enabled: false, keys: [] };
  if (auth.enabled && auth.keys.length === 0) throw new RangeError('realtime auth is enabled but no API keys are configured (auth.keys)');
  const prefix = settings.sockjsPrefix;
  const handlers = server.listeners('request') as RequestListener[];
  const held: Held[] = [];
  let attached: Realtime | undefined;
  let loading: Promise<void> | undefined;
  let unavailable: string | undefined;

  const refuse = (event: Held): void => {
    if (event.kind === 'upgrade') {
      event.socket.destroy();
      return;
    }
    const path = new URL(event.req.url ?? '/', 'http://localhost').pathname;
    const body = errorBody(new AppError(500, 'INTERNAL_ERROR', `The STOMP endpoint ${prefix} is not available: ${unavailable}`), path);
    event.res.writeHead(500, { 'content-type': 'application/json; charset=utf-8' });
    event.res.end(JSON.stringify(body));
  };
  const hold = (event: Held): void => {
    if (unavailable) return refuse(event);
    held.push(event);
    void load();
  };
  const onRequest = (req: IncomingMessage, res: ServerResponse): void => {
    if (underPrefix(req.url, prefix)) return hold({ kind: 'request', req, res });
    for (const handler of handlers) handler.call(server, req, res);
  };
  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer): void => hold({ kind: 'upgrade', req, socket, head });

  server.removeAllListeners('request');
  server.on('request', onRequest);
  server.on('upgrade', onUpgrade);

  const restoreServer = (): void => {
    server.off('request', onRequest);
    server.off('upgrade', onUpgrade);
    for (const handler of handlers) server.on('request', handler);
  };
  const load = (): Promise<void> => {
    loading ??= import('./index.js').then(
      ({ attachRealtime }) => {
        if (unavailable) return; // closed while loading
        restoreServer();
        attached = attachRealtime(server, options);
        for (const event of held.splice(0)) {
          if (event.kind === 'request') server.emit('request', event.req, event.res);
          else server.emit('upgrade', event.req, event.socket, event.head);
        }
      },
      (error: unknown) => {
        unavailable = 'its modules could not be loaded';
        options.log?.warn({ err: error }, 'the STOMP endpoints could not be loaded');
        for (const event of held.splice(0)) refuse(event);
        throw error;
      },
    );
    return loading;
  };

  return {
    settings,
    load,
    stats: () => attached?.stats() ?? { ...NO_STATS },
    async close() {
      if (!attached && !unavailable) {
        // Not loaded yet: nothing is open; later requests under the prefix are refused.
        unavailable = 'the service is stopping';
        for (const event of held.splice(0)) refuse(event);
        await loading?.catch(() => undefined);
      }
      await attached?.close();
    },
  };
}
