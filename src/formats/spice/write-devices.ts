// pesim's two-state devices → ngspice voltage-controlled switches (SW model, RON/ROFF as given, pesim
// defaults ron 0.01 Ω, roff 1e7 Ω, vf 0.6 V):
//   D (diode mode `switch`, the default): `V..._vf a m DC vf` + `S... m k c 0` with VT = 0, where a B
//     source gives c = 0.05·s, s = clamp((v(a,k) − vf)/1 mV, −1, 1), VH = 0.001: on when
//     v(a,k) > vf + 20 µV, off when v(a,k) < vf − 20 µV (i < 0), i = (v − vf)/ron while on, as
//     pesim's diode; the ±20 µV band keeps ngspice from toggling a diode that carries no current.
//     Off it conducts (v − vf)/roff instead of v/roff (vf/roff, 6e-8 A at the defaults).
//   Why the clamp: ngspice's SWtrunc rejects a time step in which a switch control jumps towards
//     its threshold without crossing it, by more than 0.05 V + 75 % of the remaining distance; an
//     ideal circuit makes such jumps at every commutation, and the rejected steps shrink until
//     "timestep too small". Every control written here therefore stays within 0.05 V of its
//     thresholds (and gate signals are continuous: PULSE edges or ramps, chains.ts).
//   D (diode mode `model`): a SPICE diode `.model D(IS N=1 RS=ron)` whose IS gives vf at 1 A (the
//     inverse of the reader's rule), so that reading the deck back gives the same vf and ron; the
//     exponential model is only close to the piecewise-linear one, and roff is not represented.
//   S, MOSFET: switch controlled by a gate node with VT = 0.5: a DC or PULSE source when the GATE's
//     chain has an exact independent-source form (chains.ts), else a B source (chain-expressions.ts);
//     no GATE: DC 0 (never on). MOSFET's anti-parallel diode as a diode above.
//   IGBT, THYR: forward source vf + switch controlled by a B source built from the gate g (0/1,
//     continuous) and the clamp s above:
//     IGBT: c = min(g, 0.5 + 0.05·s), VT = 0.5, VH = 0.001: on while gated and v > vf (i ≥ 0 when
//     on), within the diode's ±20 µV band;
//     the gate alone decides the turn-off, so the jump of v at turn-off cannot turn it on again;
//     THYR: c = 0.4805 + 0.01·min(0, s) + (0.02 + 0.03·g)·max(0, s), VT = 0.5, VH = 0.02: off below
//     0.48 (v < vf − 50 µV: the current reverses), on above 0.52 (gated and v > vf + 0.8 mV), held
//     in between (0.5005 when forward biased without gate): it latches like pesim's thyristor.
//     trr > 0 cannot be written (error).
//   VSW, CSW: ngspice S and W with their own SW / CSW models.
import type { NetlistElement } from '../netlist.js';
import { NetlistError } from '../errors.js';
import { formatNumber as n } from './naming.js';
import { compare, shapeOf, sourceSpec } from './chains.js';
import { saturationCurrentFor } from './models.js';
import { expressionOf } from './chain-expressions.js';
import { type DiodeMode, type ElementPlan, type WriteContext, carrierOf, numeric, unlessUnsupported, voltageBetween } from './write-context.js';

const RON = 0.01;
const ROFF = 1e7;
const VF = 0.6;
/** Voltage over which the IGBT/THYR control ramps from reverse to forward [V]. */
const CONTROL_RAMP = 1e-3;
/** Hysteresis of diode and IGBT controls: holds the state while v is within ±20 µV of vf. */
const HOLD = 0.001;

export function hasForwardSource(e: NetlistElement, diodeMode: DiodeMode): boolean {
  return (e.type === 'D' && diodeMode === 'switch') || e.type === 'IGBT' || e.type === 'THYR';
}

function switchModel(ctx: WriteContext, base: string, vt: number, vh: number, ron: number, roff: number): string {
  const name = ctx.names.model(`sw_${base}`);
  ctx.models.push(`.model ${name} SW(VT=${n(vt)} VH=${n(vh)} RON=${n(ron)} ROFF=${n(roff)})`);
  return name;
}

/** Writes a piecewise-linear diode from `anode` to `cathode`; `carrier` names its vf source. */
function diode(ctx: WriteContext, spice: string, anode: string, cathode: string, vf: number, ron: number, roff: number, carrier?: string): void {
  if (ctx.diodeMode === 'model') {
    if (!(vf > 0)) {
      throw new NetlistError('SPICE_UNSUPPORTED', `${spice}: a diode with vf = ${vf} has no SPICE diode model; write with diode mode 'switch'`, [
        { field: spice, component: spice, message: 'vf must be greater than 0 for a SPICE diode model' },
      ]);
    }
    const model = ctx.names.model(`d_${spice}`);
    ctx.models.push(`.model ${model} D(IS=${n(saturationCurrentFor(vf))} N=1 RS=${n(ron)})`);
    ctx.lines.push(`${spice} ${anode} ${cathode} ${model}`);
    return;
  }
  const source = carrier ?? ctx.names.helper('V', `${spice}_vf`);
  const inner = ctx.names.helperNode(`${spice}_f`);
  const control = ctx.names.helperNode(`${spice}_c`);
  ctx.lines.push(`${source} ${anode} ${inner} DC ${n(vf)}`);
  ctx.lines.push(`${ctx.names.helper('B', `${spice}_c`)} ${control} 0 V = 0.05 * ${ramp(voltageBetween(anode, cathode), vf)}`);
  ctx.lines.push(`${ctx.names.helper('S', spice)} ${inner} ${cathode} ${control} 0 ${switchModel(ctx, spice, 0, HOLD, ron, roff)}`);
}

