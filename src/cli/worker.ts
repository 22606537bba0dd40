// `pesim worker`: runs the simulations of services in BullMQ mode (PESIM_QUEUE=bullmq) on this
// machine, taking jobs from the Redis both reach. SIGINT or SIGTERM stops taking jobs and lets
// the running ones finish; a second signal exits at once (the jobs then stall and move to another
// worker). The worker (BullMQ, the engine) is imported when the command runs (see main.ts).
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { DEFAULT_WORKER_OPTIONS } from '../jobs/executors/bullmq/worker-options.js';
import { stopSignals } from './stop-signals.js';
import { examples } from './help.js';
import { importQueueModule } from '../jobs/executors/bullmq/packages.js';
import { parseRedisUrl } from '../jobs/executors/bullmq/redis-url.js';

interface WorkerFlags {
  redis?: string;
  concurrency?: string;
  lockDuration?: string;
  stalledInterval?: string;
  heartbeat?: string;
  sharedResults?: string;
}

function positiveInteger(raw: string | undefined, flag: string, fallback: number): number {
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${flag} must be a positive integer, got ${JSON.stringify(raw)}`);
  return value;
}

function optionalPath(raw: string | undefined): string | undefined {
  return raw === undefined || raw.trim() === '' ? undefined : resolve(raw.trim());
}

export function registerWorker(program: Command): void {
  program
    .command('worker')
    .description('run simulations for services in BullMQ mode (PESIM_QUEUE=bullmq), taking jobs from Redis')
    .option('--redis <url>', 'Redis URL, redis://host:6379/0 (env PESIM_REDIS_URL)')
    .option('--concurrency <n>', 'simulations at once, one thread each (env PESIM_WORKER_CONCURRENCY, default: the number of cores)')
    .option('--lock-duration <ms>', `job lock; a job whose worker stops renewing it this long is stalled (env PESIM_WORKER_LOCK_MS, default ${DEFAULT_WORKER_OPTIONS.lockDurationMs})`)
    .option('--stalled-interval <ms>', `how often to look for stalled jobs (env PESIM_WORKER_STALLED_MS, default ${DEFAULT_WORKER_OPTIONS.stalledIntervalMs})`)
    .option('--heartbeat <ms>', `heartbeat interval; the worker counts as gone after ${3} missed beats (env PESIM_WORKER_HEARTBEAT_MS, default ${DEFAULT_WORKER_OPTIONS.heartbeatMs})`)
    .option('--shared-results <dir>', 'results folder shared with the services (their shared-results setting): result files are written there instead of sent through Redis (env PESIM_SHARED_RESULTS_DIR)')
    .addHelpText('after', examples(
      ['pesim worker --redis redis://127.0.0.1:6379/0', 'take jobs of the services started with PESIM_QUEUE=bullmq, one thread per core'],
      ['PESIM_REDIS_URL=redis://queue.lan:6379/0 pesim worker --concurrency 4', 'four simulations at once, Redis from the environment'],
      ['pesim worker --redis redis://queue.lan:6379/0 --shared-results /mnt/pesim-results', 'result files into the folder the services share, not through Redis'],
    ))
    .action(async (flags: WorkerFlags) => {
      const { RemoteWorker } = await importQueueModule(() => import('../jobs/executors/bullmq/remote-worker.js'));
      const env = process.env;
      const redisUrl = flags.redis ?? env.PESIM_REDIS_URL;
      if (!redisUrl) throw new Error('--redis (or PESIM_REDIS_URL) is required: the Redis URL the services use, e.g. redis://127.0.0.1:6379/0');
      try {
        parseRedisUrl(redisUrl);
      } catch (error) {
        throw new Error(`--redis (or PESIM_REDIS_URL): ${(error as Error).message}`);
      }
      const worker = new RemoteWorker({
        ...DEFAULT_WORKER_OPTIONS,
        redisUrl,
        concurrency: positiveInteger(flags.concurrency ?? env.PESIM_WORKER_CONCURRENCY, '--concurrency', availableParallelism()),
        lockDurationMs: positiveInteger(flags.lockDuration ?? env.PESIM_WORKER_LOCK_MS, '--lock-duration', DEFAULT_WORKER_OPTIONS.lockDurationMs),
        stalledIntervalMs: positiveInteger(flags.stalledInterval ?? env.PESIM_WORKER_STALLED_MS, '--stalled-interval', DEFAULT_WORKER_OPTIONS.stalledIntervalMs),
        heartbeatMs: positiveInteger(flags.heartbeat ?? env.PESIM_WORKER_HEARTBEAT_MS, '--heartbeat', DEFAULT_WORKER_OPTIONS.heartbeatMs),
        sharedResultsDir: optionalPath(flags.sharedResults ?? env.PESIM_SHARED_RESULTS_DIR),
        log: (message) => console.error(`pesim: worker: ${message}`),
      });
      const signals = stopSignals();
      await worker.start();
      const through = worker.sharedResultsDir ? `; result files into the shared folder ${worker.sharedResultsDir}` : '';
      signals.ready();
      console.log(`pesim: worker ${worker.id} taking jobs from ${redisUrl.replace(/\/\/[^@/]*@/, '//***@')}${through}`);
      console.log(`pesim: ${await signals.stopped}: finishing the running simulations`);
      await worker.close();
    });
}
