// The embedded executor's threads: started with the executor by default, and with deferThreads
// (what `pesim serve` asks for, so that it listens first) only on startThreads() or the first run.
// A test worker records when its thread starts (workers/started-marker-worker.ts).
import { expect } from 'chai';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { RunController } from '../../../src/engine/index.js';
import { EmbeddedExecutor } from '../../../src/jobs/executors/embedded.js';
import type { ExecutionRequest } from '../../../src/jobs/executors/types.js';
import { buck } from '../../fixtures/circuits.js';

const workerFile = fileURLToPath(new URL('./workers/started-marker-worker.ts', import.meta.url));
const marker = join(mkdtempSync(join(tmpdir(), 'pesim-executor-')), 'started');
let counter = 0;

/** Worker threads started so far (each appends a line to the marker file when it loads). */
const started = (): number => (existsSync(marker) ? readFileSync(marker, 'utf8').split('\n').filter(Boolean).length : 0);

async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 300 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 50));
  expect(condition(), 'condition not met within 15 s').to.equal(true);
}

const request = (): ExecutionRequest => ({ taskId: `t${counter++}`, spec: { netlist: buck({ tEnd: 1e-4 }), parameters: {} }, buffers: new RunController().buffers });

describe('jobs: embedded executor threads', function () {
  this.timeout(60_000);
  const open: EmbeddedExecutor[] = [];
  const previous = process.env.PESIM_TEST_STARTED_MARKER;
  // A worker thread copies the environment when it starts, so the variable stays set throughout.
  before(() => {
    process.env.PESIM_TEST_STARTED_MARKER = marker;
  });
  after(() => {
    if (previous === undefined) delete process.env.PESIM_TEST_STARTED_MARKER;
    else process.env.PESIM_TEST_STARTED_MARKER = previous;
  });
  const executor = (deferThreads: boolean): EmbeddedExecutor => {
    const created = new EmbeddedExecutor({ threads: 1, workerFile, deferThreads });
    open.push(created);
    return created;
  };
  afterEach(async () => {
    await Promise.all(open.splice(0).map((e) => e.close()));
  });

  it('starts its threads with the executor, or with deferThreads on startThreads()', async () => {
    const before = started();
    const deferred = executor(true);
    const eager = executor(false);
    expect((await eager.run(request())).ok).to.equal(true);
    // The eager executor's thread started and ran a task; the deferred one, created first, did not start.
    expect(started()).to.equal(before + 1);
    deferred.startThreads();
    deferred.startThreads(); // once only
    await until(() => started() === before + 2);
    expect((await deferred.run(request())).ok).to.equal(true);
    expect(started()).to.equal(before + 2);
  });

  it('with deferThreads starts them on the first run, and refuses runs once closed', async () => {
    const before = started();
    const deferred = executor(true);
    const outcome = await deferred.run(request());
    expect(outcome.ok, JSON.stringify(outcome)).to.equal(true);
    expect(started()).to.equal(before + 1);
    await deferred.close();
    expect(await deferred.run(request())).to.deep.include({ ok: false });
    const unstarted = executor(true);
    await unstarted.close();
    expect(await unstarted.run(request())).to.deep.include({ ok: false });
    unstarted.startThreads(); // no threads once closed
    expect(await unstarted.run(request())).to.deep.include({ ok: false });
    expect(started()).to.equal(before + 1);
  });
});
