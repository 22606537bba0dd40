// `pesim run FILE`: simulates a circuit file with a progress bar on a terminal, prints the
// measurements (or exactly the documented JSON with --json) and optionally writes the signals.
// `pesim steady FILE` (= `pesim run --steady FILE`): the same for the settled period of the
// periodic steady-state analysis (docs/steady-state.md).
// The engine, the readers and the writers are imported when the command runs (see main.ts).
import { readFile } from 'node:fs/promises';
import type { Command } from 'commander';
import type { SimulationResult, SteadyOptions } from '../engine/index.js';
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
  steady?: boolean;
  period?: string;
  tolerance?: string;
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
  const steady = result.steady ? { steady: result.steady } : {};
  return JSON.stringify({ signals: [...names.values()], ...labelled, measurements, ...losses, ...steady, stats: result.stats }, null, 2);
}

/** The steady-state options of --period and --tolerance. */
function steadyOptions(o: RunOptions): SteadyOptions {
  const options: SteadyOptions = {};
  if (o.period !== undefined) options.period = positiveNumber(o.period, '--period');
  if (o.tolerance !== undefined) {
    const tolerance = Number(o.tolerance);
    if (!Number.isFinite(tolerance) || tolerance <= 0) throw new Error(`--tolerance must be a positive number, got '${o.tolerance}'`);
    options.tolerance = tolerance;
  }
  return options;
}

/** One line on how the settled period was found. */
function steadyLine(result: SimulationResult): string {
  const s = result.steady!;
  const how = s.method === 'shooting' ? `shooting method, ${s.iterations} Newton iterations` : `transient periods (${s.message})`;
  return `steady state ${s.converged ? 'reached' : 'NOT reached'}: ${how}, ${s.periods} periods of ${s.period.toPrecision(6)} s simulated, periodicity error ${s.error.toExponential(2)}`;
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
  const run = program
    .command('run')
    .description('simulate a circuit file (.ipes, SPICE deck or JSON netlist; detected from its content)');
  addRunOptions(run)
    .option('--steady', 'the periodic steady state instead of a transient run (as `pesim steady`)')
    .addHelpText('after', examples(
      ['pesim run bench/peers/buck.cir', 'simulate a SPICE deck; print the measurements of the last 20 % of the run'],
      ['pesim run buck.ipes --tend 0.02 --dt 1e-7 --json', 'a GeckoCIRCUITS file with another end time and step, as JSON'],
      ['pesim run buck.ipes --param \'$Vin=60\' --param R.1.R=10 --out vout.parquet', 'with parameter overrides; the signals written to Parquet'],
      ['pesim run rc.json --from 0.004 --to 0.005 --solver trapezoidal', 'a JSON netlist, measured over 4–5 ms'],
      ['pesim run buck.json --steady', 'the settled period (docs/steady-state.md)'],
    ))
    .action((file: string, o: RunOptions) => runAction(file, o));
  const steady = program
    .command('steady')
    .description('the periodic steady state of a circuit file: one settled period, its measurements (docs/steady-state.md)');
  addRunOptions(steady)
    .addHelpText('after', examples(
      ['pesim steady buck.json', 'the settled period of a converter; measurements over it'],
      ['pesim steady inverter.json --json --out period.csv', 'as JSON (with the "steady" report); the period\'s signals to CSV'],
      ['pesim steady rectifier.json --period 0.02 --tolerance 1e-7', 'with the period given and a looser tolerance'],
    ))
    .action((file: string, o: RunOptions) => runAction(file, { ...o, steady: true }));
}

function addRunOptions(command: Command): Command {
  return command
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
    .option('--period <s>', 'steady state: the period (default: the common period of the periodic sources)')
    .option('--tolerance <x>', 'steady state: periodicity error accepted, relative (default 1e-9)');
}

async function runAction(file: string, o: RunOptions): Promise<void> {
  const [{ simulate, steadyState, measurementName, checkJsonParameterNames }, { SOLVER_METHODS, SIGNAL_TIMINGS }, { readCircuitFile }, { companionFiles }, output, { deckFiles }] = await Promise.all([
    import('../engine/index.js'), import('../formats/netlist.js'), import('../formats/read.js'),
    import('../formats/companion.js'), import('./output.js'), import('../formats/deck-files.js'),
  ]);
  if (o.out) output.checkOutputPath(o.out);
  const read = await readCircuitFile(await readFile(file), file, { companion: companionFiles(file), files: deckFiles(file) });
  checkJsonParameterNames(read);
  for (const warning of read.warnings) console.error(`warning: ${warning}`);
  const netlist = applySettings(read.netlist, o, SOLVER_METHODS, SIGNAL_TIMINGS);
  const bar = process.stderr.isTTY ? (await import('./progress.js')).simulationProgress() : undefined;
  let result: SimulationResult;
  try {
    const common = { parameters: parseParameters(o.param), onProgress: bar?.onProgress, progressIntervalMs: 100 };
    result = o.steady ? await steadyState(netlist, { ...common, ...steadyOptions(o) }) : await simulate(netlist, common);
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
  if (result.steady) console.log(steadyLine(result));
  console.log(`${result.stats.steps} steps in ${result.stats.wallMs.toFixed(1)} ms`);
}
