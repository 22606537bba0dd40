// GeckoCIRCUITS component types as this reader and writer know them: the `typ` number of each
// block kind, its name prefix, its terminals, and the parameters shared by reader and writer
// (`parameter[]` slot, named key, netlist name, GeckoCIRCUITS default). Types are identified by
// `typ` only, never by component name. Sources (U, I), SIGNAL, VOLT, AMP, GATE, SCOPE, K and Trans
// have special handling in elements.ts / controls.ts / signals.ts; their simple parameters are here.
import type { BlockType, ElementType } from '../netlist.js';
import { MULTI_OUTPUT_BLOCK_KINDS } from './catalog-multi.js';

export interface ParamSpec {
  /** GeckoCIRCUITS parameter identifier (the named line `key value`). */
  key: string;
  /** Index in `parameter[]`; -1 for named-only parameters. */
  slot: number;
  /** Parameter name in the netlist. */
  net: string;
  /** GeckoCIRCUITS default value. */
  def: number;
  /**
   * Smallest value GeckoCIRCUITS simulates: a smaller one is stamped as this (LKMatrices
   * FAST_NULL_R = 1e-9 Ω for R and Rth, FAST_NULL_L = 1e-12 H for L); the reader does the same.
   */
  floor?: { value: number; unit: string };
}

export interface ElementKind {
  typ: number;
  prefix: string;
  type: ElementType;
  /** 'twoPort': XIN[0], YOUT[0] at distance 2; 'transformer': two XIN, two YOUT; 'none': K;
   * 'opamp': XIN[0] (+), XIN[1] (−), YOUT[0] (out), YOUT[1] (ref), geometry.ts;
   * 'threePhase': XIN[0..2] (phases a, b, c of a machine). */
  terminals: 'twoPort' | 'transformer' | 'none' | 'opamp' | 'threePhase';
  params: ParamSpec[];
  /** Writes a `<Verluste>` (loss) block. */
  semiconductor?: boolean;
}

const DIODE_LIKE: ParamSpec[] = [
  { key: 'forwardVoltageDrop', slot: 1, net: 'vf', def: 0.6 },
  { key: 'onResistance', slot: 2, net: 'ron', def: 0.01 },
  { key: 'offResistance', slot: 3, net: 'roff', def: 1e7 },
];

