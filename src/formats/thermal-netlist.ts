// The thermal part of the canonical netlist: thermal elements (`thermal`, a node namespace of its
// own, node "0" = the thermal reference at 0 °C; temperatures in °C, heat flow in W), the measured
// loss curves of semiconductors (`lossModels`), and the thermal control blocks TEMP, FLOW and LOSS.
// These are the types and the JSON Schema of those parts; `assertThermalNetlistShape` checks a
// netlist that may carry them (the rest through `assertNetlistShape`).
import { Ajv } from 'ajv';
import { NetlistError } from './errors.js';
import { assertNetlistShape, type ControlBlock, type Netlist, type ParamValue } from './netlist.js';

export type ThermalElementType = 'RTH' | 'CTH' | 'TSRC' | 'QSRC' | 'PV';
export const THERMAL_ELEMENT_TYPES: readonly ThermalElementType[] = ['RTH', 'CTH', 'TSRC', 'QSRC', 'PV'];

/**
 * A thermal element between thermal nodes a and b.
 * RTH `R` [K/W]: heat flow a→b = (T_a − T_b)/R. CTH `C` [J/K], `T0` [°C] initial T_a − T_b.
 * TSRC `T` [°C]: T_a − T_b = T. QSRC `P` [W] into a, out of b. PV: the instantaneous loss of the
 * semiconductor `device` (`part`: total | conduction | switching) into a (the junction), out of b.
 */
export interface ThermalElement {
  name: string;
  type: ThermalElementType;
  nodes: string[];
  params?: Record<string, ParamValue>;
}

/** On-state voltage u(i) [V] over current i [A] at junction temperature T [°C]. */
export interface ConductionCurve {
  T: number;
  i: number[];
  u: number[];
}

/** Switching energy E(i) [J] over current i [A] at junction temperature T [°C], measured at uRef [V]. */
export interface SwitchingCurve {
  T: number;
  uRef: number;
  i: number[];
  E: number[];
}

export interface LossModel {
  conduction: ConductionCurve[];
  turnOn: SwitchingCurve[];
  turnOff: SwitchingCurve[];
}

export type ThermalBlockType = 'TEMP' | 'FLOW' | 'LOSS';
export const THERMAL_BLOCK_TYPES: readonly ThermalBlockType[] = ['TEMP', 'FLOW', 'LOSS'];

/** Loss parts a PV element or a LOSS block can deliver. */
export const LOSS_PARTS = ['total', 'conduction', 'switching'] as const;
export type LossPart = (typeof LOSS_PARTS)[number];

/** A netlist with the thermal parts. */
export interface ThermalNetlist extends Netlist {
  thermal?: ThermalElement[];
  lossModels?: Record<string, LossModel>;
}

/** A TEMP / FLOW / LOSS block in the netlist's `blocks` (their type is outside `BlockType`). */
export type ThermalControlBlock = Omit<ControlBlock, 'type'> & { type: ThermalBlockType };

/** Stores a thermal block among the control blocks. */
export const asControlBlock = (b: ThermalControlBlock): ControlBlock => b as unknown as ControlBlock;

export const isThermalBlock = (b: ControlBlock): boolean => (THERMAL_BLOCK_TYPES as readonly string[]).includes(b.type);

const paramValueSchema = {
  oneOf: [{ type: 'number' }, { type: 'string' }, { type: 'array', items: { type: 'number' } }, { type: 'array', items: { type: 'string' } }],
};
const name = { type: 'string', minLength: 1, maxLength: 200 };
const numbers = { type: 'array', items: { type: 'number' } };
const conduction = { type: 'object', required: ['T', 'i', 'u'], additionalProperties: false, properties: { T: { type: 'number' }, i: numbers, u: numbers } };
const switching = {
  type: 'object', required: ['T', 'uRef', 'i', 'E'], additionalProperties: false,
  properties: { T: { type: 'number' }, uRef: { type: 'number' }, i: numbers, E: numbers },
};

/** JSON Schema of the thermal parts of a netlist. */
export const thermalSchema = {
  type: 'object',
  properties: {
    thermal: {
      type: 'array',
      items: {
        type: 'object', required: ['name', 'type', 'nodes'], additionalProperties: false,
        properties: {
          name, type: { enum: [...THERMAL_ELEMENT_TYPES] }, nodes: { type: 'array', items: name, minItems: 2, maxItems: 2 },
          params: { type: 'object', additionalProperties: paramValueSchema },
        },
      },
    },
    lossModels: {
      type: 'object',
      additionalProperties: {
        type: 'object', required: ['conduction', 'turnOn', 'turnOff'], additionalProperties: false,
        properties: { conduction: { type: 'array', items: conduction }, turnOn: { type: 'array', items: switching }, turnOff: { type: 'array', items: switching } },
      },
    },
    thermalBlocks: {
      type: 'array',
      items: {
        type: 'object', required: ['name', 'type'], additionalProperties: false,
        properties: {
          name, type: { enum: [...THERMAL_BLOCK_TYPES] }, inputs: { type: 'array', maxItems: 0 }, outputs: { type: 'array', items: name },
          params: { type: 'object', additionalProperties: paramValueSchema },
        },
      },
    },
  },
} as const;

const validateThermal = new Ajv({ allErrors: true, strict: false }).compile(thermalSchema);

/**
 * Checks the shape of a netlist with thermal parts: the thermal elements, loss models and TEMP /
 * FLOW / LOSS blocks against `thermalSchema`, everything else with `assertNetlistShape`.
 */
export function assertThermalNetlistShape(value: unknown): asserts value is ThermalNetlist {
  const n = value as ThermalNetlist;
  const thermalBlocks = (n.blocks ?? []).filter(isThermalBlock);
  const parts = { thermal: n.thermal, lossModels: n.lossModels, thermalBlocks };
  if (!validateThermal(JSON.parse(JSON.stringify(parts)))) {
    const first = validateThermal.errors?.find((e) => e.keyword !== 'oneOf') ?? validateThermal.errors?.[0];
    const field = first?.instancePath.replace(/^\//, '').replace(/\//g, '.') || '(netlist)';
    throw new NetlistError('NETLIST_INVALID', `Netlist field ${field} ${first?.message ?? 'is invalid'}`, [{ field, message: first?.message ?? 'is invalid' }]);
  }
  const { thermal: _thermal, lossModels: _lossModels, ...base } = n;
  void _thermal;
  void _lossModels;
  const blocks = (n.blocks ?? []).filter((b) => !isThermalBlock(b));
  assertNetlistShape(n.blocks ? { ...base, blocks } : base);
}
