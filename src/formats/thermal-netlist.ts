// Helpers of the netlist's electro-thermal parts (types and schema: netlist.ts): the loss parts a
// PV element or LOSS block delivers, and the test for the thermal meters among the control blocks.
import type { ControlBlock, Netlist } from './netlist.js';
import { THERMAL_BLOCK_TYPES } from './netlist.js';

export type { LossModel, ThermalBlockType, ThermalElement } from './netlist.js';

/** Loss parts a PV element or a LOSS block can deliver. */
export const LOSS_PARTS = ['total', 'conduction', 'switching'] as const;
export type LossPart = (typeof LOSS_PARTS)[number];

/** A netlist with thermal parts is a netlist (kept as a name for the thermal readers and writers). */
export type ThermalNetlist = Netlist;

export const isThermalBlock = (b: ControlBlock): boolean => (THERMAL_BLOCK_TYPES as readonly string[]).includes(b.type);
