// Child process of the restart test: starts a runtime on the given directory with one worker,
// submits one long task and three short ones, reports when the long one runs, then waits to be
// killed (SIGKILL, mid-run).
import { createRuntime, defaultRuntimeSettings } from '../../../../src/jobs/runtime.js';
import { buck } from '../../../fixtures/circuits.js';

const dir = process.argv[2];
const settings = defaultRuntimeSettings(dir);
settings.maxConcurrentSimulations = 1;
settings.cache.enabled = false;
const runtime = createRuntime(settings);
const submit = (tEnd: number, name: string) =>
  runtime.scheduler.submit({ owner: 'test', priority: 'NORMAL', spec: { netlist: { ...buck({ tEnd }), name }, parameters: {} }, request: {}, modelName: name });
const long = await submit(5, 'long');
for (let i = 0; i < 3; i++) await submit(2e-3, `short-${i}`);
runtime.events.on('progress', (task) => {
  if (task.id === long.id && (task.progress?.step ?? 0) > 1000) console.log(`RUNNING ${long.id}`);
});
setInterval(() => {}, 1000);
