// Test worker of the job-queue tests: runs tasks with the embedded worker, except that a model file
// named flaky-<n>.json fails its first n attempts with a transient error (as a lost simulator
// connection would), counted per task in files under JOBQ_TEST_MARKER_DIR. Loaded through loader.mjs.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import runTask from '../../../../src/jobs/executors/embedded-worker.js';
import type { ExecutionRequest } from '../../../../src/jobs/executors/types.js';

export default async function run(request: ExecutionRequest): Promise<unknown> {
  const match = /^flaky-(\d+)\.json$/.exec(request.spec.netlist.name ?? '');
  const dir = process.env.JOBQ_TEST_MARKER_DIR;
  if (match && dir) {
    const marker = join(dir, request.taskId);
    const failures = existsSync(marker) ? Number(readFileSync(marker, 'utf8')) : 0;
    if (failures < Number(match[1])) {
      writeFileSync(marker, String(failures + 1));
      return { ok: false, error: { code: 'SIMULATOR_CONNECTION_ERROR', message: `injected transient failure ${failures + 1}`, deterministic: false } };
    }
  }
  return runTask(request);
}