/** Power-circuit element types (block `e`) that the engine can simulate. */
export const ELEMENT_KINDS: Record<number, ElementKind> = {
  1: { typ: 1, prefix: 'R', type: 'R', terminals: 'twoPort', params: [{ key: 'resistance', slot: 0, net: 'R', def: 1000, floor: { value: 1e-9, unit: 'Ω' } }] },
  2: { typ: 2, prefix: 'L', type: 'L', terminals: 'twoPort', params: [
    { key: 'inductance', slot: 0, net: 'L', def: 1e-3, floor: { value: 1e-12, unit: 'H' } }, { key: 'initialCurrent', slot: 1, net: 'i0', def: 0 }] },
  3: { typ: 3, prefix: 'C', type: 'C', terminals: 'twoPort', params: [
    { key: 'capacitance', slot: 0, net: 'C', def: 1e-6 }, { key: 'initVoltage', slot: 1, net: 'v0', def: 0 }] },
  4: { typ: 4, prefix: 'U', type: 'V', terminals: 'twoPort', params: [] },
  5: { typ: 5, prefix: 'I', type: 'I', terminals: 'twoPort', params: [] },
  6: { typ: 6, prefix: 'D', type: 'D', terminals: 'twoPort', params: DIODE_LIKE, semiconductor: true },
  7: { typ: 7, prefix: 'S', type: 'S', terminals: 'twoPort', semiconductor: true, params: [
    { key: 'onResistance', slot: 1, net: 'ron', def: 0.01 }, { key: 'offResistance', slot: 2, net: 'roff', def: 1e7 }] },
  8: { typ: 8, prefix: 'THYR', type: 'THYR', terminals: 'twoPort', semiconductor: true, params: [
    ...DIODE_LIKE, { key: 'reverserecoverydelay', slot: 9, net: 'trr', def: 0 }] },
  9: { typ: 9, prefix: 'K', type: 'K', terminals: 'none', params: [{ key: 'couplingCoefficient', slot: 0, net: 'k', def: 0.99 }] },
  10: { typ: 10, prefix: 'IGBT', type: 'IGBT', terminals: 'twoPort', params: DIODE_LIKE, semiconductor: true },
  12: { typ: 12, prefix: 'Lc', type: 'L', terminals: 'twoPort', params: [
    { key: 'inductance', slot: 0, net: 'L', def: 1e-3 }, { key: 'initialCurrent', slot: 1, net: 'i0', def: 0 }] },
  23: { typ: 23, prefix: 'Trans', type: 'TRANS', terminals: 'transformer', params: [
    { key: 'windings1', slot: 0, net: 'n1', def: 10 }, { key: 'windings2', slot: 1, net: 'n2', def: 2 }] },
  28: { typ: 28, prefix: 'MOSFET', type: 'MOSFET', terminals: 'twoPort', semiconductor: true, params: [
    { key: 'onResistance', slot: 2, net: 'ron', def: 0.01 }, { key: 'offResistance', slot: 3, net: 'roff', def: 1e7 },
    { key: 'antiParallelDiodeUF', slot: -1, net: 'diodeVf', def: 0.6 },
    { key: 'antiParallelDiodeRon', slot: -1, net: 'diodeRon', def: 0.01 },
    { key: 'antiParallelDiodeRoff', slot: -1, net: 'diodeRoff', def: 1e7 }] },
  // GeckoCIRCUITS OperationalAmplifier (elements/opamp.hpp); its keys end in dots as in the file.
  22: { typ: 22, prefix: 'OPV', type: 'OPV', terminals: 'opamp', params: [
    { key: 'inputResistance', slot: 0, net: 'rin', def: 90000 }, { key: 'outputResistance', slot: 1, net: 'rout', def: 0.12 },
    { key: 'frequencyDependency', slot: 4, net: 'fp', def: 1e5 }, { key: 'gainValue', slot: 5, net: 'gain', def: 10000 },
    { key: 'voltageLimitMax.', slot: 7, net: 'vmax', def: 12 }, { key: 'voltageLimitatMin.', slot: 8, net: 'vmin', def: -12 },
    { key: 'voltageDividerRa', slot: 13, net: 'ra', def: 1 }, { key: 'voltageDividerRb', slot: 14, net: 'rb', def: 100 }] },
  // GeckoCIRCUITS MotorPMSM (elements/pmsm.hpp); the load torque is read in pmsm.ts.
  15: { typ: 15, prefix: 'PMSM', type: 'PMSM', terminals: 'threePhase', params: [
    { key: 'inducedbythepermanentMagnet', slot: 7, net: 'psi', def: 0.15 }, { key: 'frictionCoefficient', slot: 8, net: 'friction', def: 0.1 },
    { key: 'inertia', slot: 9, net: 'J', def: 1 }, { key: 'polePairs', slot: 11, net: 'polePairs', def: 1 },
    { key: 'statorResistance', slot: 12, net: 'Rs', def: 0.5 }, { key: 'statorInductanceD', slot: 13, net: 'Ld', def: 0.002 },
    { key: 'statorInductanceQ', slot: 14, net: 'Lq', def: 0.002 }, { key: 'initialStatorCurrentA', slot: 15, net: 'ia0', def: 0 },
    { key: 'initialStatorCurrentB', slot: 16, net: 'ib0', def: 0 }, { key: 'initialRotationalSpeed', slot: 17, net: 'omega0', def: 0 },
    { key: 'initialRotorPosition', slot: 18, net: 'theta0', def: 0 }] },
};

/** Power-circuit types the engine cannot simulate, by typ, for error messages. */
export const UNSUPPORTED_ELEMENT_NAMES: Record<number, string> = {
  14: 'DC motor', 16: 'motor', 17: 'motor', 18: 'motor', 19: 'motor', 20: 'motor',
  21: 'motor', 51: 'motor', 24: 'reluctance element', 25: 'reluctance element',
  26: 'reluctance element', 30: 'reluctance element', 32: 'reluctance element', 52: 'reluctance element',
  29: 'subcircuit terminal', 31: 'global terminal', 33: 'BJT',
};

/** Element `typ` → element kind, writer side: netlist type → typ (L → 2, or 12 when coupled). */
export const TYP_OF_ELEMENT: Partial<Record<ElementType, number>> = {
  R: 1, L: 2, C: 3, V: 4, I: 5, D: 6, S: 7, THYR: 8, K: 9, IGBT: 10, TRANS: 23, MOSFET: 28, OPV: 22, PMSM: 15,
};

