// The browser-compatible endpoint (/ws): the `sockjs` server with its fallback transports
// (websocket, xhr-streaming, xhr-polling, eventsource, ...) carrying the same STOMP sessions as
// /ws-raw. sockjs installs itself in front of the server's 'request' and 'upgrade' listeners and
// passes every path outside its prefix on to them, so it must be attached after the HTTP app.
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import sockjs, { type Connection } from 'sockjs';
import { AppError } from '../http/errors.js';
import { errorBody } from '../http/error-body.js';
import type { Broker } from './broker.js';
import type { RealtimeSettings } from './settings.js';
import type { RealtimeLogger, Transport } from './transport.js';

/**
 * The parts of sockjs's session this endpoint reads to measure a client's backlog: sockjs has
 * no public bufferedAmount. `send_buffer` holds messages waiting for the client's next poll; the
 * receiver's socket holds what the kernel has not taken yet.
 */
interface SockjsInternals {
  _session?: {
    send_buffer?: string[];
    recv?: { connection?: { writableLength?: number }; response?: { connection?: { writableLength?: number } } } | null;
  };
}

export function attachSockjsEndpoint(server: Server, broker: Broker, settings: RealtimeSettings, log: RealtimeLogger): void {
  const endpoint = sockjs.createServer({
    prefix: settings.sockjsPrefix,
    heartbeat_delay: settings.sockjsHeartbeatMs,
    // sockjs logs every request by default; only its errors are worth a line.
    log: (severity, message) => {
      if (severity === 'error') log.warn({ transport: 'sockjs' }, message);
    },
  });
  endpoint.on('connection', (conn: Connection | null) => {
    if (!conn) return; // sockjs emits null for a session that closed before it opened
    const transport: Transport = {
      kind: `sockjs-${conn.protocol}`,
      send: (data) => {
        conn.write(data.toString('utf8'));
      },
      bufferedAmount: () => backlog(conn),
      close: () => closeWith(conn, 1000, 'Normal closure'),
      // The close frame queues behind the backlog; the session has already let go of the hub.
      terminate: () => closeWith(conn, 3000, 'Slow consumer'),
    };
    const session = broker.open(transport);
    if (!session) return;
    conn.on('data', (message: string) => session.receive(message));
    conn.on('close', () => session.closed());
  });
  endpoint.installHandlers(server, { prefix: settings.sockjsPrefix });
  answerUnknownPathsAsJson(server, settings.sockjsPrefix);
}

// The paths sockjs answers under its prefix (the SockJS protocol): the greeting, /info, the iframe
// page, raw /websocket, and /<server>/<session>/<transport>.
const SOCKJS_PATH = /^(?:\/?|\/info|\/iframe[0-9a-z._-]*\.html|\/websocket|\/[^/.]+\/[^/.]+\/(?:websocket|xhr|xhr_send|xhr_streaming|eventsource|htmlfile|jsonp|jsonp_send))$/;

/**
 * sockjs answers other paths under its prefix with a plain-text "404 Error: Page not found"; this
 * puts a listener in front of it that answers them with the service's JSON error body instead.
 */
function answerUnknownPathsAsJson(server: Server, prefix: string): void {
  const installed = server.listeners('request') as ((req: IncomingMessage, res: ServerResponse) => void)[];
  server.removeAllListeners('request');
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    const rest = path.startsWith(prefix) ? path.slice(prefix.length) : undefined;
    if (rest !== undefined && (rest === '' || rest.startsWith('/')) && !SOCKJS_PATH.test(rest)) {
      const body = errorBody(new AppError(404, 'NOT_FOUND', `No resource at ${req.method} ${path}; ${prefix} is the SockJS endpoint of the STOMP progress messages`), path);
      res.writeHead(404, { 'content-type': 'application/json; charset=utf-8' });
      res.end(JSON.stringify(body));
      return;
    }
    for (const listener of installed) listener.call(server, req, res);
  });
}

/** sockjs takes a numeric close code (its type declarations say string). */
function closeWith(conn: Connection, code: number, reason: string): void {
  Reflect.apply(conn.close, conn, [code, reason]);
}

function backlog(conn: Connection): number {
  const session = (conn as unknown as SockjsInternals)._session;
  if (!session) return 0;
  let bytes = 0;
  for (const message of session.send_buffer ?? []) bytes += message.length;
  const socket = session.recv?.connection ?? session.recv?.response?.connection;
  return bytes + (socket?.writableLength ?? 0);
}
