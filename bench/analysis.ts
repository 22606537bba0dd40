// Analysis benchmarks: the 2^20- and 2^23-point real FFT of the addon against fft.js
// (realTransform) in the same process, best and median of 30 runs (10 at 2^23), with the output array reused and fresh; characteristics of 10 M samples; and the
// throughput of POST /api/v1/analysis/rms with 10 000 samples on the real service (autocannon,
// 10 s, 10 connections).
import { rmSync } from 'node:fs';
import autocannon from 'autocannon';
import FFT from 'fft.js';
import { characteristics, spectrumSync } from '../src/engine/analysis.js';
import { startSimulationService } from '../src/server/server.js';
import { benchDataDir } from './data-dir.mjs';

/** Best and median of `runs` wall times [ms] (after one warm-up). */
function timed(runs: number, work: () => void): { best: number; median: number } {
  work();
  const times: number[] = [];
  for (let r = 0; r < runs; r++) {
    const t = performance.now();
    work();
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  return { best: times[0]!, median: times[Math.floor(runs / 2)]! };
}

// Real FFT of 2^bits points, addon against fft.js. The addon's first call builds and caches the
// plan (best() warms up once). Like for like with fft.js's realTransform (plan and output array
// reused): spectrumSync(x, out); the fresh-output figure adds allocating and faulting in 16·N bytes.
export function fftComparison(bits: number): string[] {
  const n = 2 ** bits;
  const x = new Float64Array(n);
  for (let j = 0; j < n; j++) x[j] = Math.sin(j * 0.01) + 0.25 * Math.sin(j * 0.37);
  const firstCall = performance.now();
  const out = spectrumSync(x);
  const withPlan = performance.now() - firstCall;
  // Both sides the same number of runs; the machine is shared, so best and median are printed.
  const runs = bits <= 20 ? 30 : 10;
  const reused = timed(runs, () => spectrumSync(x, out));
  const fresh = timed(runs, () => spectrumSync(x));
  const plan = new FFT(n);
  const jsOut = plan.createComplexArray() as number[];
  const input = Array.from(x);
  const js = timed(runs, () => plan.realTransform(jsOut, input));
  const ratio = js.best / reused.best;
  const row = (label: string, t: { best: number; median: number }, note: string): string =>
    `| real FFT, 2^${bits} points: ${label} | ${t.best.toFixed(1)} ms (median ${t.median.toFixed(1)}) | ${note} |`;
  return [
    row(`pesim addon, output array reused (spectrumSync(x, out), as fft.js; first call with plan ${withPlan.toFixed(1)} ms)`, reused,
      `${ratio.toFixed(1)}× fft.js (median ${(js.median / reused.median).toFixed(1)}×)${bits === 20 ? ` (target ≥ 5×: ${ratio >= 5 ? 'met' : 'MISSED'})` : ''}`),
    row('pesim addon, fresh output array (spectrumSync(x))', fresh, `${(js.best / fresh.best).toFixed(1)}× fft.js`),
    row('fft.js realTransform (plan and output reused)', js, '1.0×'),
  ];
}

export async function characteristics10M(): Promise<string> {
  const n = 10_000_000;
  const x = new Float64Array(n);
  for (let j = 0; j < n; j++) x[j] = 2 + Math.sin((2 * Math.PI * 50 * j) / 1e6) + 0.1 * Math.sin((2 * Math.PI * 250 * j) / 1e6);
  await characteristics(x.subarray(0, 1000), 1e6);
  const t = performance.now();
  const c = await characteristics(x, 1e6);
  const ms = performance.now() - t;
  return `| characteristics, 10 M samples (auto fundamental, THD to Nyquist), async | ${ms.toFixed(0)} ms | thd ${c.thd.toFixed(6)} |`;
}

export async function rmsThroughput(): Promise<string> {
  const dataDir = benchDataDir('analysis-');
  const service = await startSimulationService({ port: 0, host: '127.0.0.1', dataDir, logLevel: 'silent' });
  try {
    const data = Array.from({ length: 10_000 }, (_, j) => Math.sin(j / 10));
    const result = await autocannon({
      url: `${service.url}/api/v1/analysis/rms`, method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ data }), connections: 10, duration: 10, // bounded by time (autocannon ignores duration when amount is set)
    });
    const errors = result.non2xx + result.errors;
    return `| POST /api/v1/analysis/rms, 10 000 samples, 10 connections, 10 s | ${result.requests.average.toFixed(0)} req/s | p99 ${result.latency.p99} ms, ${errors} errors |`;
  } finally {
    await service.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export async function benchSection(): Promise<string[]> {
  return ['| analysis case | time / rate | note |', '|---|---|---|', ...fftComparison(20), ...fftComparison(23), await characteristics10M(), await rmsThroughput()];
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop()!)) {
  for (const line of await benchSection()) console.log(line);
}
