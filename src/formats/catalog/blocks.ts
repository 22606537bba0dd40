// The control block types: one entry per netlist block type, in the order of the netlist schema.
// Each holds its GeckoCIRCUITS control block where it has one (`typ`, prefix, terminals, parameters:
// the .ipes reader and writer map it from here; blocks with more to map than parameters have a
// reader and writer of their own: READERS in ipes/controls.ts, WRITERS in ipes/plan-blocks.ts) and
// its SPICE behavioural form where it has one. `BlockType` and the schema's list of types derive from it.
// Terminals of the multi-output blocks as the GeckoCIRCUITS classes place them: inputs at
// (x − 2, y + i), outputs at (x + outputX, y + j), j in the order of the netlist's `outputs`.
import type { BlockEntry, GeckoBlock, SpiceForm } from './types.js';

function block<const T extends string>(type: T, gecko?: GeckoBlock, spice?: SpiceForm): BlockEntry & { type: T } {
  return { type, ...(gecko ? { gecko } : {}), ...(spice ? { spice } : {}) };
}

const unary = (typ: number, prefix: string): GeckoBlock => ({ typ, prefix, inputs: 1, outputs: 1, params: [] });
const binary = (typ: number, prefix: string): GeckoBlock => ({ typ, prefix, inputs: 2, outputs: 1, params: [] });
const variadic = (typ: number, prefix: string): GeckoBlock => ({ typ, prefix, inputs: 'var', outputs: 1, params: [] });
const source = (typ: number, prefix: string, params: GeckoBlock['params'] = []): GeckoBlock => ({ typ, prefix, inputs: 0, outputs: 1, params });
/** A function of one argument, read from and written to SPICE expressions as `name(x)`. */
const spiceFunction = (name: string, ...aliases: string[]): SpiceForm => ({ functions: [name, ...aliases], expression: (x) => `${name}(${x})` });

