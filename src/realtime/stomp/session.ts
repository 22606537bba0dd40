// One STOMP connection, whatever carries it: CONNECT/STOMP negotiation, the commands, RECEIPTs,
// ERROR-then-close for every protocol error (STOMP 1.2 §"ERROR"), heart-beats and the connect
// time-out. Subscriptions and MESSAGE delivery are in subscriptions.ts.
import { randomUUID } from 'node:crypto';
import type { BrokerContext } from '../broker.js';
import type { Transport } from '../transport.js';
import { header, headerIgnoringCase, isClientCommand, serializeFrame, type OutgoingFrame, type StompFrame, type StompVersion } from './frame.js';
import { HeartBeats } from './heartbeat.js';
import { negotiateHeartBeat, negotiateVersion } from './negotiate.js';
import { StompParser, StompProtocolError, type ParsedItem } from './parser.js';
import { Subscriptions } from './subscriptions.js';

type State = 'connecting' | 'connected' | 'closed';

const SERVER = 'pesim';
const HEARTBEAT = Buffer.from('\n');

export class StompSession {
  readonly id = randomUUID();
  private state: State = 'connecting';
  private version: StompVersion | undefined;
  private authorised = false;
  private heartBeats: HeartBeats | undefined;
  private readonly parser: StompParser;
  private readonly subscriptions: Subscriptions;
  private readonly connectTimer: NodeJS.Timeout;
  /** True when the session ended because the client did not read its messages. */
  droppedAsSlow = false;

  /** Answers a connection that will not get a session with an ERROR frame, then closes it. */
  static refuse(transport: Transport, reason: string): void {
    transport.send(serializeFrame({ command: 'ERROR', headers: { message: reason, 'content-type': 'text/plain' }, body: reason }, undefined));
    transport.close();
  }

  constructor(private readonly transport: Transport, private readonly context: BrokerContext) {
    this.parser = new StompParser({ maxFrameBytes: context.settings.limits.maxFrameBytes });
    this.subscriptions = new Subscriptions(context, {
      send: (frame) => this.send(frame),
      backlog: () => transport.bufferedAmount(),
      dropSlow: (backlog) => this.dropSlow(backlog),
      version: () => this.version ?? '1.0',
    });
    this.connectTimer = setTimeout(() => this.fail(`no CONNECT frame within ${context.settings.limits.connectTimeoutMs} ms`), context.settings.limits.connectTimeoutMs);
    this.connectTimer.unref();
  }

  get subscriptionCount(): number {
    return this.subscriptions.size;
  }

  /** Data received from the client (part of a frame, one frame or several). */
  receive(chunk: Buffer | string): void {
    if (this.state === 'closed') return;
    this.heartBeats?.received();
    let items: ParsedItem[];
    try {
      items = this.parser.push(chunk);
    } catch (error) {
      if (error instanceof StompProtocolError) return this.fail(error.message, error.explanation);
      throw error;
    }
    for (const item of items) {
      if (this.isClosed()) return; // an earlier frame of this chunk ended the session
      if (item.kind === 'frame') this.handle(item.frame);
    }
  }

  isClosed(): boolean {
    return this.state === 'closed';
  }

  /** The transport has closed (client went away, or after our own close). */
  closed(): void {
    this.end();
  }

  /** Server shutdown: tells the client why, then closes. */
  shutdown(reason: string): void {
    this.fail(reason);
  }

  private handle(frame: StompFrame): void {
    const receipt = header(frame, 'receipt');
    try {
      if (!isClientCommand(frame.command)) {
        throw new StompProtocolError(`unknown command ${frame.command.slice(0, 32)}`, 'this server understands CONNECT, STOMP, SUBSCRIBE, UNSUBSCRIBE, ACK, NACK and DISCONNECT');
      }
      if (frame.command === 'CONNECT' || frame.command === 'STOMP') return this.connect(frame);
      if (this.state !== 'connected') throw new StompProtocolError(`${frame.command} before CONNECT`, 'the first frame of a connection must be CONNECT or STOMP');
      switch (frame.command) {
        case 'SEND':
          throw new StompProtocolError('client-to-server commands are not supported: SEND is refused', `this service only streams progress messages to subscribers (destination ${header(frame, 'destination') ?? 'none'})`);
        case 'BEGIN':
        case 'COMMIT':
        case 'ABORT':
          throw new StompProtocolError(`client-to-server commands are not supported: ${frame.command} is refused`, 'there are no transactions: this service only streams progress messages to subscribers');
        case 'SUBSCRIBE':
          this.subscriptions.subscribe(frame, this.authorised, () => this.receipt(receipt));
          return;
        case 'UNSUBSCRIBE':
          this.subscriptions.unsubscribe(frame);
          return this.receipt(receipt);
        case 'ACK':
        case 'NACK':
          // Progress messages need no acknowledgement; the frame is checked and otherwise has no effect.
          this.subscriptions.checkAck(frame);
          return this.receipt(receipt);
        case 'DISCONNECT':
          this.receipt(receipt);
          return this.close();
      }
    } catch (error) {
      if (error instanceof StompProtocolError) return this.fail(error.message, error.explanation, receipt);
      throw error;
    }
  }

