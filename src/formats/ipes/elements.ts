// Power-circuit components (block `e`) → netlist elements. Terminal order: XIN[0], YOUT[0] (current
// and voltage counted from XIN to YOUT, XIN is the + of a source, the anode/collector/drain of a
// semiconductor). Parameters come from catalog.ts; sources, K and Trans are mapped here:
// U/I DC → waveform dc; SIN → sine with phase = −phaseDegrees (GeckoCIRCUITS computes
// A·sin(2πft − φ) + offset; files without `phaseDegrees` store radians); signal-controlled →
// waveform signal of the control label in parameterString[0]; voltage-controlled (directly) → E/G
// across the coupled component. Lc → L; K couples two inductors (`coupledReferenceID[]` by unique
// id, else the names in parameterString[0..1]). Trans: [XIN0, XIN1, YOUT0, YOUT1], the secondary
// swapped when `reversed` is +1.
import type { NetlistElement, ParamValue } from '../netlist.js';
import type { ComponentRecord } from './components.js';
import { ELEMENT_KINDS, type ElementKind } from './catalog.js';
import { mapPmsm } from './pmsm.js';
import { boolParam, flooredParam, issue, negate, netParam, numericParam, resolveParam, unsupported, type ReadContext } from './params.js';

export interface ElementEnv {
  ctx: ReadContext;
  /** Node name of a terminal of component `index`. */
  node(index: number, side: 'in' | 'out', terminal: number): string;
  /** Signal name of a control-domain label. */
  signalOfLabel(label: string): string | undefined;
  /** Active component coupled by unique id (when non-zero) or else by name. */
  coupled(uid: number | undefined, name: string | undefined): { index: number; record: ComponentRecord } | undefined;
}

export interface MappedElement {
  element: NetlistElement;
  extra?: Record<string, ParamValue>;
}

const SOURCE_TYPE = { key: 'sourceType', slot: 0, def: 401 };
const SOURCE_NAMES: Record<number, string> = {
  396: 'current-controlled source', 3: 'current-controlled source', 397: 'di/dt-controlled source', 4: 'di/dt-controlled source',
  398: 'transformer-controlled source', 6: 'transformer-controlled source',
};

function simpleParams(ctx: ReadContext, c: ComponentRecord, kind: ElementKind): Record<string, ParamValue> {
  const params: Record<string, ParamValue> = {};
  for (const spec of kind.params) {
    params[spec.net] = spec.floor === undefined ? netParam(ctx, c, spec) : flooredParam(ctx, c, spec, spec.floor.value, spec.floor.unit);
  }
  return params;
}

function checkUnsupportedOptions(ctx: ReadContext, c: ComponentRecord, kind: ElementKind): boolean {
  const before = ctx.unsupported.length;
  if (c.typ === 12 && c.tokens.boolean('isNonlinear')) unsupported(ctx, c, 'nonlinear L(i) characteristic of a coupled inductor');
  if (kind.semiconductor) {
    if (c.tokens.boolean('useNonlinearChar')) unsupported(ctx, c, 'nonlinear diode characteristic');
  }
  if (kind.type === 'IGBT' && boolParam(c, 'satCurEnabled', 10, false)) unsupported(ctx, c, 'saturation-current limit');
  return ctx.unsupported.length === before;
}

const SINE_OFFSET = { key: 'offset', slot: 3, def: 0 };

/**
 * GeckoCIRCUITS' sine current source adds its offset against its own direction (LKMatrices, LK_I:
 * the right-hand side is −A·sin(…) + offset where a DC source gives −value), so in pesim's
 * direction the offset is negated; a global parameter bound to it no longer reaches it.
 */
function currentSineOffset(ctx: ReadContext, c: ComponentRecord): number {
  return negate(numericParam(ctx, c, SINE_OFFSET));
}

