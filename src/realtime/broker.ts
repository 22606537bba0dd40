// The broker shared by both endpoints: what every STOMP session needs (the progress hub, the task
// lookup, the auth settings, the limits) and the set of open sessions, which enforces the
// connection limit and closes them all on shutdown.
import { KeyChecker } from '../http/keys.js';
import type { ProgressHub, SequencedMessage } from '../simulations/progress-hub.js';
import type { RealtimeAuth, RealtimeSettings } from './settings.js';
import { StompSession } from './stomp/session.js';
import type { RealtimeLogger, Transport } from './transport.js';

/** Returns the task of a simulation id, or throws / returns undefined when there is none. */
export type TaskLookup = (id: string) => unknown;

export interface BrokerContext {
  hub: Pick<ProgressHub, 'subscribe'>;
  simulationExists(id: string): boolean;
  /** Whether `key` is one of the configured API keys (constant time). */
  keyIsValid(key: string): boolean;
  auth: RealtimeAuth;
  settings: RealtimeSettings;
  log: RealtimeLogger;
  /** The MESSAGE body of a progress message, serialized once for all subscribers. */
  body(entry: SequencedMessage): string;
  /** Called by a session when it ends, whatever the reason. */
  ended(session: StompSession): void;
}

export interface BrokerStats {
  connections: number;
  subscriptions: number;
  /** Connections dropped because their unsent output passed limits.maxBufferedBytes. */
  slowConsumersDropped: number;
  /** Connections refused because limits.maxConnections were open. */
  connectionsRefused: number;
}

export class Broker {
  private readonly sessions = new Set<StompSession>();
  private readonly bodies = new WeakMap<SequencedMessage, string>();
  private readonly keys: KeyChecker;
  private closing = false;
  private refused = 0;
  slowConsumersDropped = 0;
  readonly context: BrokerContext;

  constructor(hub: Pick<ProgressHub, 'subscribe'>, lookup: TaskLookup, auth: RealtimeAuth, settings: RealtimeSettings, log: RealtimeLogger) {
    this.keys = new KeyChecker(auth.keys);
    this.context = {
      hub,
      simulationExists: (id) => {
        try {
          const task = lookup(id);
          return task !== undefined && task !== null;
        } catch {
          return false;
        }
      },
      keyIsValid: (key) => this.keys.accepts(key),
      auth,
      settings,
      log,
      body: (entry) => {
        let body = this.bodies.get(entry);
        if (body === undefined) {
          body = JSON.stringify(entry.message);
          this.bodies.set(entry, body);
        }
        return body;
      },
      ended: (session) => {
        this.sessions.delete(session);
        if (session.droppedAsSlow) this.slowConsumersDropped++;
      },
    };
  }

  /** Starts a STOMP session on a new connection, or refuses it (ERROR frame, close) at the limit or after close(). */
  open(transport: Transport): StompSession | undefined {
    if (this.closing || this.sessions.size >= this.context.settings.limits.maxConnections) {
      this.refused++;
      const reason = this.closing ? 'the server is shutting down' : `too many connections (limit ${this.context.settings.limits.maxConnections})`;
      StompSession.refuse(transport, reason);
      this.context.log.warn({ transport: transport.kind, reason }, 'realtime connection refused');
      return undefined;
    }
    const session = new StompSession(transport, this.context);
    this.sessions.add(session);
    return session;
  }

  stats(): BrokerStats {
    let subscriptions = 0;
    for (const session of this.sessions) subscriptions += session.subscriptionCount;
    return { connections: this.sessions.size, subscriptions, slowConsumersDropped: this.slowConsumersDropped, connectionsRefused: this.refused };
  }

  /** Refuses new connections and closes the open ones. */
  close(): void {
    this.closing = true;
    for (const session of [...this.sessions]) session.shutdown('the server is shutting down');
  }
}

