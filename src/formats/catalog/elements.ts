// The power-circuit element types: one entry per netlist element type, in the order of the netlist
// schema, with the GeckoCIRCUITS components (block `e`) the .ipes reader maps onto it and the
// writer writes (`typ`, prefix, terminals, parameters). `ElementType` and the schema's list derive
// from it. Sources (U, I), K and Trans have special handling in ipes/elements.ts; their simple
// parameters are here.
import type { ElementEntry, GeckoElement, ParamSpec } from './types.js';

function element<const T extends string>(type: T, ...gecko: GeckoElement[]): ElementEntry & { type: T } {
  return { type, gecko };
}

const DIODE_LIKE: ParamSpec[] = [
  { key: 'forwardVoltageDrop', slot: 1, net: 'vf', def: 0.6 },
  { key: 'onResistance', slot: 2, net: 'ron', def: 0.01 },
  { key: 'offResistance', slot: 3, net: 'roff', def: 1e7 },
];

export const ELEMENT_CATALOG = [
  element('R', { typ: 1, prefix: 'R', terminals: 'twoPort', params: [
    { key: 'resistance', slot: 0, net: 'R', def: 1000, floor: { value: 1e-9, unit: 'Ω' } }] }),
  element('L', { typ: 2, prefix: 'L', terminals: 'twoPort', params: [
    { key: 'inductance', slot: 0, net: 'L', def: 1e-3, floor: { value: 1e-12, unit: 'H' } }, { key: 'initialCurrent', slot: 1, net: 'i0', def: 0 }] },
  { typ: 12, prefix: 'Lc', terminals: 'twoPort', params: [
    { key: 'inductance', slot: 0, net: 'L', def: 1e-3 }, { key: 'initialCurrent', slot: 1, net: 'i0', def: 0 }] }),
  element('C', { typ: 3, prefix: 'C', terminals: 'twoPort', params: [
    { key: 'capacitance', slot: 0, net: 'C', def: 1e-6 }, { key: 'initVoltage', slot: 1, net: 'v0', def: 0 }] }),
  element('K', { typ: 9, prefix: 'K', terminals: 'none', params: [{ key: 'couplingCoefficient', slot: 0, net: 'k', def: 0.99 }] }),
  element('TRANS', { typ: 23, prefix: 'Trans', terminals: 'transformer', params: [
    { key: 'windings1', slot: 0, net: 'n1', def: 10 }, { key: 'windings2', slot: 1, net: 'n2', def: 2 }] }),
  element('V', { typ: 4, prefix: 'U', terminals: 'twoPort', params: [] }),
  element('I', { typ: 5, prefix: 'I', terminals: 'twoPort', params: [] }),
  element('E'),
  element('F'),
  element('G'),
  element('H'),
  element('S', { typ: 7, prefix: 'S', terminals: 'twoPort', semiconductor: true, params: [
    { key: 'onResistance', slot: 1, net: 'ron', def: 0.01 }, { key: 'offResistance', slot: 2, net: 'roff', def: 1e7 }] }),
  element('VSW'),
  element('CSW'),
  element('D', { typ: 6, prefix: 'D', terminals: 'twoPort', params: DIODE_LIKE, semiconductor: true }),
  element('THYR', { typ: 8, prefix: 'THYR', terminals: 'twoPort', semiconductor: true, params: [
    ...DIODE_LIKE, { key: 'reverserecoverydelay', slot: 9, net: 'trr', def: 0 }] }),
  element('IGBT', { typ: 10, prefix: 'IGBT', terminals: 'twoPort', params: DIODE_LIKE, semiconductor: true }),
  element('MOSFET', { typ: 28, prefix: 'MOSFET', terminals: 'twoPort', semiconductor: true, params: [
    { key: 'onResistance', slot: 2, net: 'ron', def: 0.01 }, { key: 'offResistance', slot: 3, net: 'roff', def: 1e7 },
    { key: 'antiParallelDiodeUF', slot: -1, net: 'diodeVf', def: 0.6 },
    { key: 'antiParallelDiodeRon', slot: -1, net: 'diodeRon', def: 0.01 },
    { key: 'antiParallelDiodeRoff', slot: -1, net: 'diodeRoff', def: 1e7 }] }),
  // GeckoCIRCUITS OperationalAmplifier (elements/opamp.hpp); its keys end in dots as in the file.
  element('OPV', { typ: 22, prefix: 'OPV', terminals: 'opamp', params: [
    { key: 'inputResistance', slot: 0, net: 'rin', def: 90000 }, { key: 'outputResistance', slot: 1, net: 'rout', def: 0.12 },
    { key: 'frequencyDependency', slot: 4, net: 'fp', def: 1e5 }, { key: 'gainValue', slot: 5, net: 'gain', def: 10000 },
    { key: 'voltageLimitMax.', slot: 7, net: 'vmax', def: 12 }, { key: 'voltageLimitatMin.', slot: 8, net: 'vmin', def: -12 },
    { key: 'voltageDividerRa', slot: 13, net: 'ra', def: 1 }, { key: 'voltageDividerRb', slot: 14, net: 'rb', def: 100 }] }),
  // GeckoCIRCUITS MotorPMSM (elements/pmsm.hpp); the load torque is read in ipes/pmsm.ts.
  element('PMSM', { typ: 15, prefix: 'PMSM', terminals: 'threePhase', params: [
    { key: 'inducedbythepermanentMagnet', slot: 7, net: 'psi', def: 0.15 }, { key: 'frictionCoefficient', slot: 8, net: 'friction', def: 0.1 },
    { key: 'inertia', slot: 9, net: 'J', def: 1 }, { key: 'polePairs', slot: 11, net: 'polePairs', def: 1 },
    { key: 'statorResistance', slot: 12, net: 'Rs', def: 0.5 }, { key: 'statorInductanceD', slot: 13, net: 'Ld', def: 0.002 },
    { key: 'statorInductanceQ', slot: 14, net: 'Lq', def: 0.002 }, { key: 'initialStatorCurrentA', slot: 15, net: 'ia0', def: 0 },
    { key: 'initialStatorCurrentB', slot: 16, net: 'ib0', def: 0 }, { key: 'initialRotationalSpeed', slot: 17, net: 'omega0', def: 0 },
    { key: 'initialRotorPosition', slot: 18, net: 'theta0', def: 0 }] }),
] as const;

export type ElementType = (typeof ELEMENT_CATALOG)[number]['type'];

export const ELEMENT_TYPES: readonly ElementType[] = ELEMENT_CATALOG.map((entry) => entry.type);
