// GeckoSCRIPT's result functions over the last run: getOutput(block[, output]) (a control block's
// output at the end of the run), statistics of a scope signal over [t1, t2] by signal label
// (getSignalAvg/RMS/THD/Min/Max/Ripple/Klirr/Shape) or by scope and port (getAvg/...), getSignalData
// and getTimeArray; getSignalCharacteristics (all eight statistics); Fourier coefficients by scope
// and port (getFourier) or signal (getSignalFourier), and realFFT/floatFFT. Statistics are
// GeckoCIRCUITS' (gecko-characteristics.ts), Fourier analyses too (gecko-fourier.ts). The scope
// forms without a port read port 0, as AbstractGeckoCustom's do.
import { geckoCharacteristics, type GeckoCharacteristics } from './gecko-characteristics.js';
import { geckoFourier, realForward } from './gecko-fourier.js';
import type { SimulationResult } from '../engine/simulate.js';
import { ScriptError } from './errors.js';
import { setGeckoParameter } from '../remote/gecko-parameters.js';
import { scopeChannels } from './probe-runner.js';
import type { Builtin, Builtins, ScriptHost } from './host.js';

/** GeckoCIRCUITS' output names of single-output blocks (RegelBlock.getOutputNames). */
const OUTPUT_NAMES: Record<string, string> = { GAIN: 'p', LIMIT: 'lim', INT: 'integral', DELAY: 'delayed' };

const STATISTICS: Record<string, (c: GeckoCharacteristics) => number> = {
  Avg: (c) => c.avg, RMS: (c) => c.rms, THD: (c) => c.thd, Min: (c) => c.min, Max: (c) => c.max, Ripple: (c) => c.ripple,
  Klirr: (c) => c.klirr, Shape: (c) => c.shape,
};

function lastResult(host: ScriptHost, operation: string): SimulationResult {
  const run = host.session.lastRun();
  if (!run) throw new ScriptError('runtime', `${operation}: no completed simulation; call runSimulation() first`);
  return run.result;
}

export function findBlock(host: ScriptHost, name: string): { name: string; type: string; outputs: string[] } {
  const blocks = host.session.circuit().blocks ?? [];
  const block = blocks.find((b) => b.name === name) ?? blocks.find((b) => b.name.toLowerCase() === name.toLowerCase());
  if (!block) throw new ScriptError('runtime', `getOutput: no control block ${JSON.stringify(name)}; blocks: ${blocks.map((b) => b.name).join(', ') || 'none'}`);
  return { name: block.name, type: block.type, outputs: block.outputs ?? [] };
}

function outputSignal(host: ScriptHost, blockName: string, output: string | undefined): string {
  const block = findBlock(host, blockName);
  if (block.outputs.length === 0) throw new ScriptError('runtime', `getOutput: ${block.name} (${block.type}) has no outputs`);
  if (output === undefined) return block.outputs[0];
  if (/^\d+$/.test(output) && Number(output) < block.outputs.length) return block.outputs[Number(output)];
  if (block.outputs.includes(output)) return output;
  if (OUTPUT_NAMES[block.type]?.toLowerCase() === output.toLowerCase()) return block.outputs[0];
  const names = block.outputs.map((s, i) => `${i} (${s})`).join(', ');
  throw new ScriptError('runtime', `getOutput: ${block.name} has no output ${JSON.stringify(output)}; its outputs: ${names}`);
}

/** The samples of a control block's output (its first by default) in `result`. */
export function blockOutputSamples(host: ScriptHost, result: SimulationResult, blockName: string, output?: string): Float64Array {
  const signal = outputSignal(host, blockName, output);
  const key = scopeChannels(host.session.circuit()).get(signal) ?? host.probes.probedChannel(result, signal);
  const values = key ? result.signals[key] : undefined;
  if (!values || values.length === 0) throw new ScriptError('runtime', `getOutput: the output ${signal} of ${blockName} was not recorded in the last run`);
  return values;
}

function getOutput(host: ScriptHost, blockName: string, output?: string): number {
  const values = blockOutputSamples(host, lastResult(host, 'getOutput'), blockName, output);
  return values[values.length - 1];
}

