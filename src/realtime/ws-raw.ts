// The plain WebSocket endpoint (/ws-raw): a `ws` server in noServer mode, fed by the HTTP server's
// 'upgrade' event for its own path only; upgrades for any other path are left to their owners.
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import type { Broker } from './broker.js';
import type { RealtimeSettings } from './settings.js';
import type { Transport } from './transport.js';

/** Sub-protocols of STOMP over WebSocket, the one chosen first when the client offers several. */
const STOMP_PROTOCOLS = ['v12.stomp', 'v11.stomp', 'v10.stomp'];

export interface RawEndpoint {
  close(): Promise<void>;
}

export function attachRawEndpoint(server: Server, broker: Broker, settings: RealtimeSettings): RawEndpoint {
  const wss = new WebSocketServer({
    noServer: true,
    // Room for a frame just over the limit, so the parser answers it with an ERROR frame
    // instead of ws closing with 1009.
    maxPayload: 2 * settings.limits.maxFrameBytes + 1024,
    handleProtocols: (offered) => STOMP_PROTOCOLS.find((p) => offered.has(p)) ?? false,
  });

  const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer): void => {
    if (pathOf(request) !== settings.rawPath) return;
    wss.handleUpgrade(request, socket, head, (ws) => serve(ws, broker));
  };
  server.on('upgrade', onUpgrade);

  return {
    close: () =>
      new Promise<void>((resolve) => {
        server.off('upgrade', onUpgrade);
        for (const client of wss.clients) client.terminate();
        wss.close(() => resolve());
      }),
  };
}

function serve(ws: WebSocket, broker: Broker): void {
  const transport: Transport = {
    kind: 'websocket',
    send: (data) => ws.send(data, { binary: false }),
    bufferedAmount: () => ws.bufferedAmount,
    close: () => ws.close(1000),
    terminate: () => ws.terminate(),
  };
  const session = broker.open(transport);
  if (!session) return;
  ws.on('message', (data: RawData) => session.receive(toBuffer(data)));
  ws.on('close', () => session.closed());
  ws.on('error', () => session.closed());
}

function pathOf(request: IncomingMessage): string {
  const url = request.url ?? '/';
  const query = url.indexOf('?');
  const path = query < 0 ? url : url.slice(0, query);
  return path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
}

function toBuffer(data: RawData): Buffer {
  if (Buffer.isBuffer(data)) return data;
  if (Array.isArray(data)) return Buffer.concat(data);
  return Buffer.from(data);
}
