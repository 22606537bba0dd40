// Entry of the test worker threads: registers tsx's TypeScript hooks in this thread before loading
// the TypeScript worker (the hooks inherited through --import are not reliably in place when
// piscina loads its task module, nor for the modules that module imports on demand).
import { register } from 'tsx/esm/api';

register();
const { default: run } = await import('./flaky-worker.ts');
export default run;