export interface BlockKind {
  typ: number;
  prefix: string;
  type: BlockType;
  /** Fixed number of inputs, or 'var' (the count of `labelAnfangsKnoten[]` entries). */
  inputs: number | 'var';
  outputs: number;
  /** x offset of the output terminals where the GeckoCIRCUITS block class places them itself. */
  outputX?: number;
  params: ParamSpec[];
  /** Extra input terminals when the block uses external parameters (`useExternal`). */
  external?: { slot: number; positions: Array<[number, number]> };
}

const unary = (typ: number, prefix: string, type: BlockType): BlockKind => ({ typ, prefix, type, inputs: 1, outputs: 1, params: [] });
const binary = (typ: number, prefix: string, type: BlockType): BlockKind => ({ typ, prefix, type, inputs: 2, outputs: 1, params: [] });
const variadic = (typ: number, prefix: string, type: BlockType): BlockKind => ({ typ, prefix, type, inputs: 'var', outputs: 1, params: [] });

/** Control block types (block `c`) that map onto engine blocks. */
export const BLOCK_KINDS: Record<number, BlockKind> = {
  1: { typ: 1, prefix: 'VOLT', type: 'VOLT', inputs: 0, outputs: 1, params: [] },
  2: { typ: 2, prefix: 'AMP', type: 'AMP', inputs: 0, outputs: 1, params: [] },
  3: { typ: 3, prefix: 'CONST', type: 'CONST', inputs: 0, outputs: 1, params: [{ key: 'constantValue', slot: 0, net: 'value', def: 1 }] },
  4: { typ: 4, prefix: 'SIGNAL', type: 'SIGNAL', inputs: 0, outputs: 1, params: [],
    external: { slot: 6, positions: [[-1, -2], [-1, -3], [-1, -4], [-1, -5], [-1, -6]] } },
  5: { typ: 5, prefix: 'SCOPE', type: 'SCOPE', inputs: 'var', outputs: 0, params: [] },
  6: { typ: 6, prefix: 'GATE', type: 'GATE', inputs: 1, outputs: 0, params: [] },
  7: { typ: 7, prefix: 'GAIN', type: 'GAIN', inputs: 1, outputs: 1, params: [{ key: 'k', slot: 0, net: 'k', def: 1 }] },
  8: { typ: 8, prefix: 'PT1', type: 'PT1', inputs: 1, outputs: 1, params: [
    { key: 'T', slot: 0, net: 'T', def: 1e-3 }, { key: 'a1', slot: 1, net: 'gain', def: 1 }] },
  // GeckoCIRCUITS ReglerPT2 (AbstractReglerPT): the undamped T²·y'' + y = a1·x.
  9: { typ: 9, prefix: 'PT2', type: 'PT2', inputs: 1, outputs: 1, params: [
    { key: 'T', slot: 0, net: 'T', def: 1 }, { key: 'a1', slot: 1, net: 'gain', def: 1 }] },
  10: { typ: 10, prefix: 'PI', type: 'PI', inputs: 1, outputs: 1, params: [
    { key: 'r0', slot: 0, net: 'kp', def: 1 }, { key: 'a1', slot: 1, net: 'ki', def: 1 }] },
  11: { typ: 11, prefix: 'HYS', type: 'HYS', inputs: 1, outputs: 1, params: [{ key: 'h', slot: 0, net: 'h', def: -1 }],
    external: { slot: 1, positions: [[-1, -2]] } },
  12: variadic(12, 'ADD', 'ADD'),
  13: variadic(13, 'SUB', 'SUB'),
  14: variadic(14, 'MUL', 'MUL'),
  15: binary(15, 'DIV', 'DIV'),
  18: unary(18, 'NOT', 'NOT'),
  19: variadic(19, 'AND', 'AND'),
  20: variadic(20, 'OR', 'OR'),
  21: binary(21, 'XOR', 'XOR'),
  26: binary(26, 'SHLD', 'SAMPLEHOLD'),
  29: { typ: 29, prefix: 'PD', type: 'PD', inputs: 1, outputs: 1, params: [{ key: 'a1', slot: 0, net: 'gain', def: 1 }] },
  25: { typ: 25, prefix: 'DELAY', type: 'DELAY', inputs: 1, outputs: 1, params: [{ key: 'tDelay', slot: 0, net: 'delay', def: 1e-5 }] },
  27: { typ: 27, prefix: 'LIMIT', type: 'LIMIT', inputs: 1, outputs: 1, params: [
    { key: 'minLimit', slot: 0, net: 'min', def: -1 }, { key: 'maxLimit', slot: 1, net: 'max', def: 1 }],
  external: { slot: 2, positions: [[-1, -2], [-1, -3]] } },
  32: unary(32, 'ABS', 'ABS'),
  33: unary(33, 'ROUND', 'ROUND'),
  34: unary(34, 'SIN', 'SIN'),
  35: unary(35, 'ASIN', 'ASIN'),
  36: unary(36, 'COS', 'COS'),
  37: unary(37, 'ACOS', 'ACOS'),
  38: unary(38, 'TAN', 'TAN'),
  39: unary(39, 'ATAN', 'ATAN'),
  40: unary(40, 'EXP', 'EXP'),
  41: unary(41, 'LN', 'LN'),
  42: unary(42, 'SQR', 'SQR'),
  43: unary(43, 'SQRT', 'SQRT'),
  // GeckoCIRCUITS ReglerPOW: y = x1^x2.
  44: binary(44, 'POW', 'POW'),
  45: binary(45, 'GE', 'GE'),
  46: binary(46, 'GT', 'GT'),
  47: variadic(47, 'EQ', 'EQ'),
  48: binary(48, 'NE', 'NE'),
  49: variadic(49, 'MIN', 'MIN'),
  50: variadic(50, 'MAX', 'MAX'),
  51: unary(51, 'SGN', 'SIGN'),
  53: binary(53, 'COUNTER', 'COUNTER'),
  58: { typ: 58, prefix: 'TIME', type: 'TIME', inputs: 0, outputs: 1, params: [] },
  // GeckoCIRCUITS ReglerTransferFunction: polynomials in transfer-function.ts.
  74: { typ: 74, prefix: 'TF', type: 'TF', inputs: 1, outputs: 1, params: [] },
  // CISPR 16 test receiver: parameters in cispr16.ts.
  60: { typ: 60, prefix: 'CISPR16', type: 'CISPR16', inputs: 1, outputs: 0, params: [] },
  64: { typ: 64, prefix: 'INT', type: 'INT', inputs: 2, outputs: 1, params: [
    { key: 'a1', slot: 0, net: 'gain', def: 1 }, { key: 'y0', slot: 1, net: 'y0', def: 0 },
    { key: 'min', slot: 2, net: 'min', def: -1 }, { key: 'max', slot: 3, net: 'max', def: 1 }] },
  ...MULTI_OUTPUT_BLOCK_KINDS,
};

