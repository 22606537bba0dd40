// Child process of bench/throughput.ts: the compiled job-queue service (dist/) in a plain `node`
// process, as `pesim jobq` runs it. Reads {config overrides, models: {file: netlist}} as JSON on
// stdin, writes the models into config.simulator.models_dir, prints `url <address>` when listening,
// and stops on SIGTERM.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const { tuneV8ForService } = await import(new URL('../dist/src/http/v8-tuning.js', import.meta.url).href);
const { defaultConfig } = await import(new URL('../dist/src/jobq/config.js', import.meta.url).href);
const { startJobq } = await import(new URL('../dist/src/jobq/server.js', import.meta.url).href);
const { pino } = await import('pino');

const { dataDir, modelsDir, threads, queueSize, models } = JSON.parse(readFileSync(0, 'utf8'));
mkdirSync(modelsDir, { recursive: true });
for (const [file, netlist] of Object.entries(models)) writeFileSync(join(modelsDir, file), JSON.stringify(netlist));
const config = defaultConfig();
Object.assign(config.api, { host: '127.0.0.1', port: 0, max_body_mb: 512 });
config.data_dir = dataDir;
config.simulator.models_dir = modelsDir;
config.cache.enabled = false;
config.orchestration.queue_size = queueSize;
config.orchestration.max_concurrent_simulations = threads;
const jobq = await startJobq(config, { logger: pino({ level: 'silent' }) });
tuneV8ForService();
console.log(`url ${jobq.url}`);
process.once('SIGTERM', () => void jobq.close().then(() => process.exit(0)));
