// Settings of the realtime endpoints (/ws-raw and /ws) with their defaults, and the check that
// turns a bad value into an error naming the setting.
import type { HeartBeatSettings } from './stomp/negotiate.js';

export interface RealtimeAuth {
  /** When true, SUBSCRIBE needs a CONNECT that carried a valid `X-API-Key` header. */
  enabled: boolean;
  keys: readonly string[];
}

export interface RealtimeLimits {
  /** Largest STOMP frame a client may send [bytes]; larger ones get an ERROR frame. */
  maxFrameBytes: number;
  /** Subscriptions one connection may hold at once. */
  maxSubscriptionsPerConnection: number;
  /** Open connections over both endpoints together; the next one gets an ERROR frame and is closed. */
  maxConnections: number;
  /** A connection whose unsent output exceeds this is dropped (slow consumer) [bytes]. */
  maxBufferedBytes: number;
  /** A connection that sends no CONNECT frame within this time is closed [ms]. */
  connectTimeoutMs: number;
}

export interface RealtimeSettings {
  limits: RealtimeLimits;
  heartBeat: HeartBeatSettings & {
    /** Silence allowed beyond the negotiated client interval before the connection is closed [ms]. */
    graceMs: number;
  };
  /** Path of the plain WebSocket endpoint. */
  rawPath: string;
  /** Prefix of the SockJS endpoint. */
  sockjsPrefix: string;
  /** SockJS heartbeat of its own transport layer [ms] (keeps polling transports alive). */
  sockjsHeartbeatMs: number;
}

export function defaultRealtimeSettings(): RealtimeSettings {
  return {
    limits: {
      maxFrameBytes: 64 * 1024,
      maxSubscriptionsPerConnection: 100,
      maxConnections: 10_000,
      maxBufferedBytes: 1024 * 1024,
      connectTimeoutMs: 30_000,
    },
    heartBeat: { sendMs: 10_000, receiveMs: 10_000, graceMs: 5_000 },
    rawPath: '/ws-raw',
    sockjsPrefix: '/ws',
    sockjsHeartbeatMs: 25_000,
  };
}

export type RealtimeSettingsInput = {
  limits?: Partial<RealtimeLimits>;
  heartBeat?: Partial<RealtimeSettings['heartBeat']>;
} & Partial<Omit<RealtimeSettings, 'limits' | 'heartBeat'>>;

/** Defaults overlaid with `input`; throws a RangeError naming the first bad setting. */
export function resolveRealtimeSettings(input: RealtimeSettingsInput = {}): RealtimeSettings {
  const defaults = defaultRealtimeSettings();
  const settings: RealtimeSettings = {
    ...defaults,
    ...input,
    limits: { ...defaults.limits, ...input.limits },
    heartBeat: { ...defaults.heartBeat, ...input.heartBeat },
  };
  const integers: [string, number, number][] = [
    ['limits.maxFrameBytes', settings.limits.maxFrameBytes, 64],
    ['limits.maxSubscriptionsPerConnection', settings.limits.maxSubscriptionsPerConnection, 1],
    ['limits.maxConnections', settings.limits.maxConnections, 1],
    ['limits.maxBufferedBytes', settings.limits.maxBufferedBytes, 0],
    ['limits.connectTimeoutMs', settings.limits.connectTimeoutMs, 1],
    ['heartBeat.sendMs', settings.heartBeat.sendMs, 0],
    ['heartBeat.receiveMs', settings.heartBeat.receiveMs, 0],
    ['heartBeat.graceMs', settings.heartBeat.graceMs, 0],
    ['sockjsHeartbeatMs', settings.sockjsHeartbeatMs, 1],
  ];
  for (const [name, value, min] of integers) {
    if (!Number.isInteger(value) || value < min) throw new RangeError(`realtime setting ${name} must be an integer ≥ ${min}, got ${String(value)}`);
  }
  for (const [name, path] of [['rawPath', settings.rawPath], ['sockjsPrefix', settings.sockjsPrefix]] as const) {
    if (!/^\/[A-Za-z0-9._~/-]*[A-Za-z0-9._~-]$/.test(path)) throw new RangeError(`realtime setting ${name} must be a path like /ws, got ${JSON.stringify(path)}`);
  }
  if (settings.rawPath === settings.sockjsPrefix || settings.rawPath.startsWith(`${settings.sockjsPrefix}/`)) {
    throw new RangeError(`realtime setting rawPath (${settings.rawPath}) must lie outside sockjsPrefix (${settings.sockjsPrefix})`);
  }
  return settings;
}
