// Child process of bench/http.ts: the compiled simulation service (dist/) in a plain `node`
// process, as `pesim serve` runs it, so that neither the client's work nor a TypeScript loader in
// the worker threads is measured with it. Reads its settings as JSON on stdin, prints
// `url <address>` when listening, and stops on SIGTERM.
import { readFileSync } from 'node:fs';

const { tuneV8ForService } = await import(new URL('../dist/src/http/v8-tuning.js', import.meta.url).href);
const { startSimulationService } = await import(new URL('../dist/src/server/server.js', import.meta.url).href);
const service = await startSimulationService(JSON.parse(readFileSync(0, 'utf8')));
tuneV8ForService(); // once started, as `pesim serve` does
console.log(`url ${service.url}`);
process.once('SIGTERM', () => void service.close().then(() => process.exit(0)));
