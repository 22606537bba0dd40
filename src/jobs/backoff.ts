// Retry back-off of a transient failure: exponential with optional jitter, the rule of BullMQ's
// `exponential` strategy. Attempt n waits d = delayMs · 2^(n−1); with jitter j (0…1) the wait is
// drawn uniformly from [(1 − j) · d, d), so that many tasks failing together (a remote simulator
// restarting) do not all come back in the same millisecond.
export interface BackoffPolicy {
  /** Wait before the first retry [ms]. */
  delayMs: number;
  /** Fraction of each wait that is drawn at random (0: none, the exact doubling). */
  jitter: number;
}

/** The wait before the retry that follows failed attempt `attempt` (1 for the first) [ms]. */
export function retryDelayMs(policy: BackoffPolicy, attempt: number, random: () => number = Math.random): number {
  const full = policy.delayMs * 2 ** Math.max(0, attempt - 1);
  const jitter = Math.min(1, Math.max(0, policy.jitter));
  if (jitter === 0) return full;
  return Math.floor(full * (1 - jitter) + random() * full * jitter);
}
