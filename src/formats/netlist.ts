// The canonical netlist: the one data structure every reader produces, every service stores and the
// engine simulates. This file holds its TypeScript type, its JSON Schema, and the resolution of
// global parameters (`$name` references) and parameter overrides (`R.1.R`, `$name`) into numbers.
import { createRequire } from 'node:module';
import type { Ajv, ErrorObject, Options as AjvOptions, ValidateFunction } from 'ajv';
import { NetlistError } from './errors.js';
import { BLOCK_TYPES, type BlockType } from './catalog/blocks.js';
import { ELEMENT_TYPES, type ElementType } from './catalog/elements.js';

// The element and block types: one catalog entry per type (catalog/elements.ts, catalog/blocks.ts).
export { BLOCK_TYPES, ELEMENT_TYPES, type BlockType, type ElementType };

export const NETLIST_FORMAT = 'pesim-netlist/1';

export type SolverMethod = 'backward-euler' | 'trapezoidal' | 'gear-shichman';
export const SOLVER_METHODS: readonly SolverMethod[] = ['backward-euler', 'trapezoidal', 'gear-shichman'];

/** Discretisation of the periodic SIGNAL sources (NetlistSettings.timing). */
export type SignalTiming = 'exact' | 'gecko';
export const SIGNAL_TIMINGS: readonly SignalTiming[] = ['exact', 'gecko'];

/** A parameter value: a number, a `$name` reference to a global parameter, a word, or a list. */
export type ParamValue = number | string | number[] | string[];

/** Meters of the electro-thermal domain: temperature difference, heat flow, device loss. */
export type ThermalBlockType = Extract<BlockType, 'TEMP' | 'FLOW' | 'LOSS'>;
export const THERMAL_BLOCK_TYPES: readonly ThermalBlockType[] = ['TEMP', 'FLOW', 'LOSS'];

/**
 * Elements of the thermal network (own node names; "0" is the reference at 0 °C): RTH `R` [K/W],
 * CTH `C` [J/K] and `T0` [°C], TSRC `T` [°C], QSRC `P` [W] into node a, PV the loss of `device`
 * (optional `part`: total, conduction, switching) into node a, its junction.
 */
export type ThermalElementType = 'RTH' | 'CTH' | 'TSRC' | 'QSRC' | 'PV';
export const THERMAL_ELEMENT_TYPES: readonly ThermalElementType[] = ['RTH', 'CTH', 'TSRC', 'QSRC', 'PV'];

export interface ThermalElement {
  name: string;
  type: ThermalElementType;
  /** [a, b]: heat flow is counted from a to b. */
  nodes: string[];
  params?: Record<string, ParamValue>;
}

/** On-state voltage u(i) [V] at junction temperature T [°C]. */
export interface ConductionCurve { T: number; i: number[]; u: number[] }
/** Switching energy E(i) [J] measured at blocking voltage uRef [V] and junction temperature T [°C]. */
export interface SwitchingCurve { T: number; uRef: number; i: number[]; E: number[] }
/** Measured loss curves of a semiconductor (GeckoCIRCUITS detailed loss model, verlustTyp 2). */
export interface LossModel {
  conduction: ConductionCurve[];
  turnOn: SwitchingCurve[];
  turnOff: SwitchingCurve[];
}

/** A power-circuit element. Terminal order and parameters per type: see docs/netlist.md. */
export interface NetlistElement {
  name: string;
  type: ElementType;
  nodes: string[];
  params?: Record<string, ParamValue>;
}

/** A control block. Signals are named; `inputs`/`outputs` list signal names. */
export interface ControlBlock {
  name: string;
  type: BlockType;
  inputs?: string[];
  outputs?: string[];
  params?: Record<string, ParamValue>;
}

export interface NetlistSettings {
  /** Simulated time [s]. */
  tEnd: number;
  /** Fixed time step [s]. */
  dt: number;
  solver?: SolverMethod;
  /** Pre-simulation length [s] run before t = 0 to reach steady state (0: none). */
  tPre?: number;
  /** Pre-simulation time step [s] (default dt). */
  dtPre?: number;
  /** Backward Euler on the step after each switching event (default true). */
  dampAfterSwitch?: boolean;
  /** Point budget per recorded channel (default 100 000). */
  maxPoints?: number;
  /** Measurement window [s] (default the last 20 % of tEnd). */
  measureFrom?: number;
  measureTo?: number;
  /** Device-state iterations allowed within one step (default 10 000, as GeckoCIRCUITS). */
  maxSwitchIterations?: number;
  /** Seed of the RANDOM blocks, an integer (default 20240229): the same seed repeats a run exactly. */
  seed?: number;
  /**
   * How rectangle and triangle SIGNAL sources are discretised: `exact` (default) samples their
   * continuous definition at every step; `gecko` steps them as GeckoCIRCUITS does (each flank a
   * whole number of steps), the default of `.ipes` models.
   */
  timing?: SignalTiming;
}

