// A restart loses nothing: a process killed mid-run (SIGKILL) leaves its tasks in the store; the
// next start re-queues the interrupted run (counted as an attempt) and runs the queued ones.
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { testRuntime, waitForState, type TestRuntime } from './harness.js';

const child = fileURLToPath(new URL('./workers/restart-child.ts', import.meta.url));

describe('restart recovery', function () {
  this.timeout(90_000);
  let runtime: TestRuntime | undefined;
  const dir = mkdtempSync(join(tmpdir(), 'pesim-restart-'));
  after(async () => {
    await runtime?.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  it('re-queues the killed run and completes every task after the restart', async () => {
    const proc = spawn(process.execPath, ['--import', 'tsx', child, dir], { stdio: ['ignore', 'pipe', 'inherit'] });
    const longId = await new Promise<string>((resolve, reject) => {
      proc.stdout.on('data', (chunk: Buffer) => {
        const match = /RUNNING (\S+)/.exec(chunk.toString());
        if (match) resolve(match[1]);
      });
      proc.once('exit', (code) => reject(new Error(`child exited early (${code})`)));
    });
    proc.kill('SIGKILL');
    await new Promise((resolve) => proc.once('exit', resolve));

    runtime = testRuntime((s) => {
      s.maxConcurrentSimulations = 1;
      s.cache.enabled = false;
    }, {}, dir);
    const all = runtime.store.tasks.list({}).tasks;
    expect(all).to.have.length(4);
    const done = await Promise.all(all.map((t) => waitForState(runtime!, t.id, ['completed', 'failed'], 60_000)));
    for (const t of done) expect(t.state, t.spec.netlist.name).to.equal('completed');
    const long = done.find((t) => t.id === longId)!;
    expect(long.attempts).to.equal(2);
    for (const t of done.filter((t) => t.id !== longId)) expect(t.attempts).to.equal(1);
  });
});
