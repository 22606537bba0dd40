// Heart-beat timers of one STOMP connection once negotiated: sends an EOL when the server has
// been silent for the outgoing interval, and reports a timeout when the client has been silent
// longer than the incoming interval plus the grace (STOMP 1.1 §"Heart-beating").
import type { HeartBeatPlan } from './negotiate.js';

export class HeartBeats {
  private lastReceived = performance.now();
  private lastSent = performance.now();
  private readonly timers: NodeJS.Timeout[] = [];

  constructor(
    private readonly plan: HeartBeatPlan,
    private readonly graceMs: number,
    private readonly sendBeat: () => void,
    private readonly onTimeout: (silentMs: number) => void,
  ) {}

  start(): void {
    if (this.plan.outgoingMs > 0) {
      // Checked twice per interval so a beat is never later than the interval itself.
      const period = Math.max(1, Math.floor(this.plan.outgoingMs / 2));
      this.timers.push(setInterval(() => {
        if (performance.now() - this.lastSent >= period) this.sendBeat();
      }, period));
    }
    if (this.plan.incomingMs > 0) {
      const limit = this.plan.incomingMs + this.graceMs;
      const period = Math.max(1, Math.floor(Math.min(this.plan.incomingMs, limit / 2)));
      this.timers.push(setInterval(() => {
        const silent = performance.now() - this.lastReceived;
        if (silent > limit) this.onTimeout(Math.round(silent));
      }, period));
    }
    for (const timer of this.timers) timer.unref();
  }

  /** Any bytes from the client count as a heart-beat. */
  received(): void {
    this.lastReceived = performance.now();
  }

  sent(): void {
    this.lastSent = performance.now();
  }

  stop(): void {
    for (const timer of this.timers) clearInterval(timer);
    this.timers.length = 0;
  }
}
