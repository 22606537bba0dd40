// CONNECT negotiation: the protocol version (highest common one of accept-version; 1.0 when the
// header is absent, as STOMP 1.1 §"Protocol Negotiation" says) and the heart-beat intervals
// (STOMP 1.1 §"Heart-beating": each direction is the larger of what the sender can do and what the
// receiver wants, or off when either side says 0).
import { STOMP_VERSIONS, type StompVersion } from './frame.js';

export type VersionChoice = { ok: true; version: StompVersion } | { ok: false; offered: string };

export function negotiateVersion(acceptVersion: string | undefined): VersionChoice {
  if (acceptVersion === undefined) return { ok: true, version: '1.0' };
  const offered = acceptVersion.split(',').map((v) => v.trim());
  for (const version of [...STOMP_VERSIONS].reverse()) {
    if (offered.includes(version)) return { ok: true, version };
  }
  return { ok: false, offered: acceptVersion };
}

export interface HeartBeatSettings {
  /** Smallest interval at which the server can send heart-beats [ms] (0: never). */
  sendMs: number;
  /** Interval at which the server wants heart-beats from clients [ms] (0: none needed). */
  receiveMs: number;
}

export interface HeartBeatPlan {
  /** Server → client interval [ms], 0 when off. */
  outgoingMs: number;
  /** Client → server interval [ms], 0 when off: silence beyond it (plus a grace) closes the connection. */
  incomingMs: number;
  /** The CONNECTED frame's heart-beat header. */
  header: string;
}

export type HeartBeatChoice = { ok: true; plan: HeartBeatPlan } | { ok: false; message: string };

/** `clientHeader` is the CONNECT heart-beat header `cx,cy` (absent: 0,0). */
export function negotiateHeartBeat(clientHeader: string | undefined, server: HeartBeatSettings): HeartBeatChoice {
  let cx = 0;
  let cy = 0;
  if (clientHeader !== undefined) {
    const match = /^\s*(\d{1,9})\s*,\s*(\d{1,9})\s*$/.exec(clientHeader);
    if (!match) return { ok: false, message: `heart-beat header must be two non-negative integers "cx,cy", got ${JSON.stringify(clientHeader)}` };
    cx = Number(match[1]);
    cy = Number(match[2]);
  }
  const outgoingMs = server.sendMs === 0 || cy === 0 ? 0 : Math.max(server.sendMs, cy);
  const incomingMs = cx === 0 || server.receiveMs === 0 ? 0 : Math.max(cx, server.receiveMs);
  return { ok: true, plan: { outgoingMs, incomingMs, header: `${server.sendMs},${server.receiveMs}` } };
}
