// Netlist elements → SPICE cards (used by write.ts). Linear elements and sources are written as
// themselves; TRANS as E (secondary) + F (primary) through a 0 V sense source; switching devices as
// ngspice voltage-controlled switches (write-devices.ts). Currents are read without changing the
// circuit where ngspice can name them: i(V, L, E, H), i(forward-voltage source) for diodes, IGBTs
// and thyristors, device parameters @R[i] @C[i] @G[i] @F[i] @S[i] @W[i] @I[current] @D[id]
// (saved before the run). Only an element that controls an F, H or W and is not a V source gets a
// 0 V sense source in series (`V<name>_i`), because ngspice takes control currents from V sources.
import type { Netlist, NetlistElement, ParamValue } from '../netlist.js';
import { NetlistError } from '../errors.js';
import { type SpiceNames, formatNumber as n } from './naming.js';
import { shapeOf, sourceSpec, windowPulse } from './chains.js';
import { hasForwardSource, writeDevice } from './write-devices.js';
import { expressionOf } from './chain-expressions.js';
import { type ElementPlan, type WriteContext, carrierOf, numeric, unlessUnsupported, value } from './write-context.js';

const NATIVE_BRANCH = new Set(['V', 'L', 'E', 'H']);

/** ngspice device parameter giving an element's current (first terminal → second). */
const DEVICE_CURRENT: Record<string, string> = {
  R: 'i', C: 'i', G: 'i', F: 'i', S: 'i', MOSFET: 'i', VSW: 'i', CSW: 'i', I: 'current',
};

/** Decides sense sources, control carriers and current vectors for every element. */
export function planElements(netlist: Netlist, names: SpiceNames, diodeMode: 'switch' | 'model'): Map<string, ElementPlan> {
  const controls = new Set<string>();
  for (const e of netlist.elements) {
    if ((e.type === 'F' || e.type === 'H' || e.type === 'CSW') && typeof e.params?.control === 'string') controls.add(e.params.control);
  }
  const plans = new Map<string, ElementPlan>();
  for (const e of netlist.elements) {
    const spice = names.element(e.name);
    const second = e.nodes.length >= 2 ? names.node(e.nodes[1]) : '';
    const plan: ElementPlan = { spice, second };
    if (e.type === 'V') plan.carrier = spice;
    else if (hasForwardSource(e, diodeMode)) plan.carrier = names.helper('V', `${spice}_vf`);
    else if (controls.has(e.name)) {
      // ngspice's F, H and W take their control current from a voltage source only.
      const sense = { name: names.helper('V', `${spice}_i`), node: names.helperNode(`${spice}_i`) };
      plan.sense = sense;
      plan.second = sense.node;
      plan.carrier = sense.name;
    }
    if (plan.carrier) plan.current = `i(${plan.carrier.toLowerCase()})`;
    else if (NATIVE_BRANCH.has(e.type)) plan.current = `i(${spice.toLowerCase()})`;
    else if (e.type === 'D') plan.current = `@${spice.toLowerCase()}[id]`;
    else if (DEVICE_CURRENT[e.type]) plan.current = `@${spice.toLowerCase()}[${DEVICE_CURRENT[e.type]}]`;
    plans.set(e.name, plan);
  }
  return plans;
}

function list(ctx: WriteContext, element: NetlistElement, key: string): number[] {
  const v: ParamValue | undefined = ctx.resolved.get(element.name)?.params?.[key];
  if (Array.isArray(v) && v.every((x) => typeof x === 'number')) return v as number[];
  throw new NetlistError('SPICE_UNSUPPORTED', `${element.name}: parameter ${key} must be a list of numbers`, [
    { field: `${element.name}.${key}`, component: element.name, message: 'not a list of numbers' },
  ]);
}

/** The SPICE source specification (DC, SIN, PULSE, PWL) of a V or I element. */
function waveform(ctx: WriteContext, e: NetlistElement): string {
  const kind = e.params?.waveform ?? 'dc';
  const v = (key: string, fallback?: number) => value(ctx, e, key, fallback);
  const num = (key: string, fallback?: number) => numeric(ctx, e, key, fallback);
  const eps = 1e-3 * ctx.dt;
  switch (kind) {
    case 'dc':
      return `DC ${v('value')}`;
    case 'sine':
      return `SIN(${v('offset', 0)} ${v('amplitude')} ${v('frequency')} ${v('delay', 0)} 0 ${v('phase', 0)})`;
    case 'pulse': {
      // ngspice replaces TR, TF, PW of 0 by TSTEP/TSTOP: write ε instead. PER 0 (one pulse) is
      // written as an absent PER, whose ngspice default TSTOP does not repeat inside the run.
      const orEps = (key: string) => (num(key, 0) > 0 ? v(key) : n(eps));
      const period = num('period', 0) > 0 ? ` ${v('period')}` : '';
      return `PULSE(${v('v1')} ${v('v2')} ${v('delay', 0)} ${orEps('rise')} ${orEps('fall')} ${orEps('width')}${period})`;
    }
    case 'pwm': {
      const duty = num('duty', 0.5);
      const low = num('low', 0);
      const high = num('high');
      if (duty <= 0) return `DC ${n(low)}`;
      if (duty >= 1) return `DC ${n(high)}`;
      return windowPulse(num('frequency'), num('phase', 0) / 360, duty, low, high, ctx.dt);
    }
    case 'pwl': {
      const times = list(ctx, e, 'times');
      const values = list(ctx, e, 'values');
      return `PWL(${times.map((t, i) => `${n(t)} ${n(values[i])}`).join(' ')})`;
    }
    case 'signal': {
      // pesim applies the control value of the previous step: delay by one step.
      const shape = shapeOf(String(e.params?.signal), ctx.producers, e.name);
      return sourceSpec(shape, ctx.dt, num('gain', 1), num('offset', 0), ctx.dt);
    }
    default:
      throw new NetlistError('SPICE_UNSUPPORTED', `${e.name}: waveform ${String(kind)} cannot be written to SPICE`, [
        { field: `${e.name}.waveform`, component: e.name, message: 'unsupported waveform' },
      ]);
  }
}

