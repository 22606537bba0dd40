// Dashboard benchmark: the page served by the simulation service on loopback, loaded in chromium
// (playwright-core; PESIM_CHROMIUM or /usr/bin/chromium): navigation start to the load event, cold
// (a new browser context, nothing cached) and warm (reloaded, the hashed bundle from the cache);
// the bundle's size gzip-compressed (target: load under 1 s, bundle under 300 kB); and the min/max
// decimation of a 5-million-sample waveform to one plot width. Returns table lines for bench/run.ts.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { buildWeb } from '../scripts/build-web.mjs';
import { startSimulationService } from '../src/server/server.js';
import { decimate } from '../web/src/decimate.js';
import { benchDataDir } from './data-dir.mjs';
import { median } from './stats.js';

const LOADS = 7;


async function pageLoads(url: string): Promise<{ cold: number; warm: number }> {
  const browser = await chromium.launch({
    executablePath: process.env.PESIM_CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: process.getuid?.() === 0 ? ['--no-sandbox'] : [],
  });
  try {
    const cold: number[] = [];
    const warm: number[] = [];
    for (let i = 0; i < LOADS; i++) {
      const context = await browser.newContext();
      const page = await context.newPage();
      const measure = async (): Promise<number> => page.evaluate(() => {
        const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
        return nav.loadEventEnd - nav.startTime;
      });
      await page.goto(url, { waitUntil: 'load' });
      cold.push(await measure());
      await page.reload({ waitUntil: 'load' });
      warm.push(await measure());
      await context.close();
    }
    return { cold: median(cold), warm: median(warm) };
  } finally {
    await browser.close();
  }
}

function decimation(): number {
  const n = 5_000_000;
  const time = Float64Array.from({ length: n }, (_, i) => i * 1e-7);
  const signal = Float64Array.from(time, (t) => Math.sin(2 * Math.PI * 1e3 * t) + 0.01 * Math.sin(2 * Math.PI * 1e6 * t));
  const started = performance.now();
  for (let i = 0; i < 5; i++) decimate(time, [signal], time[0], time[n - 1], 1600);
  return (performance.now() - started) / 5;
}

export async function benchSection(): Promise<string[]> {
  const { dir, files } = await buildWeb({ typeCheck: false });
  const sizes = files.map((f) => ({ file: f, raw: readFileSync(join(dir, f)).length, gzip: gzipSync(readFileSync(join(dir, f)), { level: 9 }).length }));
  const gzipTotal = sizes.reduce((sum, s) => sum + s.gzip, 0);
  const service = await startSimulationService({ port: 0, host: '127.0.0.1', dataDir: benchDataDir('dashboard-'), logLevel: 'silent' });
  let loads: { cold: number; warm: number };
  try {
    loads = await pageLoads(`${service.url}/`);
  } finally {
    await service.close();
  }
  const decimateMs = decimation();
  return [
    '| measurement | value | target |',
    '|---|---|---|',
    `| page load, cold (navigation → load event, median of ${LOADS}) | ${loads.cold.toFixed(0)} ms | < 1000 ms: ${loads.cold < 1000 ? 'met' : 'MISSED'} |`,
    `| page load, warm (reload, bundle cached) | ${loads.warm.toFixed(0)} ms | |`,
    `| bundle, gzip -9 (${sizes.map((s) => `${s.file} ${(s.gzip / 1024).toFixed(1)} kB`).join(', ')}) | ${(gzipTotal / 1024).toFixed(1)} kB | < 300 kB: ${gzipTotal < 300 * 1024 ? 'met' : 'MISSED'} |`,
    `| min/max decimation, 5 M samples → 1600 px columns | ${decimateMs.toFixed(1)} ms | |`,
  ];
}

if (process.argv[1]?.endsWith('dashboard.ts')) console.log((await benchSection()).join('\n'));
