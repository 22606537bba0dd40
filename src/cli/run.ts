// `pesim run FILE`: simulates a circuit file with a progress bar on a terminal, prints the
// measurements (or exactly the documented JSON with --json) and optionally writes the signals.
// The engine, the readers and the writers are imported when the command runs (see main.ts).
import { readFile } from 'node:fs/promises';
import type { Command } from 'commander';
import type { SimulationResult } from '../engine/index.js';
import type { Netlist, SignalTiming, SolverMethod } from '../formats/netlist.js';
import { examples } from './help.js';

/** The solver names for the help text, checked against the type (the netlist module loads a schema compiler). */
const SOLVER_NAMES = Object.keys({ 'backward-euler': 1, trapezoidal: 1, 'gear-shichman': 1 } satisfies Record<SolverMethod, 1>);

interface RunOptions {
  tend?: string;
  dt?: string;
  solver?: string;
  timing?: string;
  param: string[];
  out?: string;
  json?: boolean;
  from?: string;
  to?: string;
}

function positiveNumber(value: string, flag: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`${flag} must be a positive number of seconds, got '${value}'`);
  return n;
}

export function parseParameters(pairs: string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    const value = Number(pair.slice(eq + 1));
    if (eq <= 0 || !Number.isFinite(value)) throw new Error(`--param expects KEY=NUMBER (e.g. R.1.R=10 or $Vin=48), got '${pair}'`);
    out[pair.slice(0, eq)] = value;
  }
  return out;
}

function applySettings(netlist: Netlist, o: RunOptions, solvers: readonly SolverMethod[], timings: readonly SignalTiming[]): Netlist {
  const settings = { ...netlist.settings };
  if (o.tend) settings.tEnd = positiveNumber(o.tend, '--tend');
  if (o.dt) settings.dt = positiveNumber(o.dt, '--dt');
  if (o.solver) {
    if (!solvers.includes(o.solver as SolverMethod)) throw new Error(`--solver must be one of ${solvers.join(', ')}`);
    settings.solver = o.solver as SolverMethod;
  }
  if (o.timing) {
    if (!timings.includes(o.timing as SignalTiming)) throw new Error(`--timing must be one of ${timings.join(', ')}`);
    settings.timing = o.timing as SignalTiming;
  }
  // Measurement window: default the last 20 % of the run.
  settings.measureFrom = o.from !== undefined ? Number(o.from) : 0.8 * settings.tEnd;
  settings.measureTo = o.to !== undefined ? Number(o.to) : settings.tEnd;
  if (!Number.isFinite(settings.measureFrom) || !Number.isFinite(settings.measureTo)) throw new Error('--from and --to must be numbers of seconds');
  return { ...netlist, settings };
}

/**
 * A measurement as users see it: `SCOPE.1.ch1_avg` (src/engine/measurement-names.ts); for SPICE
 * decks the channel's label in place of its key (`V(out)_avg`), as in the signal names.
 */
function measurementLabel(key: string, names: Map<string, string>, nameOf: (key: string) => string): string {
  const named = nameOf(key);
  const cut = named.lastIndexOf('_');
  return `${names.get(named.slice(0, cut)) ?? named.slice(0, cut)}${named.slice(cut)}`;
}

/**
 * The channel labels (`u2`, `iL`) by signal name, for the channels whose signal is not named by its
 * label already (GeckoCIRCUITS and JSON circuits: `SCOPE.1.ch3` → `u2`).
 */
function channelLabels(result: SimulationResult, names: Map<string, string>): Map<string, string> {
  const labels = new Map<string, string>();
  for (const channel of result.channels) {
    const name = names.get(channel.key) ?? channel.key;
    if (channel.label && channel.label !== name) labels.set(name, channel.label);
  }
  return labels;
}

/** The label of the channel a measurement (`SCOPE.1.ch3_avg`) belongs to, or ''. */
function labelOf(measurement: string, labels: Map<string, string>): string {
  return labels.get(measurement.slice(0, measurement.lastIndexOf('_'))) ?? '';
}

function jsonSummary(result: SimulationResult, names: Map<string, string>, nameOf: (key: string) => string): string {
  const measurements: Record<string, number> = {};
  for (const [key, value] of Object.entries(result.measurements)) measurements[measurementLabel(key, names, nameOf)] = value;
  const labels = channelLabels(result, names);
  const labelled = labels.size > 0 ? { labels: Object.fromEntries(labels) } : {};
  const losses = result.losses.length > 0 ? { losses: result.losses } : {};
  return JSON.stringify({ signals: [...names.values()], ...labelled, measurements, ...losses, stats: result.stats }, null, 2);
}