/** Appends the cards of one element (and its helpers) to ctx.lines. */
export function writeElement(ctx: WriteContext, e: NetlistElement): void {
  const plan = ctx.plans.get(e.name)!;
  const node = (i: number) => ctx.names.node(e.nodes[i]);
  const out = (line: string) => ctx.lines.push(line);
  const { spice, second } = plan;
  switch (e.type) {
    case 'R':
      out(`${spice} ${node(0)} ${second} ${value(ctx, e, 'R')}`);
      break;
    case 'L':
    case 'C': {
      const [key, ic] = e.type === 'L' ? ['L', 'i0'] : ['C', 'v0'];
      const initial = e.params?.[ic] !== undefined ? ` IC=${value(ctx, e, ic)}` : '';
      out(`${spice} ${node(0)} ${second} ${value(ctx, e, key)}${initial}`);
      break;
    }
    case 'K': {
      const inductors = e.params?.inductors;
      if (!Array.isArray(inductors) || inductors.length !== 2) {
        throw new NetlistError('NETLIST_INVALID', `${e.name}: inductors must list two L elements`, [{ field: `${e.name}.inductors`, component: e.name, message: 'two names expected' }]);
      }
      out(`${spice} ${inductors.map((l) => ctx.names.element(String(l))).join(' ')} ${value(ctx, e, 'k')}`);
      break;
    }
    case 'V':
    case 'I': {
      const spec = e.params?.waveform === 'signal' ? unlessUnsupported(() => waveform(ctx, e)) : waveform(ctx, e);
      if (spec !== undefined) {
        out(`${spice} ${node(0)} ${second} ${spec}`);
        break;
      }
      // No independent-source form: a B source (V: behind a 0 V source keeping the element's name).
      const expression = `${value(ctx, e, 'offset', 0)} + ${value(ctx, e, 'gain', 1)} * (${expressionOf(String(e.params?.signal), ctx, e.name, ctx.dt)})`;
      const behavioural = ctx.names.helper('B', `${spice}_s`);
      if (e.type === 'V') {
        const inner = ctx.names.helperNode(`${spice}_s`);
        out(`${spice} ${node(0)} ${inner} DC 0`);
        out(`${behavioural} ${inner} ${second} V = ${expression}`);
      } else {
        out(`${behavioural} ${node(0)} ${second} I = ${expression}`);
        if (!plan.sense) plan.current = `@${behavioural.toLowerCase()}[i]`;
      }
      break;
    }
    case 'E':
    case 'G':
      out(`${spice} ${node(0)} ${second} ${node(2)} ${node(3)} ${value(ctx, e, e.type === 'E' ? 'gain' : 'gm')}`);
      break;
    case 'F':
    case 'H':
      out(`${spice} ${node(0)} ${second} ${carrierOf(ctx, e)} ${value(ctx, e, e.type === 'F' ? 'gain' : 'r')}`);
      break;
    case 'TRANS': {
      const ratio = numeric(ctx, e, 'n2') / numeric(ctx, e, 'n1');
      const secondary = ctx.names.helperNode(`${spice}_s`);
      const sense = ctx.names.helper('V', `${spice}_s`);
      out(`* ${e.name}: ideal transformer, v(s) = (n2/n1)·v(p), i(p) = −(n2/n1)·i(s)`);
      out(`${spice} ${node(2)} ${secondary} ${node(0)} ${node(1)} ${n(ratio)}`);
      out(`${sense} ${secondary} ${node(3)} DC 0`);
      const primary = ctx.names.helper('F', `${spice}_p`);
      out(`${primary} ${node(0)} ${second} ${sense} ${n(-ratio)}`);
      if (!plan.sense) plan.current = `@${primary.toLowerCase()}[i]`;
      break;
    }
    default:
      writeDevice(ctx, e, plan);
  }
  if (plan.sense) out(`${plan.sense.name} ${plan.sense.node} ${node(1)} DC 0`);
}
