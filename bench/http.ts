// HTTP service benchmark: submit-to-completed latency of a 1 ms buck (10 000 steps) through the
// simulation service — POST /api/v1/simulations, then the SSE stream until its COMPLETED message —
// against the engine's own run time (durationMs = the run's wallMs), p50 and p99 over two bounded
// windows (just after start, and the steady state), with the default durability and with
// PESIM_DURABILITY=full; plus the request
// rate of status reads (autocannon, bounded in time). It measures
// the compiled package (dist/) in a plain `node` child process (bench/http-server.mjs), as
// `pesim serve` runs it; the client is this process. Returns table lines for bench/run.ts.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { Agent, get, request } from 'node:http';
import { performance } from 'node:perf_hooks';
import autocannon from 'autocannon';
import { fileURLToPath } from 'node:url';
import { buck } from '../test/fixtures/circuits.js';
import { benchDataDir } from './data-dir.mjs';
import { percentile } from './stats.js';

const RUNS = 200;
const WARM_UP = 10;
/** Submissions before the steady-state window (V8 has optimised the request path by then). */
const STEADY_FROM = 500;
const STATUS_SECONDS = 3;

/** Starts the service in its own process; resolves with the process and its base URL. */
async function startServer(settings: Record<string, unknown>, durability: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [fileURLToPath(new URL('./http-server.mjs', import.meta.url))], {
    stdio: ['pipe', 'pipe', 'inherit'],
    env: { ...process.env, PESIM_DURABILITY: durability },
  });
  child.stdin!.end(JSON.stringify(settings));
  let output = '';
  for await (const chunk of child.stdout!) {
    output += String(chunk);
    const match = /^url (\S+)$/m.exec(output);
    if (match) return { child, url: match[1] };
  }
  throw new Error(`the service did not start: ${output}`);
}


// node:http with a keep-alive agent: fetch (undici) would add about a millisecond of client work
// to every request, which is not the service's.
const agent = new Agent({ keepAlive: true, maxSockets: 4 });

function post(url: string, body: string): Promise<{ simulationId: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => (res.statusCode === 202 ? resolve(JSON.parse(text) as { simulationId: string }) : reject(new Error(`POST ${res.statusCode}: ${text}`))));
    });
    req.on('error', reject);
    req.end(body);
  });
}

function getJson<T>(url: string): Promise<T> {
  return new Promise((resolve, reject) => {
    get(url, { agent }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve(JSON.parse(text) as T));
    }).on('error', reject);
  });
}

/** Reads the event stream until the final message; resolves with its arrival time. */
function untilFinal(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = get(url, { agent }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        text += chunk;
        if (!/"status":"(COMPLETED|FAILED|CANCELLED)"/.test(text)) return;
        const at = performance.now();
        req.destroy();
        if (text.includes('"COMPLETED"')) resolve(at);
        else reject(new Error(`run did not complete: ${text.slice(-300)}`));
      });
      res.on('end', () => reject(new Error(`stream ended without a final message: ${text.slice(-300)}`)));
    });
    req.on('error', (error) => (error.message === 'socket hang up' ? undefined : reject(error)));
  });
}

interface Window { latency: number[]; engine: number[]; overhead: number[]; posting: number[] }
interface LatencyFigures { first: Window; steady: Window; lastId: string }

const newWindow = (): Window => ({ latency: [], engine: [], overhead: [], posting: [] });

/**
 * Submissions one after another, each followed until its COMPLETED message: after WARM_UP, the
 * first RUNS (a service just started: V8 is still compiling its request path), then, after
 * STEADY_FROM submissions in all, RUNS more (the steady state a running service is in).
 */
