// Thermal elements (block `eTH`) → netlist `thermal` elements. GeckoCIRCUITS classes
// (`CircuitTyp` TH_*): typ 46 Rth (`ResistorThermal`, `resistance` [K/W]), 47 Cth
// (`CapacitorThermal`, `capacitance` [J/K], `initVoltage` = initial ΔT), 45 DT temperature source
// (`VoltageSourceThermalTemperature`: T(XIN) − T(YOUT) = `dcValue` [°C]), 44 HEAT-SOURCE
// (`HeatFlowCurrentSource`: heat flow `dcValue` [W] from XIN through the source into YOUT), all
// two-ports with the power circuit's terminals (XIN/YOUT at ∓2 along the orientation);
// 41 Pv (`ThermPvChip`): a heat source driven by the losses of the coupled semiconductor or
// resistor (`coupledReferenceID[]`, in old files `parameterString[0]`; a resistor's loss is its
// v·i, `LossCalculatorResistor`) from XIN into YOUT, in parallel with a hidden 10 kK/W resistor; 48 TREF (`ThermAmbient`): a 1 nΩ-like tie of its node to the thermal
// zero at 0 °C (`T_ZERO`; `tRef` is that tie's resistance, not a temperature). The Pv's XIN and the
// TREF's YOUT sit on the invisible point `THERMAL_ZERO` (−4711, −4711), so all of them share one
// node: the thermal reference, netlist node "0". Pv: YOUT at (x + 2, y); TREF: XIN at (x, y − 1)
// (`TerminalTwoPortRelativeFixedDirection`; both ignore the orientation).
// Unsupported: 42 thermal module, 49/50 thermal terminals, non-DC DT / HEAT-SOURCE, nonlinear Cth.
import type { ParamValue } from '../netlist.js';
import type { ThermalElement } from '../thermal-netlist.js';
import type { ComponentRecord } from './components.js';
import type { Point, TerminalGeometry } from './geometry.js';
import { relativePoint } from './geometry.js';
import { ELEMENT_KINDS } from './catalog.js';
import { flooredParam, netParam, resolveParam, unsupported, type ReadContext } from './params.js';

/** GeckoCIRCUITS `ThermAmbient.THERMAL_ZERO`. */
export const THERMAL_ZERO: Point = { x: -4711, y: -4711 };
export const PV_TYP = 41;
export const TREF_TYP = 48;
/** GeckoCIRCUITS stamps Rth < 1e-9 K/W as 1e-9 K/W (LKMatrices FAST_NULL_R, TH_RTH). */
const RTH_FLOOR = 1e-9;
/** Hidden resistor in parallel with every Pv heat source (`ThermPvChip.PARALLEL_RESISTANCE`). */
export const PV_PARALLEL_RESISTANCE = 10000;

export const THERMAL_PREFIX: Record<number, string> = { 41: 'Pv', 44: 'HEAT-SOURCE', 45: 'DT', 46: 'Rth', 47: 'Cth', 48: 'TREF' };
const UNSUPPORTED_THERMAL: Record<number, string> = { 42: 'thermal module (MOD)', 49: 'thermal subcircuit terminal', 50: 'thermal global terminal' };
/** What a Pv can take its losses from (`ThermPvChip.checkComponentCompatibility`: LossCalculatable). */
const LOSS_ELEMENTS = new Set(['D', 'S', 'THYR', 'IGBT', 'MOSFET', 'R']);
const DC_SOURCE = new Set([401, 0]);

/** Why a thermal typ cannot be simulated, or undefined when it can. */
export function unsupportedThermal(typ: number): string | undefined {
  if (THERMAL_PREFIX[typ]) return undefined;
  return UNSUPPORTED_THERMAL[typ] ?? `unknown thermal type ${typ}`;
}

/** Terminal positions of a thermal element (undefined for unsupported kinds). */
export function thermalTerminals(c: ComponentRecord): TerminalGeometry | undefined {
  if (c.typ === PV_TYP) return { domain: 'THERMAL', ins: [THERMAL_ZERO], outs: [{ x: c.x + 2, y: c.y }] };
  if (c.typ === TREF_TYP) return { domain: 'THERMAL', ins: [{ x: c.x, y: c.y - 1 }], outs: [THERMAL_ZERO] };
  if (!THERMAL_PREFIX[c.typ]) return undefined;
  const at = (py: number): Point => relativePoint(c.orientation, c.x, c.y, 0, py);
  return { domain: 'THERMAL', ins: [at(2)], outs: [at(-2)] };
}

