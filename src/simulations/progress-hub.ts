// Turns the job runtime's bus events into numbered progress messages, built once per event and
// fanned out to every subscriber of that simulation, so SSE and STOMP carry identical messages fed
// at the same time. A short history per simulation lets a reconnecting client resume without gaps
// (SSE Last-Event-ID); a subscription to a finished run receives its final message at once.
import type { TaskEvents } from '../jobs/events.js';
import { FINAL_STATES, type TaskRecord } from '../jobs/types.js';
import { presentProgressMessage, type ProgressMessage } from './ProgressPresenter.js';

export interface SequencedMessage {
  /** Increasing per simulation, from 1: the SSE event id and the STOMP message-id suffix. */
  seq: number;
  message: ProgressMessage;
  final: boolean;
}

export type ProgressListener = (entry: SequencedMessage) => void;

export interface ProgressSubscription {
  close(): void;
}

interface Channel {
  history: SequencedMessage[];
  listeners: Set<ProgressListener>;
}

export interface ProgressHubOptions {
  /** Messages kept per simulation for resumption (default 1000). */
  historyLength?: number;
  /** Finished simulations whose history is kept (default 1000, oldest dropped first). */
  finishedKept?: number;
  now?: () => Date;
}

export class ProgressHub {
  private readonly channels = new Map<string, Channel>();
  private readonly finished: string[] = [];
  private readonly historyLength: number;
  private readonly finishedKept: number;
  private readonly now: () => Date;
  private readonly onEvent = (task: TaskRecord): void => this.publish(task);

  /** `lookup` returns the current record of a task, or throws when there is none. */
  constructor(private readonly events: TaskEvents, private readonly lookup: (id: string) => TaskRecord, options: ProgressHubOptions = {}) {
    this.historyLength = options.historyLength ?? 1000;
    this.finishedKept = options.finishedKept ?? 1000;
    this.now = options.now ?? (() => new Date());
    events.on('state', this.onEvent);
    events.on('progress', this.onEvent);
  }

  close(): void {
    this.events.off('state', this.onEvent);
    this.events.off('progress', this.onEvent);
    this.channels.clear();
  }

  /**
   * Delivers, synchronously before returning, the messages after `afterSeq` that are still kept
   * (when `afterSeq` is given) or else the current state as one message; then every new message
   * until the final one. Throws the lookup's error for an unknown simulation.
   */
  subscribe(id: string, listener: ProgressListener, afterSeq?: number): ProgressSubscription {
    const task = this.lookup(id);
    const channel = this.channel(id);
    if (channel.history.length === 0) this.append(channel, task);
    const last = channel.history[channel.history.length - 1];
    const backlog = afterSeq === undefined ? [last] : channel.history.filter((m) => m.seq > afterSeq);
    // A resumed stream whose next message has left the history gets the latest state instead; so
    // does one whose id is beyond the newest message (numbering restarted, e.g. after a restart of
    // the service, which would otherwise leave the client waiting for ids that never come).
    const stale = afterSeq !== undefined && afterSeq > last.seq;
    const replay = stale || (afterSeq !== undefined && backlog.length > 0 && backlog[0].seq > afterSeq + 1) ? [last] : backlog;
    for (const entry of replay) listener(entry);
    if (last.final) return { close: () => undefined };
    channel.listeners.add(listener);
    return { close: () => channel.listeners.delete(listener) };
  }

  private publish(task: TaskRecord): void {
    const channel = this.channels.get(task.id);
    if (!channel) return; // nobody has asked for this simulation yet: the first subscriber builds its state
    const last = channel.history[channel.history.length - 1];
    if (last?.final) return;
    const entry = this.append(channel, task);
    for (const listener of [...channel.listeners]) listener(entry);
    if (entry.final) {
      channel.listeners.clear();
      this.retire(task.id);
    }
  }

  private append(channel: Channel, task: TaskRecord): SequencedMessage {
    const seq = (channel.history[channel.history.length - 1]?.seq ?? 0) + 1;
    const entry = { seq, message: presentProgressMessage(task, this.now()), final: FINAL_STATES.includes(task.state) };
    channel.history.push(entry);
    if (channel.history.length > this.historyLength) channel.history.shift();
    if (entry.final && channel.listeners.size === 0) this.retire(task.id);
    return entry;
  }

  private channel(id: string): Channel {
    let channel = this.channels.get(id);
    if (!channel) {
      channel = { history: [], listeners: new Set() };
      this.channels.set(id, channel);
    }
    return channel;
  }

  private retire(id: string): void {
    if (this.finished.includes(id)) return;
    this.finished.push(id);
    while (this.finished.length > this.finishedKept) this.channels.delete(this.finished.shift()!);
  }
}