/** Device losses of the run (engine loss models) as `<device>.<quantity>` lines, like measurements. */
function lossLines(result: SimulationResult): string[] {
  const lines: string[] = [];
  for (const l of result.losses) {
    const { device, ...values } = l;
    for (const [key, value] of Object.entries(values)) {
      if (typeof value === 'number') lines.push(`${`${device}.${key}`.padEnd(32)} ${value.toPrecision(6)}`);
    }
  }
  return lines;
}

export function registerRun(program: Command): void {
  program
    .command('run')
    .description('simulate a circuit file (.ipes, SPICE deck or JSON netlist; detected from its content)')
    .argument('<file>', 'circuit file')
    .option('--tend <s>', 'simulated time [s] (default: the file\'s)')
    .option('--dt <s>', 'time step [s] (default: the file\'s)')
    .option('--solver <method>', `one of ${SOLVER_NAMES.join(', ')}`)
    .option('--timing <mode>', 'signal sources: gecko (stepped as GeckoCIRCUITS, default for .ipes) or exact (default otherwise)')
    .option('--param <KEY=VALUE>', 'parameter override, repeatable (R.1.R=10, $Vin=48)', (v: string, acc: string[]) => [...acc, v], [])
    .option('--out <file>', 'write the signals (.csv or .parquet)')
    .option('--json', 'print {signals, labels (of labelled scope channels), measurements, losses (when the run has loss models), stats} as JSON')
    .option('--from <s>', 'measurement window start [s] (default 80 % of the run)')
    .option('--to <s>', 'measurement window end [s] (default the end)')
    .addHelpText('after', examples(
      ['pesim run bench/peers/buck.cir', 'simulate a SPICE deck; print the measurements of the last 20 % of the run'],
      ['pesim run buck.ipes --tend 0.02 --dt 1e-7 --json', 'a GeckoCIRCUITS file with another end time and step, as JSON'],
      ['pesim run buck.ipes --param \'$Vin=60\' --param R.1.R=10 --out vout.parquet', 'with parameter overrides; the signals written to Parquet'],
      ['pesim run rc.json --from 0.004 --to 0.005 --solver trapezoidal', 'a JSON netlist, measured over 4–5 ms'],
    ))
    .action(async (file: string, o: RunOptions) => {
      const [{ simulate, measurementName }, { SOLVER_METHODS, SIGNAL_TIMINGS }, { readCircuitFile }, { companionFiles }, output, { deckFiles }] = await Promise.all([
        import('../engine/index.js'), import('../formats/netlist.js'), import('../formats/read.js'),
        import('../formats/companion.js'), import('./output.js'), import('../formats/deck-files.js'),
      ]);
      if (o.out) output.checkOutputPath(o.out);
      const read = await readCircuitFile(await readFile(file), file, { companion: companionFiles(file), files: deckFiles(file) });
      for (const warning of read.warnings) console.error(`warning: ${warning}`);
      const netlist = applySettings(read.netlist, o, SOLVER_METHODS, SIGNAL_TIMINGS);
      const bar = process.stderr.isTTY ? (await import('./progress.js')).simulationProgress() : undefined;
      let result: SimulationResult;
      try {
        result = await simulate(netlist, { parameters: parseParameters(o.param), onProgress: bar?.onProgress, progressIntervalMs: 100 });
      } finally {
        bar?.stop();
      }
      for (const warning of result.warnings) console.error(`warning: ${warning}`);
      const names = output.signalNames(result, read.format);
      if (o.out) await output.writeSignals(o.out, result, names);
      if (o.json) {
        console.log(jsonSummary(result, names, measurementName));
        return;
      }
      const labels = channelLabels(result, names);
      for (const [key, value] of Object.entries(result.measurements)) {
        const name = measurementLabel(key, names, measurementName);
        console.log(`${name.padEnd(32)} ${value.toPrecision(6).padEnd(12)} ${labelOf(name, labels)}`.trimEnd());
      }
      for (const line of lossLines(result)) console.log(line);
      console.log(`${result.stats.steps} steps in ${result.stats.wallMs.toFixed(1)} ms`);
    });
}
