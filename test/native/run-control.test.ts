// Running off the main thread: progress, cancel, pause/resume, and concurrent runs in workers.
import { expect } from 'chai';
import { Piscina } from 'piscina';
import { CancelledError, RunController, simulate, type Progress } from '../../src/index.js';
import { buck } from '../fixtures/circuits.js';
import type { WorkerOutcome } from './workers/simulate-worker.js';

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

async function waitFor(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const start = Date.now();
  while (!condition()) {
    if (Date.now() - start > timeoutMs) throw new Error('condition not reached in time');
    await sleep(2);
  }
}

// Long enough (≈ 1–2 s) to act on mid-run.
const longBuck = () => buck({ tEnd: 0.5, dt: 100e-9 });

describe('run control', () => {
  it('reports progress while the run goes on and 100 % at the end', async () => {
    const seen: Progress[] = [];
    const r = await simulate(buck({ tEnd: 0.1 }), { onProgress: (p) => seen.push(p), progressIntervalMs: 10 });
    expect(r.stats.steps).to.equal(1_000_000);
    expect(seen.length).to.be.greaterThan(1);
    const middle = seen.find((p) => p.phase === 'main' && p.percent > 0 && p.percent < 100);
    expect(middle, 'a progress report during the run').to.not.equal(undefined);
    expect(seen.at(-1)!.percent).to.equal(100);
  });

  it('cancels a running simulation through an AbortSignal at its next look at the flags', async () => {
    const controller = new RunController();
    const abort = new AbortController();
    const run = simulate(longBuck(), { controller, signal: abort.signal });
    await waitFor(() => controller.progress().step > 0);
    abort.abort();
    // Read after the abort: the engine has looked at the flags at this step or later; it stops at
    // the next look, one control interval (64 steps, native/core/src/transient/transient.cpp) on.
    const seenAfterAbort = controller.progress().step;
    const error = await run.then(() => undefined, (e: unknown) => e);
    expect(error).to.be.instanceOf(CancelledError);
    expect(controller.progress().step - seenAfterAbort).to.be.at.most(64);
    expect(controller.progress().step).to.be.below(5_000_000);
  });

  it('pauses mid-run, holds still, and resumes to the same result as an uninterrupted run', async () => {
    const reference = await simulate(buck({ tEnd: 0.2 }));
    const controller = new RunController();
    const run = simulate(buck({ tEnd: 0.2 }), { controller });
    await waitFor(() => controller.progress().step > 10_000);
    controller.pause();
    await waitFor(() => controller.progress().paused);
    const held = controller.progress().step;
    await sleep(50);
    expect(controller.progress().step, 'no steps while paused').to.equal(held);
    expect(held).to.be.below(2_000_000);
    controller.resume();
    const resumed = await run;
    expect(resumed.stats.steps).to.equal(reference.stats.steps);
    expect(resumed.measurements).to.deep.equal(reference.measurements);
    expect(Array.from(resumed.signals['SCOPE.1.ch1'])).to.deep.equal(Array.from(reference.signals['SCOPE.1.ch1']));
  });

  it('cancels a paused run', async () => {
    const controller = new RunController();
    const run = simulate(longBuck(), { controller });
    await waitFor(() => controller.progress().step > 0);
    controller.pause();
    await waitFor(() => controller.progress().paused);
    controller.cancel();
    const error = await run.then(() => undefined, (e: unknown) => e);
    expect(error).to.be.instanceOf(CancelledError);
  });

  it('runs the addon in two piscina worker threads at once with correct results', async () => {
    const pool = new Piscina({ filename: new URL('./workers/simulate-worker.ts', import.meta.url).href, minThreads: 2, maxThreads: 2 });
    try {
      const duties = [0.25, 0.5, 0.75, 0.4];
      const results = await Promise.all(
        duties.map((duty) => pool.run({ netlist: buck({ duty, tEnd: 30e-3, dt: 200e-9, ron: 1e-4, vf: 0 }) })),
      );
      results.forEach((r: WorkerOutcome, i) => expect(r.average).to.be.closeTo(48 * duties[i], 0.5));
      const threads = new Set(results.map((r: WorkerOutcome) => r.threadId));
      expect(threads.size).to.equal(2);
    } finally {
      await pool.destroy();
    }
  });

  it('cancels a run inside a worker thread through shared buffers', async () => {
    const pool = new Piscina({ filename: new URL('./workers/simulate-worker.ts', import.meta.url).href, maxThreads: 1 });
    try {
      const controller = new RunController();
      const run = pool.run({ netlist: longBuck(), buffers: controller.buffers });
      await waitFor(() => controller.progress().step > 0);
      controller.cancel();
      const outcome = (await run) as WorkerOutcome;
      expect(outcome.error?.code).to.equal('CANCELLED');
      expect(outcome.average).to.equal(undefined);
    } finally {
      await pool.destroy();
    }
  });
});