/** Samples of a signal by its label (the scope input's name), or by its signal name. */
export function signalByLabel(host: ScriptHost, result: SimulationResult, label: string): Float64Array {
  const channel = result.channels.find((c) => c.label === label) ?? result.channels.find((c) => c.label.toLowerCase() === label.toLowerCase());
  const key = channel?.key ?? scopeChannels(host.session.circuit()).get(label) ?? host.probes.probedChannel(result, label);
  if (!key) {
    const labels = result.channels.map((c) => c.label || c.key).join(', ');
    throw new ScriptError('runtime', `no signal ${JSON.stringify(label)} in the last run; signals: ${labels || 'none'}`);
  }
  return result.signals[key];
}

function signalByPort(result: SimulationResult, scope: string, port: number): Float64Array {
  const ofScope = result.channels.filter((c) => c.scope === scope || c.scope.toLowerCase() === scope.toLowerCase());
  if (ofScope.length === 0) throw new ScriptError('runtime', `no scope ${JSON.stringify(scope)} in the last run; scopes: ${[...new Set(result.channels.map((c) => c.scope))].join(', ')}`);
  const channel = ofScope.find((c) => c.index === port + 1);
  if (!channel) throw new ScriptError('runtime', `${ofScope[0].scope} has no port ${port}; ports are 0 to ${ofScope.length - 1}`);
  return result.signals[channel.key];
}

/** Indices of the samples with t1 <= t <= t2. */
function window(result: SimulationResult, t1: number, t2: number, what: string): [number, number] {
  const t = result.time;
  let from = 0;
  while (from < t.length && t[from] < t1) from++;
  let to = from;
  while (to < t.length && t[to] <= t2) to++;
  if (to - from < 2) {
    throw new ScriptError('runtime', `${what}: the window [${t1}, ${t2}] s holds ${to - from} sample(s); the run covers [${t[0] ?? 0}, ${t[t.length - 1] ?? 0}] s`);
  }
  return [from, to];
}

function statistic(result: SimulationResult, values: Float64Array, t1: number, t2: number, name: string): number {
  window(result, t1, t2, name);
  return STATISTICS[name.replace(/^get(Signal)?/, '')](geckoCharacteristics(result.time, values, t1, t2));
}

/** getSignalCharacteristics' double[9] (CharacteristicsCalculator.getChannelCharacteristics): avg, rms, thd, min, max, ripple, klirr, shape, peak-to-peak. */
function characteristics(result: SimulationResult, values: Float64Array, t1: number, t2: number): number[] {
  window(result, t1, t2, 'getSignalCharacteristics');
  const c = geckoCharacteristics(result.time, values, t1, t2);
  return [c.avg, c.rms, c.thd, c.min, c.max, c.ripple, c.klirr, c.shape, c.max - c.min];
}

/**
 * The signal getSignalFourier analyses: by its label, as the other getSignal functions take it.
 * GeckoCIRCUITS' getSignalFourier passes the name on as a scope name (port 0), so a scope's name
 * is accepted too.
 */
function fourierSignal(host: ScriptHost, result: SimulationResult, name: string): Float64Array {
  const isScope = result.channels.some((c) => c.scope === name) && !result.channels.some((c) => c.label === name);
  return isScope ? signalByPort(result, name, 0) : signalByLabel(host, result, name);
}

export function sampled(result: SimulationResult, values: Float64Array, t1: number, t2: number, skip: number, what: string): number[] {
  const [from, to] = window(result, t1, t2, what);
  const out: number[] = [];
  for (let i = from; i < to; i += Math.max(1, skip + 1)) out.push(values[i]);
  return out;
}

/** Arguments of a scope function whose full form has `arity` arguments: [scope, port (0 when left out), ...rest]. */
function withPort(args: unknown[], arity: number): [string, number, number, number, number] {
  const rest = (args.length === arity ? args.slice(1) : [0, ...args.slice(1)]) as [number, number, number, number];
  return [args[0] as string, ...rest];
}