function sourceParams(env: ElementEnv, index: number, c: ComponentRecord, kind: ElementKind): MappedElement | undefined {
  const { ctx } = env;
  const sourceType = resolveParam(ctx, c, SOURCE_TYPE).value;
  const nodes = [env.node(index, 'in', 0), env.node(index, 'out', 0)];
  const element: NetlistElement = { name: c.name, type: kind.type, nodes };
  if (sourceType === 401 || sourceType === 0) {
    element.params = { waveform: 'dc', value: netParam(ctx, c, { key: 'dcValue', slot: 1, def: 10 }) };
  } else if (sourceType === 402 || sourceType === 1) {
    // Files up to 1.62 have no `amplitude`: the amplitude is parameter[1] (and its nameOpt).
    const amplitude = c.tokens.has('amplitude')
      ? netParam(ctx, c, { key: 'amplitude', slot: 20, def: 325 })
      : netParam(ctx, c, { key: 'dcValue', slot: 1, def: 325 });
    const phase = numericParam(ctx, c, { key: 'phaseDegrees', slot: 4, def: 0 });
    const degrees = c.tokens.has('phaseDegrees') ? phase : (phase * 180) / Math.PI;
    element.params = {
      waveform: 'sine',
      amplitude,
      frequency: netParam(ctx, c, { key: 'frequency', slot: 2, def: 50 }),
      offset: kind.type === 'I' ? currentSineOffset(ctx, c) : netParam(ctx, c, SINE_OFFSET),
      phase: negate(degrees),
    };
  } else if (sourceType === 400 || sourceType === 2) {
    const label = c.strings[0] ?? '';
    const signal = label ? env.signalOfLabel(label) : undefined;
    if (!signal) {
      issue(ctx, c, label ? `controlling signal '${label}' is not a label of the control circuit` : 'signal-controlled source without a control signal');
      return undefined;
    }
    element.params = { waveform: 'signal', signal };
  } else if (sourceType === 399 || sourceType === 5) {
    const partner = env.coupled(c.coupled[0], c.strings[1]);
    if (!partner || ELEMENT_KINDS[partner.record.typ]?.terminals !== 'twoPort') {
      issue(ctx, c, `voltage-controlled source: controlling component '${c.strings[1] ?? ''}' not found`);
      return undefined;
    }
    element.type = kind.type === 'V' ? 'E' : 'G';
    element.nodes = [...nodes, env.node(partner.index, 'in', 0), env.node(partner.index, 'out', 0)];
    const gain = netParam(ctx, c, { key: 'directPotentialGain', slot: 11, def: 1 });
    element.params = kind.type === 'V' ? { gain } : { gm: gain };
    return { element, extra: { sourceType: 399, control: partner.record.name } };
  } else {
    unsupported(ctx, c, SOURCE_NAMES[sourceType] ?? `source type ${sourceType}`);
    return undefined;
  }
  return { element };
}

function coupling(env: ElementEnv, index: number, c: ComponentRecord, kind: ElementKind): MappedElement | undefined {
  const inductors: string[] = [];
  for (let i = 0; i < 2; i++) {
    const partner = env.coupled(c.coupled[i], c.strings[i]);
    if (!partner || (partner.record.typ !== 12 && partner.record.typ !== 2)) {
      issue(env.ctx, c, `coupled inductor ${i + 1} ('${c.strings[i] ?? ''}') is not an inductor of the circuit`);
      return undefined;
    }
    inductors.push(partner.record.name);
  }
  return { element: { name: c.name, type: 'K', nodes: [], params: { ...simpleParams(env.ctx, c, kind), inductors } } };
}

/**
 * Nonlinear L(i) / C(u) (`isNonlinear true`): the table `nonlinX[]` (|i| or |u|) and `nonlinY[]`
 * (differential L or C) as the netlist lists nonlinI/nonlinL or nonlinU/nonlinC (elements/piecewise.hpp).
 */
function nonlinearTable(ctx: ReadContext, c: ComponentRecord, kind: ElementKind, params: Record<string, ParamValue>): boolean {
  if (!c.tokens.boolean('isNonlinear')) return true;
  const x = c.tokens.numbers('nonlinX') ?? [];
  const y = c.tokens.numbers('nonlinY') ?? [];
  if (x.length < 2 || x.length !== y.length) {
    issue(ctx, c, 'nonlinear characteristic needs nonlinX[] and nonlinY[] of equal length, at least two points');
    return false;
  }
  if (kind.type === 'L') Object.assign(params, { nonlinI: x, nonlinL: y });
  else Object.assign(params, { nonlinU: x, nonlinC: y });
  return true;
}

