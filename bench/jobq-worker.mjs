// Worker-thread entry of the job-queue benchmark and load test when they run from the TypeScript
// sources: registers tsx's hooks in this thread, then loads the embedded worker (the hooks inherited
// through --import are not reliably in place for piscina's task module and its on-demand imports).
import { register } from 'tsx/esm/api';

register();
const { default: run } = await import('../src/jobs/executors/embedded-worker.ts');
export default run;