export function geckoResultBuiltins(host: ScriptHost): Builtins {
  const list: Builtin[] = [
    { name: 'getOutput', signatures: [{ params: ['String'], returns: 'double' }, { params: ['String', 'String'], returns: 'double' }],
      call: (a) => getOutput(host, a[0] as string, a[1] as string | undefined) },
    { name: 'getSignalData', signatures: [{ params: ['String', 'double', 'double', 'int'], returns: 'float[]' }], call: (a) => {
      const result = lastResult(host, 'getSignalData');
      return sampled(result, signalByLabel(host, result, a[0] as string), a[1] as number, a[2] as number, a[3] as number, 'getSignalData').map(Math.fround);
    } },
    { name: 'getTimeArray', signatures: [{ params: ['String', 'double', 'double', 'int'], returns: 'double[]' }], call: (a) => {
      const result = lastResult(host, 'getTimeArray');
      signalByLabel(host, result, a[0] as string);
      return sampled(result, result.time, a[1] as number, a[2] as number, a[3] as number, 'getTimeArray');
    } },
  ];
  for (const stat of Object.keys(STATISTICS)) {
    const bySignal = `getSignal${stat}`;
    const byPort = `get${stat}`;
    list.push({ name: bySignal, signatures: [{ params: ['String', 'double', 'double'], returns: 'double' }], call: (a) => {
      const result = lastResult(host, bySignal);
      return statistic(result, signalByLabel(host, result, a[0] as string), a[1] as number, a[2] as number, bySignal);
    } });
    list.push({ name: byPort, signatures: [{ params: ['String', 'int', 'double', 'double'], returns: 'double' }, { params: ['String', 'double', 'double'], returns: 'double' }], call: (a) => {
      const result = lastResult(host, byPort);
      const [scope, port, t1, t2] = withPort(a, 4);
      return statistic(result, signalByPort(result, scope, port), t1, t2, byPort);
    } });
  }
  list.push({ name: 'getSignalCharacteristics', signatures: [{ params: ['String', 'int', 'double', 'double'], returns: 'double[]' }, { params: ['String', 'double', 'double'], returns: 'double[]' }], call: (a) => {
    const result = lastResult(host, 'getSignalCharacteristics');
    const [scope, port, t1, t2] = withPort(a, 4);
    return characteristics(result, signalByPort(result, scope, port), t1, t2);
  } });
  list.push({ name: 'getFourier', signatures: [{ params: ['String', 'int', 'double', 'double', 'int'], returns: 'double[][]' }, { params: ['String', 'double', 'double', 'int'], returns: 'double[][]' }], call: (a) => {
    const result = lastResult(host, 'getFourier');
    const [scope, port, t1, t2, harmonics] = withPort(a, 5);
    return geckoFourier(result.time, signalByPort(result, scope, port), t1, t2, harmonics, 'getFourier');
  } });
  list.push({ name: 'getSignalFourier', signatures: [{ params: ['String', 'double', 'double', 'int'], returns: 'double[][]' }], call: (a) => {
    const result = lastResult(host, 'getSignalFourier');
    const [name, t1, t2, harmonics] = a as [string, number, number, number];
    return geckoFourier(result.time, fourierSignal(host, result, name), t1, t2, harmonics, 'getSignalFourier');
  } });
  for (const name of ['realFFT', 'floatFFT']) {
    // AbstractGeckoCustom.floatFFT transforms its argument in place and returns it (realFFT calls it).
    list.push({ name, signatures: [{ params: ['float[]'], returns: 'float[]', inPlace: true }], call: (a) => realForward(a[0] as number[]) });
  }
  list.push({ name: 'setParameters', signatures: [{ params: ['String', 'String[]', 'double[]'], returns: 'void' }], call: (a) => {
    const [element, names, values] = a as [string, string[], number[]];
    if (names.length !== values.length) throw new ScriptError('runtime', `setParameters: ${names.length} names but ${values.length} values`);
    names.forEach((n, i) => setGeckoParameter(host.session, element, n, values[i]));
  } });
  return new Map(list.map((b) => [b.name, b]));
}
