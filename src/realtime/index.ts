// attachRealtime: the WebSocket side of docs/spec/simulation-service.md §4.2 and §6 on any node http.Server.
// /ws-raw speaks STOMP 1.0–1.2 over plain WebSocket, /ws the same over SockJS; both carry the
// progress messages of the ProgressHub on /topic/simulations/<simulationId>.
import type { Server } from 'node:http';
import type { ProgressHub } from '../simulations/progress-hub.js';
import { Broker, type BrokerStats, type TaskLookup } from './broker.js';
import { resolveRealtimeSettings, type RealtimeAuth, type RealtimeSettings, type RealtimeSettingsInput } from './settings.js';
import { attachSockjsEndpoint } from './sockjs-endpoint.js';
import { silentLogger, type RealtimeLogger } from './transport.js';
import { attachRawEndpoint } from './ws-raw.js';

export interface RealtimeOptions {
  hub: Pick<ProgressHub, 'subscribe'>;
  /** The task of a simulation id; throws or returns undefined for an unknown id (scheduler.get fits). */
  lookup: TaskLookup;
  /** API keys (docs/spec/simulation-service.md §5): when enabled, SUBSCRIBE needs a CONNECT carrying a valid X-API-Key. */
  auth?: RealtimeAuth;
  /** Limits, heart-beats and paths; defaults in settings.ts. */
  settings?: RealtimeSettingsInput;
  log?: RealtimeLogger;
}

export interface Realtime {
  readonly settings: RealtimeSettings;
  stats(): BrokerStats;
  /** Closes every STOMP connection (ERROR frame naming the shutdown), stops /ws-raw and refuses new sessions. */
  close(): Promise<void>;
}

/**
 * Attaches /ws-raw and /ws to `server`. Call it after the server's HTTP request handler is in
 * place: SockJS passes the requests outside its prefix on to the handlers present at that time.
 */
export function attachRealtime(server: Server, options: RealtimeOptions): Realtime {
  const settings = resolveRealtimeSettings(options.settings);
  const auth: RealtimeAuth = options.auth ?? { enabled: false, keys: [] };
  if (auth.enabled && auth.keys.length === 0) throw new RangeError('realtime auth is enabled but no API keys are configured (auth.keys)');
  const log = options.log ?? silentLogger;
  const broker = new Broker(options.hub, options.lookup, auth, settings, log);
  const raw = attachRawEndpoint(server, broker, settings);
  attachSockjsEndpoint(server, broker, settings, log);
  return {
    settings,
    stats: () => broker.stats(),
    async close() {
      broker.close();
      await raw.close();
    },
  };
}

export { resolveRealtimeSettings, defaultRealtimeSettings } from './settings.js';
export type { RealtimeAuth, RealtimeLimits, RealtimeSettings, RealtimeSettingsInput } from './settings.js';
export type { BrokerStats, TaskLookup } from './broker.js';
export type { RealtimeLogger, Transport } from './transport.js';