export interface Netlist {
  format?: typeof NETLIST_FORMAT;
  name?: string;
  settings: NetlistSettings;
  /** Global parameters, referenced from element and block parameters as `"$name"`. */
  parameters?: Record<string, number>;
  elements: NetlistElement[];
  blocks?: ControlBlock[];
  /** Thermal network, coupled to device losses by PV elements. */
  thermal?: ThermalElement[];
  /** Detailed loss models, named by a device's `lossModel` parameter. */
  lossModels?: Record<string, LossModel>;
  /** Reader-specific data kept so a writer can reproduce the source file (e.g. .ipes geometry). */
  layout?: Record<string, unknown>;
}

const paramValueSchema = {
  oneOf: [
    { type: 'number' },
    { type: 'string' },
    { type: 'array', items: { type: 'number' } },
    { type: 'array', items: { type: 'string' } },
  ],
};

const nameSchema = { type: 'string', minLength: 1, maxLength: 200 };
const numbersSchema = { type: 'array', items: { type: 'number' }, minItems: 2 };
const conductionCurveSchema = {
  type: 'object', required: ['T', 'i', 'u'], additionalProperties: false,
  properties: { T: { type: 'number' }, i: numbersSchema, u: numbersSchema },
};
const switchingCurveSchema = {
  type: 'object', required: ['T', 'uRef', 'i', 'E'], additionalProperties: false,
  properties: { T: { type: 'number' }, uRef: { type: 'number', exclusiveMinimum: 0 }, i: numbersSchema, E: numbersSchema },
};
const thermalSchema = {
  type: 'array',
  items: {
    type: 'object', required: ['name', 'type', 'nodes'], additionalProperties: false,
    properties: {
      name: nameSchema,
      type: { enum: [...THERMAL_ELEMENT_TYPES] },
      nodes: { type: 'array', items: nameSchema, minItems: 2, maxItems: 2 },
      params: { type: 'object', additionalProperties: paramValueSchema },
    },
  },
};
const lossModelsSchema = {
  type: 'object',
  additionalProperties: {
    type: 'object', required: ['conduction', 'turnOn', 'turnOff'], additionalProperties: false,
    properties: {
      conduction: { type: 'array', items: conductionCurveSchema, minItems: 1 },
      turnOn: { type: 'array', items: switchingCurveSchema, minItems: 1 },
      turnOff: { type: 'array', items: switchingCurveSchema, minItems: 1 },
    },
  },
};

/** JSON Schema (draft 2020-12 compatible subset) of the canonical netlist. */
export const netlistSchema = {
  $id: 'https://pesim.dev/schema/netlist.json',
  title: 'pesim netlist',
  type: 'object',
  required: ['settings', 'elements'],
  additionalProperties: false,
  properties: {
    format: { const: NETLIST_FORMAT },
    name: { type: 'string' },
    settings: {
      type: 'object',
      required: ['tEnd', 'dt'],
      additionalProperties: false,
      properties: {
        tEnd: { type: 'number', exclusiveMinimum: 0 },
        dt: { type: 'number', exclusiveMinimum: 0 },
        solver: { enum: [...SOLVER_METHODS] },
        tPre: { type: 'number', minimum: 0 },
        dtPre: { type: 'number', minimum: 0 },
        dampAfterSwitch: { type: 'boolean' },
        maxPoints: { type: 'integer', minimum: 2 },
        measureFrom: { type: 'number' },
        measureTo: { type: 'number' },
        maxSwitchIterations: { type: 'integer', minimum: 1 },
        seed: { type: 'integer', minimum: 0, maximum: Number.MAX_SAFE_INTEGER },
        timing: { enum: [...SIGNAL_TIMINGS] },
      },
    },
    parameters: { type: 'object', additionalProperties: { type: 'number' } },
    elements: {
      type: 'array',
      items: {
        type: 'object',
        required: ['name', 'type', 'nodes'],
        additionalProperties: false,
        properties: {
          name: nameSchema,
          type: { enum: [...ELEMENT_TYPES] },
          nodes: { type: 'array', items: nameSchema },
          params: { type: 'object', additionalProperties: paramValueSchema },
        },
      },
    },
    blocks: {
      type: 'array',
      items: {
        type: 'object',
        required: ['name', 'type'],
        additionalProperties: false,
        properties: {
          name: nameSchema,
          type: { enum: [...BLOCK_TYPES] },
          inputs: { type: 'array', items: nameSchema },
          outputs: { type: 'array', items: nameSchema },
          params: { type: 'object', additionalProperties: paramValueSchema },
        },
      },
    },
    thermal: thermalSchema,
    lossModels: lossModelsSchema,
    layout: { type: 'object' },
  },
} as const;

