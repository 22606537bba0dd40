// The subscriptions of one STOMP session: SUBSCRIBE / UNSUBSCRIBE / ACK checks, the link to the
// progress hub, and MESSAGE frames carrying the §2.4 progress message. A subscription to a finished
// run gets its final message at once and nothing more (the hub guarantees the final one is last).
// A client whose unsent output passes limits.maxBufferedBytes is dropped instead of queued, so a
// slow reader never holds up the hub or the other subscribers.
import type { ProgressSubscription, SequencedMessage } from '../../simulations/progress-hub.js';
import type { BrokerContext } from '../broker.js';
import { header, type OutgoingFrame, type StompFrame, type StompVersion } from './frame.js';
import { StompProtocolError } from './parser.js';

export const DESTINATION_PREFIX = '/topic/simulations/';
const ACK_MODES = ['auto', 'client', 'client-individual'] as const;
type AckMode = (typeof ACK_MODES)[number];

/** What the subscriptions need from their session. */
export interface SubscriptionSink {
  send(frame: OutgoingFrame): void;
  /** Bytes sent but not yet taken by the client. */
  backlog(): number;
  dropSlow(backlog: number): void;
  version(): StompVersion;
}

interface Entry {
  id: string;
  destination: string;
  simulationId: string;
  ack: AckMode;
  hub: ProgressSubscription | undefined;
  /** The final message has been delivered, or the subscription was removed. */
  done: boolean;
}

export class Subscriptions {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly context: BrokerContext, private readonly sink: SubscriptionSink) {}

  /** Subscriptions still receiving messages (the ones counted against the limit). */
  get size(): number {
    let active = 0;
    for (const entry of this.entries.values()) if (!entry.done) active++;
    return active;
  }

  /** Validates and registers a SUBSCRIBE, calls `acknowledge` (RECEIPT), then attaches it to the hub. */
  subscribe(frame: StompFrame, authorised: boolean, acknowledge: () => void): void {
    const destination = header(frame, 'destination');
    if (destination === undefined || destination === '') throw new StompProtocolError('SUBSCRIBE without a destination header', `subscribe to ${DESTINATION_PREFIX}<simulationId>`);
    const version = this.sink.version();
    const explicitId = header(frame, 'id');
    if (explicitId === undefined && version !== '1.0') throw new StompProtocolError('SUBSCRIBE without an id header', `STOMP ${version} requires the id header on SUBSCRIBE`);
    const id = explicitId ?? destination; // STOMP 1.0 makes id optional: the destination names the subscription
    const ack = header(frame, 'ack') ?? 'auto';
    if (!(ACK_MODES as readonly string[]).includes(ack)) throw new StompProtocolError(`invalid ack mode ${ack.slice(0, 32)}`, 'the ack header must be auto, client or client-individual');
    if (!authorised) {
      throw new StompProtocolError('SUBSCRIBE refused: a valid X-API-Key is required', 'API keys are enabled: send the X-API-Key header with one of the configured keys in the CONNECT frame');
    }
    if (this.entries.has(id)) throw new StompProtocolError(`duplicate subscription id ${id.slice(0, 64)}`, 'a subscription id must be unique within its connection');
    const limit = this.context.settings.limits.maxSubscriptionsPerConnection;
    if (this.size >= limit) throw new StompProtocolError(`too many subscriptions (limit ${limit} per connection)`, 'unsubscribe from finished simulations or open another connection');
    if (!destination.startsWith(DESTINATION_PREFIX) || destination.length === DESTINATION_PREFIX.length || destination.slice(DESTINATION_PREFIX.length).includes('/')) {
      throw new StompProtocolError(`unknown destination ${destination.slice(0, 128)}`, `the only destinations are ${DESTINATION_PREFIX}<simulationId>`);
    }
    const simulationId = destination.slice(DESTINATION_PREFIX.length);
    if (!this.context.simulationExists(simulationId)) {
      throw new StompProtocolError(`unknown destination ${destination.slice(0, 128)}: no simulation ${simulationId.slice(0, 64)}`, `there is no simulation with id ${simulationId}`);
    }
    const entry: Entry = { id, destination, simulationId, ack: ack as AckMode, hub: undefined, done: false };
    this.entries.set(id, entry);
    acknowledge();
    let hub: ProgressSubscription;
    try {
      // Delivers the current (or final) message synchronously, before returning.
      hub = this.context.hub.subscribe(simulationId, (message) => this.deliver(entry, message));
    } catch {
      this.entries.delete(id);
      throw new StompProtocolError(`unknown destination ${destination.slice(0, 128)}: no simulation ${simulationId.slice(0, 64)}`);
    }
    if (entry.done || this.entries.get(id) !== entry) hub.close();
    else entry.hub = hub;
  }

  unsubscribe(frame: StompFrame): void {
    const version = this.sink.version();
    const id = header(frame, 'id') ?? (version === '1.0' ? header(frame, 'destination') : undefined);
    if (id === undefined) throw new StompProtocolError('UNSUBSCRIBE without an id header', version === '1.0' ? 'give the id or the destination of the subscription' : `STOMP ${version} requires the id header on UNSUBSCRIBE`);
    const entry = this.entries.get(id);
    if (!entry) throw new StompProtocolError(`UNSUBSCRIBE of unknown subscription ${id.slice(0, 64)}`, 'no subscription with this id is open on this connection');
    this.remove(entry);
  }

  /** ACK and NACK carry no meaning for progress messages; only their required headers are checked. */
  checkAck(frame: StompFrame): void {
    const version = this.sink.version();
    const required = version === '1.2' ? ['id'] : version === '1.1' ? ['subscription', 'message-id'] : ['message-id'];
    const missing = required.filter((name) => header(frame, name) === undefined);
    if (missing.length > 0) throw new StompProtocolError(`${frame.command} without ${missing.join(' and ')} header`, `STOMP ${version} requires ${required.join(', ')} on ${frame.command}`);
  }

  closeAll(): void {
    for (const entry of [...this.entries.values()]) this.remove(entry);
  }

  private remove(entry: Entry): void {
    entry.done = true;
    entry.hub?.close();
    entry.hub = undefined;
    this.entries.delete(entry.id);
  }

  private deliver(entry: Entry, message: SequencedMessage): void {
    if (entry.done) return;
    const backlog = this.sink.backlog();
    if (backlog > this.context.settings.limits.maxBufferedBytes) return this.sink.dropSlow(backlog);
    if (message.final) entry.done = true;
    const headers: OutgoingFrame['headers'] = {
      subscription: entry.id,
      'message-id': `${entry.simulationId}-${message.seq}`,
      destination: entry.destination,
      'content-type': 'application/json',
    };
    if (entry.ack !== 'auto' && this.sink.version() === '1.2') headers.ack = `${entry.id}:${message.seq}`;
    this.sink.send({ command: 'MESSAGE', headers, body: this.context.body(message) });
  }
}
