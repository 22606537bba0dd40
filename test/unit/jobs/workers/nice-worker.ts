// Test worker: the embedded worker module (whose loading sets the thread's priority), answering
// every run with this thread's nice value as the error message.
import '../../../../src/jobs/executors/embedded-worker.js';
import { threadNice } from '../../../../src/threads/priority.js';

export default function run(): unknown {
  return { ok: false, error: { code: 'NICE', message: String(threadNice()), deterministic: true } };
}
