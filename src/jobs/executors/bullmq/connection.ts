// Connections to Redis, all made by ioredis with one set of options: the URL is checked first (a
// wrong one fails with a message naming what is expected), commands issued while Redis is away
// wait for the reconnection instead of failing after some retries (`maxRetriesPerRequest: null`,
// which BullMQ requires of the connections it blocks on), and a lost connection is retried every
// RECONNECT_MAX_MS at most, so a restarted Redis is picked up within that.
//
// BullMQ gets such a connection as its `connection` option: a Queue, and a Worker for its ordinary
// commands, use it as it is (its owner closes it); a Worker's blocking fetch and a QueueEvents run
// on duplicates that BullMQ makes and closes.
import { Redis } from 'ioredis';
import { parseRedisUrl } from './redis-url.js';

/** Longest wait between two attempts to reach Redis again [ms]. */
const RECONNECT_MAX_MS = 1000;

/** A connection to the Redis at `url`, named `connectionName` in CLIENT LIST; throws on a wrong URL. */
export function redisConnection(url: string, connectionName: string): Redis {
  const address = parseRedisUrl(url);
  return new Redis({
    ...address,
    connectionName,
    maxRetriesPerRequest: null,
    retryStrategy: (attempt) => Math.min(attempt * 100, RECONNECT_MAX_MS),
  });
}

/** Closes a connection: QUIT when Redis answers within `waitMs`, else the socket is dropped. */
export async function closeConnection(connection: Redis, waitMs: number): Promise<void> {
  if (connection.status === 'ready') await withinMs(waitMs, connection.quit());
  connection.disconnect();
}

/** Waits for `work` (its failure ignored), at most `ms`: closing never hangs on a Redis that is away. */
export async function withinMs(ms: number, work: Promise<unknown>): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
  });
  await Promise.race([work.then(() => undefined, () => undefined), limit]);
  clearTimeout(timer);
}