export interface ThermalEnv {
  ctx: ReadContext;
  /** Thermal node name of a terminal of component `index`. */
  node(index: number, side: 'in' | 'out'): string;
  coupled(uid: number | undefined, name: string | undefined): { index: number; record: ComponentRecord } | undefined;
  /** Netlist type of a power-circuit element that is part of the netlist. */
  elementType(name: string): string | undefined;
}

export interface MappedThermal {
  element: ThermalElement;
  /** Elements GeckoCIRCUITS adds behind the component (the Pv's parallel resistor). */
  hidden?: ThermalElement[];
}

function sourceValue(ctx: ReadContext, c: ComponentRecord, what: string): ParamValue | undefined {
  const sourceType = resolveParam(ctx, c, { key: 'sourceType', slot: 0, def: 401 }).value;
  if (!DC_SOURCE.has(sourceType)) {
    unsupported(ctx, c, `${what} of source type ${sourceType} (only constant sources are mapped)`);
    return undefined;
  }
  return netParam(ctx, c, { key: 'dcValue', slot: 1, def: 0 });
}

function lossSource(env: ThermalEnv, index: number, c: ComponentRecord): MappedThermal | undefined {
  const nodes = [env.node(index, 'out'), env.node(index, 'in')];
  const hidden: ThermalElement[] = [{ name: `${c.name}.Rpar`, type: 'RTH', nodes, params: { R: PV_PARALLEL_RESISTANCE } }];
  const partner = env.coupled(c.coupled[0], c.strings[0]);
  const type = partner && env.elementType(partner.record.name);
  if (!partner || !type) {
    env.ctx.warnings.push(`${c.name}: loss source coupled to no component of the circuit ('${c.strings[0] ?? ''}'); it injects 0 W, as in GeckoCIRCUITS`);
    return { element: { name: c.name, type: 'QSRC', nodes, params: { P: 0 } }, hidden };
  }
  if (!LOSS_ELEMENTS.has(type)) {
    unsupported(env.ctx, c, `loss source coupled to ${partner.record.name}, which is no semiconductor (D, S, THYR, IGBT, MOSFET) or resistor`);
    return undefined;
  }
  return { element: { name: c.name, type: 'PV', nodes, params: { device: partner.record.name } }, hidden };
}

/** Maps one enabled thermal element (not TREF, which only ties its node to the reference). */
export function mapThermalElement(env: ThermalEnv, index: number, c: ComponentRecord): MappedThermal | undefined {
  const { ctx } = env;
  const [a, b] = [env.node(index, 'in'), env.node(index, 'out')];
  switch (c.typ) {
    case 46:
      return { element: { name: c.name, type: 'RTH', nodes: [a, b], params: { R: flooredParam(ctx, c, { key: 'resistance', slot: 0, def: 1 }, RTH_FLOOR, 'K/W') } } };
    case 47: {
      if (c.tokens.boolean('isNonlinear')) {
        unsupported(ctx, c, 'nonlinear thermal capacitance');
        return undefined;
      }
      const params = { C: netParam(ctx, c, { key: 'capacitance', slot: 0, def: 1 }), T0: netParam(ctx, c, { key: 'initVoltage', slot: 1, def: 0 }) };
      return { element: { name: c.name, type: 'CTH', nodes: [a, b], params } };
    }
    case 45: {
      const T = sourceValue(ctx, c, 'temperature source');
      return T === undefined ? undefined : { element: { name: c.name, type: 'TSRC', nodes: [a, b], params: { T } } };
    }
    case 44: {
      const P = sourceValue(ctx, c, 'heat source');
      return P === undefined ? undefined : { element: { name: c.name, type: 'QSRC', nodes: [b, a], params: { P } } };
    }
    case PV_TYP:
      return lossSource(env, index, c);
    default:
      return undefined;
  }
}

/** Whether a power-circuit typ is a semiconductor with a loss model. */
export const hasLosses = (typ: number): boolean => ELEMENT_KINDS[typ]?.semiconductor === true;
