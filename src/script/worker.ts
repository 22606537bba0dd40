// The thread that runs scripts for `pesim script`: one ScriptContext (variables, circuit, runs) for
// the life of the thread, driven by messages from the command (see worker-protocol.ts).
import { parentPort, workerData } from 'node:worker_threads';
import { ScriptContext } from './context.js';
import { formatScriptError, ScriptError } from './errors.js';
import type { FromWorker, ToWorker, WorkerSettings } from './worker-protocol.js';

const settings = workerData as WorkerSettings;
const port = parentPort!;
const interrupt = new Int32Array(settings.interrupt);
const send = (message: FromWorker): void => port.postMessage(message);

const context = new ScriptContext({
  write: (text) => send({ type: 'out', text }),
  warn: (text) => send({ type: 'err', text }),
  maxSteps: settings.maxSteps,
  interrupt,
  onProgress: settings.progress ? (progress) => send({ type: 'progress', progress }) : undefined,
  baseDir: settings.baseDir,
  outputDir: settings.outputDir,
});

async function handle(message: Exclude<ToWorker, { type: 'stop' }>): Promise<void> {
  try {
    if (message.type === 'circuit') await context.loadCircuit(message.path);
    else if (message.type === 'file' && message.ipes) await context.runIpes(message.path);
    else if (message.type === 'file') {
      const { readFile } = await import('node:fs/promises');
      await context.run({ name: message.path, text: await readFile(message.path, 'utf8'), firstLine: 1 });
    } else await context.runInput(message.source);
    send({ type: 'done' });
  } catch (error) {
    if (error instanceof ScriptError) send({ type: 'done', error: { kind: error.kind, text: formatScriptError(error) } });
    else send({ type: 'done', error: { kind: 'failure', text: error instanceof Error ? error.message : String(error) } });
  }
}

port.on('message', (message: ToWorker) => {
  if (message.type === 'stop') context.stopSimulation();
  else void handle(message);
});
