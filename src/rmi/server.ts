// The XML-RPC listener of `pesim serve` (docs/spec/decisions.md §1.7): POST on `/` and `/RPC2` (the
// shared session) and on `/RPC2/<client-id>` (the client's own session), an API key
// when authentication is on (HTTP basic auth with the key as password, as `xmlrpc.client` sends for
// http://user:KEY@host/RPC2, or X-API-Key; checked by the service's one KeyChecker), the body read
// by the bounded reader, the call dispatched on the method table, the answer a response or a fault.
// Calls may block for the length of a run; every connection is served independently.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import { KeyChecker } from '../http/auth.js';
import { readMethodCall, type BodyLimits } from '../xmlrpc/body.js';
import { encodeFault, encodeResponse } from '../xmlrpc/encode.js';
import { CLIENT_ID } from './client-sessions.js';
import { toFault } from './faults.js';
import type { MethodTable } from './methods.js';
import { FAULT, XmlRpcFault } from '../xmlrpc/values.js';

export interface RmiServerOptions {
  host: string;
  port: number;
  limits: BodyLimits;
  auth: { enabled: boolean; keys: readonly string[] };
  /** The method table serving a client id (from /RPC2/<client-id>), or the shared session's (undefined). */
  methods: (clientId: string | undefined) => MethodTable;
  logger: Logger;
}

export interface RmiServerHandle {
  server: Server;
  /** e.g. http://127.0.0.1:1099/RPC2 */
  url: string;
  port: number;
  close(): Promise<void>;
}

const SHARED_PATHS = new Set(['/', '/RPC2']);

/** The client id a path names: undefined for the shared session, null for no endpoint. */
function clientIdOf(path: string): string | undefined | null {
  if (SHARED_PATHS.has(path)) return undefined;
  const match = /^\/RPC2\/([^/]+)$/.exec(path);
  if (!match) return null;
  const id = decodeURIComponent(match[1]);
  return CLIENT_ID.test(id) ? id : null;
}

/** The key of a request: the password of basic auth, else X-API-Key. */
function presentedKey(request: IncomingMessage): string | undefined {
  const authorization = request.headers.authorization;
  if (authorization && /^basic\s+/i.test(authorization)) {
    const decoded = Buffer.from(authorization.replace(/^basic\s+/i, ''), 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    return colon >= 0 ? decoded.slice(colon + 1) : decoded;
  }
  const header = request.headers['x-api-key'];
  return typeof header === 'string' && header !== '' ? header : undefined;
}

function send(response: ServerResponse, status: number, body: string, extra: Record<string, string> = {}): void {
  if (response.headersSent) return;
  const bytes = Buffer.from(body, 'utf8');
  response.writeHead(status, { 'Content-Type': 'text/xml; charset=utf-8', 'Content-Length': bytes.length, ...extra });
  response.end(bytes);
}

export function startRmiServer(options: RmiServerOptions): Promise<RmiServerHandle> {
  const keys = new KeyChecker(options.auth.keys);
  const log = options.logger;

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const path = (request.url ?? '/').split('?')[0];
    let clientId: string | undefined | null;
    try {
      clientId = clientIdOf(path);
    } catch {
      clientId = null; // a malformed %-escape
    }
    if (clientId === null) {
      request.resume();
      send(response, 404, encodeFault(FAULT.METHOD_NOT_FOUND, `no XML-RPC endpoint at ${path}; POST to / or /RPC2 (the shared session) or /RPC2/<client-id> (a session of its own; the id of letters, digits, . _ -, at most 64)`));
      return;
    }
    if (request.method !== 'POST') {
      request.resume();
      send(response, 405, encodeFault(FAULT.INVALID_REQUEST, `XML-RPC calls are POST requests, got ${request.method}`), { Allow: 'POST' });
      return;
    }
    if (options.auth.enabled) {
      const key = presentedKey(request);
      if (!keys.accepts(key)) {
        request.resume();
        const message = key === undefined ? 'this server needs an API key: http://user:KEY@host:port/RPC2 (basic auth) or the X-API-Key header' : 'the API key is not valid';
        send(response, 401, encodeFault(FAULT.UNAUTHORIZED, `UNAUTHORIZED: ${message}`), { 'WWW-Authenticate': 'Basic realm="pesim XML-RPC"' });
        return;
      }
    }
    let methodName = '(unread)';
    try {
      const call = await readMethodCall(request, options.limits);
      methodName = call.methodName;
      const method = options.methods(clientId).get(call.methodName);
      if (!method) throw new XmlRpcFault(FAULT.METHOD_NOT_FOUND, `METHOD_NOT_FOUND: no method ${JSON.stringify(call.methodName)}; system.listMethods() lists them`);
      const value = await method.call(call.params);
      send(response, 200, encodeResponse(value ?? true));
    } catch (error) {
      const fault = toFault(error, (e) => log.error({ err: e, method: methodName }, 'XML-RPC method failed'));
      if (fault.faultCode !== FAULT.INTERNAL_ERROR) log.debug({ method: methodName, faultCode: fault.faultCode, fault: fault.message }, 'XML-RPC fault');
      send(response, 200, encodeFault(fault.faultCode, fault.message));
    }
  }

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      log.error({ err: error }, 'XML-RPC request failed');
      send(response, 500, encodeFault(FAULT.INTERNAL_ERROR, 'INTERNAL_ERROR'));
    });
  });
  // Runs may last long: no request time-out (clients set their own).
  server.requestTimeout = 0;
  return new Promise((resolve, reject) => {
    const failed = (error: Error): void => reject(new Error(`the XML-RPC port ${options.host}:${options.port} (SIM_RMI_PORT, --rmi-port; 0 turns it off): ${error.message}`));
    server.once('error', failed);
    server.listen(options.port, options.host, () => {
      server.off('error', failed);
      const { port } = server.address() as AddressInfo;
      const host = options.host.includes(':') ? `[${options.host}]` : options.host === '0.0.0.0' ? '127.0.0.1' : options.host;
      const close = (): Promise<void> =>
        new Promise((done) => {
          server.close(() => done());
          server.closeIdleConnections();
          setTimeout(() => server.closeAllConnections(), 2000).unref();
        });
      resolve({ server, url: `http://${host}:${port}/RPC2`, port, close });
    });
  });
}