export const BLOCK_CATALOG = [
  block('SIGNAL', { ...source(4, 'SIGNAL'), external: { slot: 6, positions: [[-1, -2], [-1, -3], [-1, -4], [-1, -5], [-1, -6]] } }),
  block('CONST', source(3, 'CONST', [{ key: 'constantValue', slot: 0, net: 'value', def: 1 }])),
  block('GAIN', { typ: 7, prefix: 'GAIN', inputs: 1, outputs: 1, params: [{ key: 'k', slot: 0, net: 'k', def: 1 }] }),
  block('ADD', variadic(12, 'ADD'), { operator: '+' }),
  block('SUB', variadic(13, 'SUB'), { operator: '-' }),
  block('MUL', variadic(14, 'MUL'), { operator: '*' }),
  block('DIV', binary(15, 'DIV'), { operator: '/' }),
  block('PI', { typ: 10, prefix: 'PI', inputs: 1, outputs: 1, params: [
    { key: 'r0', slot: 0, net: 'kp', def: 1 }, { key: 'a1', slot: 1, net: 'ki', def: 1 }] }),
  block('PT1', { typ: 8, prefix: 'PT1', inputs: 1, outputs: 1, params: [
    { key: 'T', slot: 0, net: 'T', def: 1e-3 }, { key: 'a1', slot: 1, net: 'gain', def: 1 }] }),
  block('LIMIT', { typ: 27, prefix: 'LIMIT', inputs: 1, outputs: 1, params: [
    { key: 'minLimit', slot: 0, net: 'min', def: -1 }, { key: 'maxLimit', slot: 1, net: 'max', def: 1 }],
  external: { slot: 2, positions: [[-1, -2], [-1, -3]] } }),
  block('HYS', { typ: 11, prefix: 'HYS', inputs: 1, outputs: 1, params: [{ key: 'h', slot: 0, net: 'h', def: -1 }],
    external: { slot: 1, positions: [[-1, -2]] } }),
  block('GT', binary(46, 'GT'), { operator: '>' }),
  block('GE', binary(45, 'GE'), { operator: '>=' }),
  // No GeckoCIRCUITS block: the writer writes GT/GE with the inputs swapped (ipes/plan-blocks.ts).
  block('LT', undefined, { operator: '<' }),
  block('LE', undefined, { operator: '<=' }),
  block('EQ', variadic(47, 'EQ'), { operator: '==' }),
  block('NE', binary(48, 'NE'), { operator: '!=' }),
  block('NOT', unary(18, 'NOT')),
  block('AND', variadic(19, 'AND')),
  block('OR', variadic(20, 'OR')),
  block('XOR', binary(21, 'XOR')),
  block('DELAY', { typ: 25, prefix: 'DELAY', inputs: 1, outputs: 1, params: [{ key: 'tDelay', slot: 0, net: 'delay', def: 1e-5 }] }),
  block('INT', { typ: 64, prefix: 'INT', inputs: 2, outputs: 1, params: [
    { key: 'a1', slot: 0, net: 'gain', def: 1 }, { key: 'y0', slot: 1, net: 'y0', def: 0 },
    { key: 'min', slot: 2, net: 'min', def: -1 }, { key: 'max', slot: 3, net: 'max', def: 1 }] }),
  block('TIME', source(58, 'TIME')),
  block('ABS', unary(32, 'ABS'), spiceFunction('abs')),
  block('SIGN', unary(51, 'SGN'), { functions: ['sgn', 'sign'] }),
  block('SQRT', unary(43, 'SQRT'), spiceFunction('sqrt')),
  block('SQR', unary(42, 'SQR'), { expression: (x) => `(${x})*(${x})` }),
  block('EXP', unary(40, 'EXP'), spiceFunction('exp')),
  block('LN', unary(41, 'LN'), spiceFunction('ln', 'log')),
  block('SIN', unary(34, 'SIN'), spiceFunction('sin')),
  block('COS', unary(36, 'COS'), spiceFunction('cos')),
  block('ATAN', unary(39, 'ATAN'), spiceFunction('atan')),
  block('ROUND', unary(33, 'ROUND'), { functions: ['round'] }),
  // y = ⌊x⌋; GeckoCIRCUITS has no such block.
  block('FLOOR', undefined, spiceFunction('floor')),
  block('MIN', variadic(49, 'MIN')),
  block('MAX', variadic(50, 'MAX')),
  // GeckoCIRCUITS ReglerASIN / ReglerACOS / ReglerTAN.
  block('ASIN', unary(35, 'ASIN'), spiceFunction('asin')),
  block('ACOS', unary(37, 'ACOS'), spiceFunction('acos')),
  block('TAN', unary(38, 'TAN'), spiceFunction('tan')),
  // GeckoCIRCUITS ReglerPOW: y = x1^x2.
  block('POW', binary(44, 'POW')),
  // GeckoCIRCUITS ReglerPT2 (AbstractReglerPT): the undamped T²·y'' + y = a1·x.
  block('PT2', { typ: 9, prefix: 'PT2', inputs: 1, outputs: 1, params: [
    { key: 'T', slot: 0, net: 'T', def: 1 }, { key: 'a1', slot: 1, net: 'gain', def: 1 }] }),
  // GeckoCIRCUITS ReglerTransferFunction: polynomials in ipes/transfer-function.ts.
  block('TF', { typ: 74, prefix: 'TF', inputs: 1, outputs: 1, params: [] }),
  block('GATE', { typ: 6, prefix: 'GATE', inputs: 1, outputs: 0, params: [] }),
  block('VOLT', source(1, 'VOLT')),
  block('AMP', source(2, 'AMP')),
  block('SCOPE', { typ: 5, prefix: 'SCOPE', inputs: 'var', outputs: 0, params: [] }),
  block('COUNTER', binary(53, 'COUNTER')),
  block('SAMPLEHOLD', binary(26, 'SHLD')),
  block('PD', { typ: 29, prefix: 'PD', inputs: 1, outputs: 1, params: [{ key: 'a1', slot: 0, net: 'gain', def: 1 }] }),
  // Written as GeckoCIRCUITS signal sources (typ 4) with their data (ipes/plan-data.ts).
  block('PWL'),
  block('RANDOM'),
  // ReglerThyristorControl: inputs alpha, sync; outputs gt_A1, gt_A2, gt_A3, gt_B1, gt_B2, gt_B3 at x + 2
  // (`RegelBlock(0, 6)`); parameters are named lines only.
  block('THYRISTOR_CONTROL', { typ: 72, prefix: 'THYRISTOR_CONTROL', inputs: 2, outputs: 6, outputX: 2, params: [
    { key: 'onTime', slot: -1, net: 'onTime', def: 4e-3 },
    { key: 'initFreq', slot: -1, net: 'initFreq', def: 50 },
    { key: 'phaseShift', slot: -1, net: 'phaseShift', def: 30 }] }),
  // ReglerABCDQ: inputs a, b, c, θ; outputs d, q at x + 1.
  block('ABCDQ', { typ: 65, prefix: 'ABCDQ', inputs: 4, outputs: 2, outputX: 1, params: [] }),
  // ReglerDQABC: inputs d, q, θ; outputs a, b, c at x + 1.
  block('DQABC', { typ: 66, prefix: 'DQABC', inputs: 3, outputs: 3, outputX: 1, params: [] }),
  // ReglerSPARSEMATRIX: inputs fp, uN1, uN2, uN3, uNmax, uLmax, fL, phi2; outputs s1+, s2+, s3+, s1−,
  // s2−, s3−, sA, sB, sC at x + 2.
  block('SPARSEMATRIX', { typ: 59, prefix: 'SPARSEMATRIX', inputs: 8, outputs: 9, outputX: 2, params: [] }),
  // GeckoCIRCUITS Java blocks and machine meters: read and written by ipes/java-blocks.ts and
  // ipes/machine-meter.ts (their terminals follow the code and the machine).
  block('JAVA'),
  block('MACHINE'),
  // CISPR 16 test receiver: parameters in ipes/cispr16.ts.
  block('CISPR16', { typ: 60, prefix: 'CISPR16', inputs: 1, outputs: 0, params: [] }),
  // Meters of the electro-thermal domain (ipes/thermal-blocks.ts).
  block('TEMP'),
  block('FLOW'),
  block('LOSS'),
] as const;

export type BlockType = (typeof BLOCK_CATALOG)[number]['type'];

export const BLOCK_TYPES: readonly BlockType[] = BLOCK_CATALOG.map((entry) => entry.type);

const BY_TYPE: ReadonlyMap<string, BlockEntry> = new Map(BLOCK_CATALOG.map((entry) => [entry.type, entry]));

/** The catalog entry of a block type; undefined for a type that is not one. */
export function blockEntry(type: string): BlockEntry | undefined {
  return BY_TYPE.get(type);
}
