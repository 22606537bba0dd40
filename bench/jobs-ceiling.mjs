// Child process of bench/jobs.ts: what this machine gives two threads running the engine at once,
// without the job runtime. The 2 ms buck is simulated `runs` times in one worker thread, then
// split over two (each thread reusing its result memory, as the runtime's workers do; no files),
// and the speed-up of two threads over one is printed as JSON (the median of `rounds`), with the
// wall time per run on each. It bounds the runtime's speed-up:
// on a machine whose two cores slow each other down (shared caches, memory bandwidth, a
// hypervisor), two engine threads give less than twice the throughput of one. It also prints the
// engine's CPU time per run on one and on two threads (cpuMsPerRun, the threads' own /proc
// schedstat): unlike the wall time it leaves out the time a thread waits for a core on a busy
// machine, so it is the engine's part to take out of a runtime's CPU time at the same number of
// threads (bench/throughput.ts).
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';

const { netlist, runs, rounds = 3 } = JSON.parse(readFileSync(0, 'utf8'));
const index = new URL('../dist/src/index.js', import.meta.url).href;
const source = `
  const { parentPort, workerData } = require('node:worker_threads');
  import(${JSON.stringify(index)}).then(({ simulateSync }) => {
    let reuse = [];
    const run = () => { const r = simulateSync(workerData.netlist, { reuse }); reuse = [r.time, ...Object.values(r.signals)]; };
    for (let i = 0; i < 50; i++) run();
    parentPort.postMessage('ready');
    // CPU time of this thread [ns] (Linux; NaN elsewhere).
    const cpuNs = () => { try { return Number(require('node:fs').readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ')[0]); } catch { return NaN; } };
    parentPort.once('message', () => { const cpu0 = cpuNs(); for (let i = 0; i < workerData.runs; i++) run(); parentPort.postMessage(cpuNs() - cpu0); });
  });`;

/** Wall time per run and the threads' CPU time per run [ms] on `threads` threads. */
async function perRun(threads) {
  const workers = Array.from({ length: threads }, () => new Worker(source, { eval: true, workerData: { netlist, runs: runs / threads } }));
  await Promise.all(workers.map((w) => new Promise((resolve) => w.once('message', resolve))));
  const started = performance.now();
  const cpuNs = await Promise.all(workers.map((w) => new Promise((resolve) => { w.once('message', resolve); w.postMessage('go'); })));
  const ms = (performance.now() - started) / runs;
  await Promise.all(workers.map((w) => w.terminate()));
  return { ms, cpuMs: cpuNs.reduce((sum, ns) => sum + ns, 0) / 1e6 / runs };
}

const ratios = [];
const ones = [];
const twos = [];
const cpus = [];
const twoCpus = [];
for (let round = 0; round < rounds; round++) {
  const one = await perRun(1);
  ones.push(one.ms);
  cpus.push(one.cpuMs);
  const two = await perRun(2);
  twos.push(two.ms);
  twoCpus.push(two.cpuMs);
  ratios.push(ones.at(-1) / twos.at(-1));
}
const middle = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
// msPerRun: wall time per run on 1 and on 2 threads (medians), for the engine's runs per second;
// cpuMsPerRun: the engine threads' CPU time per run on 1 and on 2 threads (medians): two threads
// at once can each take more CPU per run than one alone (shared caches, a hypervisor's siblings).
console.log(JSON.stringify({ speedup: middle(ratios), ratios, msPerRun: { 1: middle(ones), 2: middle(twos) }, cpuMsPerRun: { 1: middle(cpus), 2: middle(twoCpus) } }));
