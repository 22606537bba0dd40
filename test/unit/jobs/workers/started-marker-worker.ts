// Test worker: appends a line to the file named by PESIM_TEST_STARTED_MARKER when its thread loads
// this module (the thread started), then runs tasks as the embedded worker does.
import { appendFileSync } from 'node:fs';
import runTask from '../../../../src/jobs/executors/embedded-worker.js';

const marker = process.env.PESIM_TEST_STARTED_MARKER;
if (marker) appendFileSync(marker, 'started\n');

export default runTask;
