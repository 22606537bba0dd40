// The scale-out settings of a service: which queue runs its simulations (`embedded` worker threads,
// the default, or `bullmq` on Redis with `pesim worker` processes), the Redis URL, and the largest
// result that may travel back through Redis, or the results folder shared with the workers. Each
// service reads them from its config file; the environment (PESIM_QUEUE, PESIM_REDIS_URL,
// PESIM_MAX_RESULT_MB, PESIM_SHARED_RESULTS_DIR) is the default for both.
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseRedisUrl } from './redis-url.js';

export const QUEUE_BACKENDS = ['embedded', 'bullmq'] as const;
export type QueueBackend = (typeof QUEUE_BACKENDS)[number];

export interface QueueSettings {
  backend: QueueBackend;
  /** redis://host:port/db (required for bullmq). */
  redisUrl?: string;
  /** Largest result file a worker may send back through Redis [MiB]. */
  maxResultMb: number;
  /** A results folder shared with the workers: result files are written there, not sent through Redis. */
  sharedResultsDir?: string;
}

export const DEFAULT_MAX_RESULT_MB = 64;

export function queueSettingsFromEnv(env: NodeJS.ProcessEnv = process.env): QueueSettings {
  const backend = env.PESIM_QUEUE || 'embedded';
  if (!(QUEUE_BACKENDS as readonly string[]).includes(backend)) {
    throw new Error(`PESIM_QUEUE must be one of ${QUEUE_BACKENDS.join(', ')} (got ${JSON.stringify(backend)})`);
  }
  const mb = env.PESIM_MAX_RESULT_MB ? Number(env.PESIM_MAX_RESULT_MB) : DEFAULT_MAX_RESULT_MB;
  if (!Number.isFinite(mb) || mb <= 0 || mb > 400) throw new Error(`PESIM_MAX_RESULT_MB must be a number of MiB from 0 to 400, got ${JSON.stringify(env.PESIM_MAX_RESULT_MB)}`);
  const shared = env.PESIM_SHARED_RESULTS_DIR?.trim();
  return { backend: backend as QueueBackend, redisUrl: env.PESIM_REDIS_URL || undefined, maxResultMb: mb, sharedResultsDir: shared ? resolve(shared) : undefined };
}

/** Problems of the settings, each naming the setting (`where` says how the service spells them). */
export function checkQueueSettings(settings: QueueSettings, where: { backend: string; redisUrl: string }): string[] {
  if (settings.backend !== 'bullmq') return [];
  if (!settings.redisUrl) return [`${where.backend} is bullmq but no Redis URL is set: set ${where.redisUrl}`];
  try {
    parseRedisUrl(settings.redisUrl);
    return [];
  } catch (error) {
    return [`${where.redisUrl}: ${(error as Error).message}`];
  }
}

/** This data directory's identity in Redis: job ids start with it, so a restarted service knows its own jobs. */
export function serviceIdentity(dataDir: string): string {
  const file = join(dataDir, 'service-id');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const id = randomUUID().replaceAll('-', '').slice(0, 16);
  writeFileSync(file, `${id}\n`);
  return id;
}