/** The Ajv options of the schema's validator (also those of its precompiled form: scripts/build-validators.mjs). */
export const NETLIST_VALIDATOR_OPTIONS: AjvOptions = { allErrors: true, strict: false };

const require = createRequire(import.meta.url);
let validateSchema: ValidateFunction | undefined;

/**
 * The schema's validator, made on first use: the standalone code the build precompiles next to the
 * compiled module (netlist-validator.cjs), else (running from the TypeScript sources) compiled with
 * Ajv here. Importing Ajv and compiling the schema take ≈ 0.1 s that neither importing this module
 * nor a `pesim run` should pay.
 */
function schemaValidator(): ValidateFunction {
  if (validateSchema) return validateSchema;
  try {
    validateSchema = require('./netlist-validator.cjs') as ValidateFunction;
  } catch {
    const ajv = require('ajv') as { Ajv: new (options: AjvOptions) => Ajv };
    validateSchema = new ajv.Ajv(NETLIST_VALIDATOR_OPTIONS).compile(netlistSchema);
  }
  return validateSchema;
}

function describeSchemaError(error: ErrorObject): { field: string; message: string } {
  const field = error.instancePath.replace(/^\//, '').replace(/\//g, '.') || '(netlist)';
  if (error.keyword === 'enum') {
    const allowed = (error.params as { allowedValues: unknown[] }).allowedValues;
    return { field, message: `must be one of ${allowed.join(', ')}` };
  }
  if (error.keyword === 'additionalProperties') {
    return { field, message: `unknown property '${(error.params as { additionalProperty: string }).additionalProperty}'` };
  }
  return { field, message: error.message ?? 'is invalid' };
}

/** Checks the shape of a netlist (types, required fields). The engine checks the circuit itself. */
export function assertNetlistShape(value: unknown): asserts value is Netlist {
  const validate = schemaValidator();
  if (validate(value)) return;
  const details = (validate.errors ?? [])
    .filter((e) => e.keyword !== 'oneOf')
    .map(describeSchemaError);
  const first = details[0] ?? { field: '(netlist)', message: 'is invalid' };
  throw new NetlistError('NETLIST_INVALID', `Netlist field ${first.field} ${first.message}`, details);
}

/**
 * The key of a scope channel in results (`SCOPE.1.ch2` for the second channel of SCOPE.1), as the
 * engine names it (native/core/src/control/system.cpp). The one place TypeScript builds these keys.
 */
export function scopeChannelKey(scope: string, channelIndex: number): string {
  return `${scope}.ch${channelIndex + 1}`;
}

/** One channel of a SCOPE block. */
export interface ScopeChannelInfo {
  /** `SCOPE.1.ch2` */
  key: string;
  /** 1-based channel number. */
  index: number;
  /** Its entry of `channelNames` ('' when none). */
  label: string;
  /** The scope input (0-based) it records or, for a mean-value channel, averages. */
  input: number;
  /** A mean-value channel (`meanInputs`): one number, GeckoCIRCUITS' average of its input. */
  mean: boolean;
}

/**
 * The channels of a SCOPE block as the engine numbers them: each input in order, followed by its
 * mean-value channel when `meanInputs` lists it (1-based input numbers), as GeckoCIRCUITS places
 * them. Labels from `channelNames`, in channel order.
 */
export function scopeChannels(block: ControlBlock): ScopeChannelInfo[] {
  const labels = Array.isArray(block.params?.channelNames) ? block.params.channelNames : [];
  const means = new Set(Array.isArray(block.params?.meanInputs) ? block.params.meanInputs.map(Number) : []);
  const channels: ScopeChannelInfo[] = [];
  const add = (input: number, mean: boolean): void => {
    const position = channels.length;
    const label = labels[position];
    channels.push({ key: scopeChannelKey(block.name, position), index: position + 1, label: typeof label === 'string' ? label : '', input, mean });
  };
  (block.inputs ?? []).forEach((_, i) => {
    add(i, false);
    if (means.has(i + 1)) add(i, true);
  });
  return channels;
}

/** Every scope channel key of a netlist, scope by scope in channel order. */
export function channelKeys(netlist: Netlist): string[] {
  return (netlist.blocks ?? []).filter((b) => b.type === 'SCOPE').flatMap((b) => scopeChannels(b).map((c) => c.key));
}

/** Parameter overrides: `<element or block name>.<parameter>` or `$<global parameter>`. */
export type ParameterOverrides = Record<string, number>;

export { resolveNetlist, resolveNetlistSharing } from './overrides.js';
