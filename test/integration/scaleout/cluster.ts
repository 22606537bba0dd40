// Test set-up of the scale-out tests: a real redis-server on a free loopback port with an
// append-only file in a temporary directory, and `pesim worker` processes started through tsx,
// each in its own process group so that a test can SIGKILL one and the after hook can end all.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { closeConnection, redisConnection } from '../../../src/jobs/executors/bullmq/connection.js';
import { freePort } from '../../fixtures/free-port.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const cliEntry = fileURLToPath(new URL('./run-cli.ts', import.meta.url));


/** Resolves when `pattern` appears on the child's output; rejects when it exits first or after timeoutMs. */
function waitForOutput(child: ChildProcess, pattern: RegExp, timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(() => reject(new Error(`no ${pattern} within ${timeoutMs} ms; output: ${seen}`)), timeoutMs);
    const onData = (chunk: Buffer): void => {
      seen += chunk.toString();
      if (pattern.test(seen)) {
        clearTimeout(timer);
        child.stdout?.off('data', onData);
        resolve();
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (chunk: Buffer) => (seen += chunk.toString()));
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`exited with ${code} before ${pattern}: ${seen}`));
    });
  });
}

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // already gone
  }
}

async function exited(child: ChildProcess, timeoutMs = 10_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  await new Promise<void>((resolve) => {
    const timer = setTimeout(() => {
      killGroup(child, 'SIGKILL');
      resolve();
    }, timeoutMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

export class TestRedis {
  readonly dir = mkdtempSync(join(tmpdir(), 'pesim-redis-'));
  private child: ChildProcess | undefined;
  /** `options`: further redis-server options (such as --requirepass). */
  constructor(readonly port: number, private readonly options: string[] = []) {}

  get url(): string {
    return `redis://127.0.0.1:${this.port}/0`;
  }

  /** The redis-server process (while it runs). */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  static async start(options: string[] = []): Promise<TestRedis> {
    const redis = new TestRedis(await freePort(), options);
    await redis.launch();
    return redis;
  }

  async launch(): Promise<void> {
    const args = ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'yes', '--dir', this.dir, ...this.options];
    this.child = spawn('redis-server', args, { detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    await waitForOutput(this.child, /Ready to accept connections/, 10_000);
  }

  /** Stops Redis (SIGTERM: it writes its append-only file) and starts it again on the same port and directory. */
  async restart(downMs: number): Promise<void> {
    const child = this.child!;
    killGroup(child, 'SIGTERM');
    await exited(child);
    await new Promise((r) => setTimeout(r, downMs));
    await this.launch();
  }

  async stop(): Promise<void> {
    if (this.child) {
      killGroup(this.child, 'SIGTERM');
      await exited(this.child);
    }
    rmSync(this.dir, { recursive: true, force: true });
  }
}

export interface WorkerProcess {
  child: ChildProcess;
  /** What the worker printed so far (stdout and stderr). */
  output(): string;
  kill(signal?: NodeJS.Signals): Promise<void>;
}

export interface WorkerFlags {
  concurrency?: number;
  lockDurationMs?: number;
  stalledIntervalMs?: number;
  heartbeatMs?: number;
  /** --shared-results */
  sharedResults?: string;
}

const workers = new Set<WorkerProcess>();

/** Starts `pesim worker` and resolves when it takes jobs. */
export async function startWorker(redisUrl: string, flags: WorkerFlags = {}): Promise<WorkerProcess> {
  const args = ['--import', 'tsx', cliEntry, 'worker', '--redis', redisUrl, '--concurrency', String(flags.concurrency ?? 1)];
  args.push('--lock-duration', String(flags.lockDurationMs ?? 2000), '--stalled-interval', String(flags.stalledIntervalMs ?? 1000), '--heartbeat', String(flags.heartbeatMs ?? 300));
  if (flags.sharedResults !== undefined) args.push('--shared-results', flags.sharedResults);
  const child = spawn(process.execPath, args, { cwd: root, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let printed = '';
  for (const stream of [child.stdout!, child.stderr!]) stream.on('data', (chunk: Buffer) => (printed += chunk.toString()));
  const worker: WorkerProcess = {
    child,
    output: () => printed,
    async kill(signal: NodeJS.Signals = 'SIGKILL') {
      killGroup(child, signal);
      // A graceful stop waits for BullMQ's blocking read to return (seconds, more on a loaded
      // machine) before the worker exits; only a process that outlives this is SIGKILLed.
      await exited(child, signal === 'SIGKILL' ? 10_000 : 60_000);
      workers.delete(worker);
    },
  };
  workers.add(worker);
  await waitForOutput(child, /taking jobs/, 60_000);
  return worker;
}

/** Ends every worker started and still running (after hooks). */
export async function killAllWorkers(): Promise<void> {
  await Promise.all([...workers].map((w) => w.kill('SIGKILL')));
}

/** Waits until `count` workers have heartbeat keys. */
export async function waitForWorkers(redisUrl: string, count: number, timeoutMs = 30_000): Promise<void> {
  const client = redisConnection(redisUrl, 'pesim:test');
  try {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const [, keys] = await client.scan('0', 'MATCH', 'pesim:workers:*', 'COUNT', 10_000);
      if (keys.length >= count) return;
      if (Date.now() > deadline) throw new Error(`${keys.length} workers alive after ${timeoutMs} ms, expected ${count}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  } finally {
    await closeConnection(client, 1000);
  }
}