/** OPV: [XIN0 (+), XIN1 (−), YOUT0 (out), YOUT1 (ref)]; files up to 1.62 store 1/fp (OperationalAmplifier). */
function opAmp(env: ElementEnv, index: number, c: ComponentRecord, params: Record<string, ParamValue>): MappedElement {
  if (!c.tokens.has('frequencyDependency') && typeof params.fp === 'number' && params.fp !== 0) params.fp = 1 / params.fp;
  const nodes = [env.node(index, 'in', 0), env.node(index, 'in', 1), env.node(index, 'out', 0), env.node(index, 'out', 1)];
  return { element: { name: c.name, type: 'OPV', nodes, params } };
}

/** Maps one enabled power-circuit component; undefined when it was reported unsupported or invalid. */
/** The resistance of a thyristor before its first firing, and the only one it fires from (LKMatrices, LK_THYR). */
export const GECKO_THYRISTOR_FIRING_R = 1e7;

/**
 * GeckoCIRCUITS fires a thyristor only while its resistance is exactly 1e7 Ω, its resistance before
 * the first firing; after a turn-off it has its Roff. A thyristor whose Roff is not 1e7 Ω therefore
 * fires once: `fireOnce` does the same in pesim, with a warning.
 */
function markSingleFiring(ctx: ReadContext, c: ComponentRecord, kind: ElementKind, params: Record<string, ParamValue>): void {
  const roffSpec = kind.params.find((p) => p.net === 'roff')!;
  const roff = resolveParam(ctx, c, roffSpec).value;
  if (roff === GECKO_THYRISTOR_FIRING_R) return;
  params.fireOnce = 1;
  ctx.warnings.push(`${c.name}: its Roff is ${roff} Ω, not 1e7 Ω, so GeckoCIRCUITS fires it only once (it turns a thyristor on only from 1e7 Ω); simulated the same way (fireOnce: 1)`);
}

export function mapElement(env: ElementEnv, index: number, c: ComponentRecord): MappedElement | undefined {
  const kind = ELEMENT_KINDS[c.typ];
  if (!checkUnsupportedOptions(env.ctx, c, kind)) return undefined;
  if (kind.type === 'V' || kind.type === 'I') return sourceParams(env, index, c, kind);
  if (kind.type === 'K') return coupling(env, index, c, kind);
  const params = simpleParams(env.ctx, c, kind);
  if (kind.type === 'OPV') return opAmp(env, index, c, params);
  if (kind.type === 'PMSM') {
    const element = mapPmsm(env, index, c, params);
    return element ? { element } : undefined;
  }
  if ((kind.type === 'L' || kind.type === 'C') && !nonlinearTable(env.ctx, c, kind, params)) return undefined;
  if (kind.type === 'TRANS') {
    const reversed = resolveParam(env.ctx, c, { key: 'reversed', slot: 2, def: -1 }).value > 0;
    const secondary = [env.node(index, 'out', 0), env.node(index, 'out', 1)];
    if (reversed) secondary.reverse();
    return {
      element: { name: c.name, type: 'TRANS', nodes: [env.node(index, 'in', 0), env.node(index, 'in', 1), ...secondary], params },
      extra: reversed ? { reversed: 1 } : undefined,
    };
  }
  // GeckoCIRCUITS keeps a device's forward voltage in series with Roff when off (DiodeCalculator).
  if (kind.type === 'D' || kind.type === 'THYR' || kind.type === 'IGBT') params.vfOff = 1;
  if (kind.type === 'THYR') markSingleFiring(env.ctx, c, kind, params);
  if (kind.type === 'MOSFET') Object.assign(params, { antiparallel: 1, diodeVfOff: 1 });
  return { element: { name: c.name, type: kind.type, nodes: [env.node(index, 'in', 0), env.node(index, 'out', 0)], params } };
}