async function measureLatency(url: string): Promise<LatencyFigures> {
  const circuitFile = Buffer.from(JSON.stringify(buck({ tEnd: 1e-3, dt: 1e-7 }))).toString('base64');
  const figures: LatencyFigures = { first: newWindow(), steady: newWindow(), lastId: '' };
  for (let i = 0; i < STEADY_FROM + RUNS; i++) {
    const started = performance.now();
    const { simulationId } = await post(`${url}/api/v1/simulations`, JSON.stringify({ circuitFile, parameters: { 'R.1.R': 5 + i * 1e-3 } }));
    const posted = performance.now();
    const finished = await untilFinal(`${url}/api/v1/simulations/${simulationId}/stream`);
    const status = await getJson<{ durationMs: number }>(`${url}/api/v1/simulations/${simulationId}`);
    figures.lastId = simulationId;
    const window = i >= STEADY_FROM ? figures.steady : i >= WARM_UP && i < WARM_UP + RUNS ? figures.first : undefined;
    if (!window) continue;
    window.latency.push(finished - started);
    window.engine.push(status.durationMs);
    window.overhead.push(finished - started - status.durationMs);
    window.posting.push(posted - started);
  }
  return figures;
}

/** The service in its own process with the given durability level, for the duration of `work`. */
async function withService<T>(durability: string, work: (url: string) => Promise<T>): Promise<T> {
  const dataDir = benchDataDir('http-');
  const service = await startServer({ port: 0, host: '127.0.0.1', dataDir, logLevel: 'silent', maxConcurrent: 1, cacheEnabled: false }, durability);
  try {
    return await work(service.url);
  } finally {
    service.child.kill('SIGTERM');
    await once(service.child, 'exit'); // its data directory goes with bench/.data at the end (data-dir.mjs)
  }
}

export async function benchSection(): Promise<string[]> {
  const ms = (v: number): string => v.toFixed(2);
  const { normal, reads } = await withService('normal', async (url) => {
    const figures = await measureLatency(url);
    const statusReads = await autocannon({ url: `${url}/api/v1/simulations/${figures.lastId}`, connections: 8, duration: STATUS_SECONDS });
    return { normal: figures, reads: statusReads };
  });
  const full = await withService('full', measureLatency);
  const row = (label: string, values: number[]): string => `| ${label} | ${ms(percentile(values, 50))} | ${ms(percentile(values, 99))} |`;
  const overheadP50 = percentile(normal.steady.overhead, 50);
  return [
    `Submit-to-completed through HTTP (POST, then SSE until COMPLETED; the service in its own process, started as \`pesim serve\` starts it): 1 ms buck, 10 000 steps, one submission after another, 1 worker, result cache off; default durability (\`PESIM_DURABILITY=normal\`), and \`full\` (every result file and commit flushed to the device before the task completes). Two windows of ${RUNS} submissions: the first after start (after ${WARM_UP}), while V8 still compiles the request path, and the steady state (submissions ${STEADY_FROM + 1}–${STEADY_FROM + RUNS}); the target is for the steady state.`,
    '',
    '| measure | p50 [ms] | p99 [ms] |',
    '|---|---|---|',
    row('submit → COMPLETED message, steady state', normal.steady.latency),
    row('engine run (wallMs), steady state', normal.steady.engine),
    `| service overhead (difference per run), steady state (target p50 < 5 ms: ${overheadP50 < 5 ? 'met' : 'MISSED'}) | ${ms(overheadP50)} | ${ms(percentile(normal.steady.overhead, 99))} |`,
    row('of which POST → 202 (checks, store, queue), steady state', normal.steady.posting),
    row(`service overhead, first ${RUNS} submissions after start`, normal.first.overhead),
    row('service overhead with PESIM_DURABILITY=full, steady state', full.steady.overhead),
    row(`service overhead with PESIM_DURABILITY=full, first ${RUNS} submissions`, full.first.overhead),
    '',
    `Status reads (GET /api/v1/simulations/{id} of a completed run, 8 connections, ${STATUS_SECONDS} s): ${Math.round(reads.requests.average)} requests/s, latency p50 ${reads.latency.p50} ms, p99 ${reads.latency.p99} ms, ${reads.non2xx} non-2xx.`,
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const line of await benchSection()) console.log(line);
}
