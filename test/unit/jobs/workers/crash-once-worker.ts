// Test worker: for netlists named "crash-once:<marker file>", the first attempt kills its worker
// thread (as a native crash would end it) and leaves the marker; later attempts run normally.
import { existsSync, writeFileSync } from 'node:fs';
import runTask from '../../../../src/jobs/executors/embedded-worker.js';
import type { ExecutionRequest } from '../../../../src/jobs/executors/types.js';

export default function run(request: ExecutionRequest): unknown {
  const name = request.spec.netlist.name ?? '';
  if (name.startsWith('crash-once:')) {
    const marker = name.slice('crash-once:'.length);
    if (!existsSync(marker)) {
      writeFileSync(marker, 'crashed');
      process.exit(70); // ends this worker thread only
    }
  }
  return runTask(request);
}