  private connect(frame: StompFrame): void {
    if (this.state === 'connected') throw new StompProtocolError('already connected', `a second ${frame.command} frame on one connection`);
    const choice = negotiateVersion(header(frame, 'accept-version'));
    if (!choice.ok) {
      return this.fail('unsupported STOMP version', `this server supports 1.0, 1.1 and 1.2; the client accepts ${choice.offered}`, undefined, { version: '1.0,1.1,1.2' });
    }
    const key = headerIgnoringCase(frame, 'x-api-key');
    if (this.context.auth.enabled && key !== undefined && !this.context.keyIsValid(key)) {
      throw new StompProtocolError('invalid API key', 'the X-API-Key header of CONNECT is not one of the configured keys');
    }
    this.authorised = !this.context.auth.enabled || key !== undefined;
    // version is sent for 1.0 too: 1.0 clients ignore it, and clients speaking several versions read it.
    const headers: OutgoingFrame['headers'] = { version: choice.version, session: this.id, server: SERVER };
    if (choice.version !== '1.0') {
      const beats = negotiateHeartBeat(header(frame, 'heart-beat'), this.context.settings.heartBeat);
      if (!beats.ok) throw new StompProtocolError('malformed heart-beat header', beats.message);
      headers['heart-beat'] = beats.plan.header;
      this.heartBeats = new HeartBeats(beats.plan, this.context.settings.heartBeat.graceMs, () => this.beat(), (silent) =>
        this.fail('heart-beat timeout', `nothing received for ${silent} ms; the negotiated interval is ${beats.plan.incomingMs} ms`));
    }
    clearTimeout(this.connectTimer);
    this.state = 'connected';
    this.send({ command: 'CONNECTED', headers });
    this.version = choice.version;
    this.parser.version = choice.version;
    this.heartBeats?.start();
  }

  private receipt(receipt: string | undefined): void {
    if (receipt !== undefined) this.send({ command: 'RECEIPT', headers: { 'receipt-id': receipt } });
  }

  private send(frame: OutgoingFrame): void {
    if (this.state === 'closed') return;
    this.transport.send(serializeFrame(frame, this.version));
    this.heartBeats?.sent();
  }

  private beat(): void {
    if (this.state === 'closed') return;
    this.transport.send(HEARTBEAT);
    this.heartBeats?.sent();
  }

  /** ERROR frame (with receipt-id when the failing frame asked for a receipt), then close. */
  private fail(message: string, details?: string, receipt?: string, extra: Record<string, string> = {}): void {
    if (this.state === 'closed') return;
    this.context.log.info({ session: this.id, transport: this.transport.kind, error: message }, 'STOMP error');
    this.send({ command: 'ERROR', headers: { message, 'receipt-id': receipt, ...extra, 'content-type': 'text/plain' }, body: details ?? message });
    this.close();
  }

  private dropSlow(backlog: number): void {
    if (this.state === 'closed') return;
    this.context.log.warn({ session: this.id, transport: this.transport.kind, backlog }, 'slow STOMP consumer dropped');
    this.droppedAsSlow = true;
    this.end();
    this.transport.terminate();
  }

  private close(): void {
    if (this.state === 'closed') return;
    this.end();
    this.transport.close();
  }

  private end(): void {
    if (this.state === 'closed') return;
    this.state = 'closed';
    clearTimeout(this.connectTimer);
    this.heartBeats?.stop();
    this.subscriptions.closeAll();
    this.context.ended(this);
  }
}