/** Continuous −1 … +1 indicator of v > vf (ramp over CONTROL_RAMP), as a B-source expression. */
function ramp(voltage: string, vf: number): string {
  return `max(-1, min(1, (${voltage} - ${n(vf)}) / ${n(CONTROL_RAMP)}))`;
}

/** Gate source of a gate-driven device; returns the node carrying 0/1. */
function gate(ctx: WriteContext, e: NetlistElement, spice: string): string {
  const node = ctx.names.helperNode(`${spice}_g`);
  const block = ctx.gates.get(e.name);
  if (!block) {
    ctx.lines.push(`${ctx.names.helper('V', `${spice}_g`)} ${node} 0 DC 0`);
    return node;
  }
  const input = block.inputs?.[0];
  if (!input) throw new NetlistError('NETLIST_INVALID', `${block.name}: GATE without input`, [{ field: block.name, component: block.name, message: 'no input' }]);
  const spec = unlessUnsupported(() => sourceSpec(compare(shapeOf(input, ctx.producers, block.name), 0.5, true), ctx.dt, 1, 0, ctx.gateShift));
  if (spec !== undefined) {
    ctx.lines.push(`${ctx.names.helper('V', `${spice}_g`)} ${node} 0 ${spec}`);
  } else {
    ctx.lines.push(`${ctx.names.helper('B', `${spice}_g`)} ${node} 0 V = ${expressionOf(input, ctx, block.name, ctx.gateShift)}`);
  }
  return node;
}

function antiParallel(ctx: WriteContext, e: NetlistElement, spice: string): void {
  if (numeric(ctx, e, 'antiparallel', 0) === 0) return;
  const a = ctx.names.node(e.nodes[0]);
  const b = ctx.names.node(e.nodes[1]);
  const name = ctx.names.helper('D', `${spice}_d`);
  diode(ctx, name, b, a, numeric(ctx, e, 'diodeVf', VF), numeric(ctx, e, 'diodeRon', RON), numeric(ctx, e, 'diodeRoff', ROFF));
}

/** Writes D, S, MOSFET, IGBT, THYR, VSW or CSW. */
export function writeDevice(ctx: WriteContext, e: NetlistElement, plan: ElementPlan): void {
  const { spice, second } = plan;
  const a = ctx.names.node(e.nodes[0]);
  const b = ctx.names.node(e.nodes[1]);
  const ron = numeric(ctx, e, 'ron', RON);
  const roff = numeric(ctx, e, 'roff', ROFF);
  const out = (line: string) => ctx.lines.push(line);
  switch (e.type) {
    case 'D':
      diode(ctx, spice, a, second, numeric(ctx, e, 'vf', VF), ron, roff, plan.carrier);
      return;
    case 'S':
    case 'MOSFET': {
      const g = gate(ctx, e, spice);
      out(`${spice} ${a} ${second} ${g} 0 ${switchModel(ctx, spice, 0.5, 0, ron, roff)}`);
      if (e.type === 'MOSFET') antiParallel(ctx, e, spice);
      return;
    }
    case 'IGBT':
    case 'THYR': {
      if (e.type === 'THYR' && numeric(ctx, e, 'trr', 0) > 0) {
        throw new NetlistError('SPICE_UNSUPPORTED', `${e.name}: a thyristor with trr > 0 cannot be written to SPICE`, [
          { field: `${e.name}.trr`, component: e.name, message: 'reverse recovery has no SPICE switch equivalent' },
        ]);
      }
      const vf = numeric(ctx, e, 'vf', VF);
      const g = gate(ctx, e, spice);
      const inner = ctx.names.helperNode(`${spice}_f`);
      const control = ctx.names.helperNode(`${spice}_c`);
      const s = ramp(voltageBetween(a, b), vf);
      const expression = e.type === 'IGBT'
        ? `min(v(${g}), 0.5 + 0.05 * ${s})`
        : `0.4805 + 0.01 * min(0, ${s}) + (0.02 + 0.03 * v(${g})) * max(0, ${s})`;
      out(`${plan.carrier} ${a} ${inner} DC ${n(vf)}`);
      out(`${ctx.names.helper('B', `${spice}_c`)} ${control} 0 V = ${expression}`);
      out(`${spice} ${inner} ${b} ${control} 0 ${switchModel(ctx, spice, 0.5, e.type === 'THYR' ? 0.02 : HOLD, ron, roff)}`);
      if (e.type === 'IGBT') antiParallel(ctx, e, spice);
      return;
    }
    case 'VSW': {
      const c = ctx.names.node(e.nodes[2]);
      const d = ctx.names.node(e.nodes[3]);
      out(`${spice} ${a} ${second} ${c} ${d} ${switchModel(ctx, spice, numeric(ctx, e, 'vt', 0), numeric(ctx, e, 'vh', 0), ron, roff)}`);
      return;
    }
    case 'CSW': {
      const model = ctx.names.model(`csw_${spice}`);
      ctx.models.push(`.model ${model} CSW(IT=${n(numeric(ctx, e, 'it', 0))} IH=${n(numeric(ctx, e, 'ih', 0))} RON=${n(ron)} ROFF=${n(roff)})`);
      out(`${spice} ${a} ${second} ${carrierOf(ctx, e)} ${model}`);
      return;
    }
    default:
      throw new NetlistError('SPICE_UNSUPPORTED', `${e.name}: element type ${e.type} cannot be written to SPICE`, [
        { field: e.name, component: e.name, message: `unsupported type ${e.type}` },
      ]);
  }
}