/** Control blocks that only display or export data: dropped with a warning (if no output is used). */
export const DISPLAY_ONLY_BLOCKS: Record<number, string> = {
  22: 'ToEXTERNAL', 75: 'data export', 86: 'control debug',
  63: 'space-vector diagram',
};

/** Control types the engine cannot simulate, by typ, for error messages. */
export const UNSUPPORTED_BLOCK_NAMES: Record<number, string> = {
  16: 'temperature meter', 17: 'heat-flow meter', 23: 'FromEXTERNAL',
  61: 'Java block',
  76: 'PMSM control', 77: 'PMSM modulator', 78: 'subcircuit terminal', 79: 'MMF meter', 80: 'flux meter',
  81: 'global terminal', 82: 'sliding DFT',
  // GeckoCIRCUITS MUXControlCalculatable / DEMUXCalculator carry one vector signal on one terminal.
  84: 'MUX: bundles scalar signals into one vector signal (read by DEMUX or Java blocks); the engine\'s control signals are scalar',
  85: 'DEMUX: splits a vector signal (from MUX or a Java block) into scalars; the engine\'s control signals are scalar',
  87: 'small-signal analysis', 88: 'native C block',
  89: 'import-from-file source', 90: 'random source',
};

/** Writer side: netlist block type → control typ. */
export const TYP_OF_BLOCK: Partial<Record<BlockType, number>> = Object.fromEntries(
  Object.values(BLOCK_KINDS).map((kind) => [kind.type, kind.typ]),
);

/** Number of input terminals of a control block, given its saved input labels. */
export function inputCount(kind: BlockKind, savedLabels: number): { inputs: number; external: boolean } {
  if (kind.inputs === 'var') return { inputs: savedLabels, external: false };
  if (kind.external && savedLabels > kind.inputs) {
    return { inputs: kind.inputs + kind.external.positions.length, external: true };
  }
  return { inputs: kind.inputs, external: false };
}

/** x offset of a control block's outputs (GeckoCIRCUITS `RegelBlock`): 1 next to 1-2 inputs, else 2. */
export function outputOffset(kind: BlockKind): number {
  if (kind.outputX !== undefined) return kind.outputX;
  return kind.inputs === 'var' || kind.inputs === 1 || kind.inputs === 2 ? 1 : 2;
}
