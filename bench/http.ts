// HTTP service benchmark: submit-to-completed latency of a 1 ms buck (10 000 steps) through the
// simulation service — POST /api/v1/simulations, then the SSE stream until its COMPLETED message —
// against the engine's own run time (durationMs = the run's wallMs), p50 and p99 over a bounded
// number of runs; plus the request rate of status reads (autocannon, bounded in time). It measures
// the compiled package (dist/) in a plain `node` child process (bench/http-server.mjs), as
// `pesim serve` runs it; the client is this process. Returns table lines for bench/run.ts.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import autocannon from 'autocannon';
import { fileURLToPath } from 'node:url';
import { buck } from '../test/fixtures/circuits.js';

const RUNS = 200;
const WARM_UP = 10;
const STATUS_SECONDS = 3;

/** Starts the service in its own process; resolves with the process and its base URL. */
async function startServer(settings: Record<string, unknown>): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [fileURLToPath(new URL('./http-server.mjs', import.meta.url))], { stdio: ['pipe', 'pipe', 'inherit'] });
  child.stdin!.end(JSON.stringify(settings));
  let output = '';
  for await (const chunk of child.stdout!) {
    output += String(chunk);
    const match = /^url (\S+)$/m.exec(output);
    if (match) return { child, url: match[1] };
  }
  throw new Error(`the service did not start: ${output}`);
}

const percentile = (values: number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
};

/** Reads the event stream until the final message; resolves with its arrival time. */
async function untilFinal(url: string): Promise<number> {
  const response = await fetch(url);
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`stream ended without a final message: ${text.slice(-300)}`);
    text += decoder.decode(value, { stream: true });
    if (/"status":"(COMPLETED|FAILED|CANCELLED)"/.test(text)) {
      const at = performance.now();
      await reader.cancel();
      if (!text.includes('"COMPLETED"')) throw new Error(`run did not complete: ${text.slice(-300)}`);
      return at;
    }
  }
}

export async function benchSection(): Promise<string[]> {
  const dataDir = mkdtempSync(join(tmpdir(), 'pesim-bench-http-'));
  const service = await startServer({ port: 0, host: '127.0.0.1', dataDir, logLevel: 'silent', maxConcurrent: 1, cacheEnabled: false });
  try {
    const circuitFile = Buffer.from(JSON.stringify(buck({ tEnd: 1e-3, dt: 1e-7 }))).toString('base64');
    const latency: number[] = [];
    const engine: number[] = [];
    const overhead: number[] = [];
    const posting: number[] = [];
    let lastId = '';
    for (let i = 0; i < WARM_UP + RUNS; i++) {
      const started = performance.now();
      const r = await fetch(`${service.url}/api/v1/simulations`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ circuitFile, parameters: { 'R.1.R': 5 + i * 1e-3 } }),
      });
      const { simulationId } = (await r.json()) as { simulationId: string };
      const posted = performance.now();
      const finished = await untilFinal(`${service.url}/api/v1/simulations/${simulationId}/stream`);
      const status = (await (await fetch(`${service.url}/api/v1/simulations/${simulationId}`)).json()) as { durationMs: number };
      lastId = simulationId;
      if (i < WARM_UP) continue;
      latency.push(finished - started);
      engine.push(status.durationMs);
      overhead.push(finished - started - status.durationMs);
      posting.push(posted - started);
    }
    const reads = await autocannon({ url: `${service.url}/api/v1/simulations/${lastId}`, connections: 8, duration: STATUS_SECONDS });
    const ms = (v: number): string => v.toFixed(2);
    return [
      `Submit-to-completed through HTTP (POST, then SSE until COMPLETED; the service in its own process): 1 ms buck, 10 000 steps, ${RUNS} runs one after another, 1 worker, result cache off.`,
      '',
      '| measure | p50 [ms] | p99 [ms] |',
      '|---|---|---|',
      `| submit → COMPLETED message | ${ms(percentile(latency, 50))} | ${ms(percentile(latency, 99))} |`,
      `| engine run (wallMs) | ${ms(percentile(engine, 50))} | ${ms(percentile(engine, 99))} |`,
      `| service overhead (difference per run) | ${ms(percentile(overhead, 50))} | ${ms(percentile(overhead, 99))} |`,
      `| of which POST → 202 (checks, store, queue) | ${ms(percentile(posting, 50))} | ${ms(percentile(posting, 99))} |`,
      '',
      `Status reads (GET /api/v1/simulations/{id} of a completed run, 8 connections, ${STATUS_SECONDS} s): ${Math.round(reads.requests.average)} requests/s, latency p50 ${reads.latency.p50} ms, p99 ${reads.latency.p99} ms, ${reads.non2xx} non-2xx.`,
    ];
  } finally {
    service.child.kill('SIGTERM');
    await once(service.child, 'exit');
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const line of await benchSection()) console.log(line);
}
