// Which components take part in the simulation. Simulated: enabled components of the types in
// catalog.ts and the LISN (lisn.ts) on the top-level sheet. Kept in the file but not simulated,
// with a warning: disabled components (`enabledShorted 0`), shorted ones (`enabledShorted 2`,
// replaced by connections XIN[i]–YOUT[i]), text fields (sp or c typ 70), and display/export and
// Java blocks whose outputs feed nothing (status 'display' until observers.ts has looked at their
// outputs). Unsupported (one error lists them all): subcircuits (sp typ 27) and anything on a
// subcircuit sheet, thermal modules and terminals (eTH typ 42, 49, 50), motors, reluctance, native
// C and FromEXTERNAL blocks and the other types the engine lacks. Thermal elements and TEMP/FLOW meters: thermal.ts,
// thermal-blocks.ts.
import type { ComponentRecord } from './components.js';
import { BLOCK_KINDS, ELEMENT_KINDS, UNSUPPORTED_BLOCK_NAMES, UNSUPPORTED_ELEMENT_NAMES } from './catalog.js';
import { specialTerminals } from './footprints.js';
import { componentTerminals, type PlacedComponent } from './geometry.js';
import { LISN_TYP } from './lisn.js';
import { isObserverBlock } from './observers.js';
import { MACHINE_METER_TYP } from './machine-meter.js';
import { unsupported, type ReadContext } from './params.js';
import { thermalTerminals, unsupportedThermal } from './thermal.js';
import { isThermalMeter, thermalMeterTerminals } from './thermal-blocks.js';

const TEXT_FIELD_TYP = 70;

/** Why blocks that depend on something outside the model file are refused. */
const EXTERNAL_BLOCKS: Record<number, string> = {
  23: 'FromEXTERNAL block: its signals come from a coupled external program (e.g. Simulink), which is not available',
  88: 'native C block: its compiled library is not loaded or executed',
};

export type Status = 'active' | 'inactive' | 'unsupported' | 'display';

export interface Classified {
  status: Status[];
  placed: Array<PlacedComponent | undefined>;
  /** Java blocks whose outputs feed nothing (set by observers.ts). */
  observers: Set<number>;
}

function statusOf(ctx: ReadContext, c: ComponentRecord): Status {
  if (c.sheet !== 0) {
    unsupported(ctx, c, `inside a subcircuit (sheet ${c.sheet})`);
    return 'unsupported';
  }
  // Text fields (typ 70) are annotations, saved as `sp` or as control blocks `c`.
  if ((c.block === 'sp' || c.block === 'c') && c.typ === TEXT_FIELD_TYP) {
    ctx.warnings.push(`${c.name}: text field ignored`);
    return 'inactive';
  }
  if (c.block === 'sp') {
    unsupported(ctx, c, c.typ === 27 ? 'subcircuit' : `special component typ ${c.typ}`);
    return 'unsupported';
  }
  if (c.block === 'eTH') {
    if (c.enabled === 0) {
      ctx.warnings.push(`${c.name}: disabled thermal element ignored`);
      return 'inactive';
    }
    const why = unsupportedThermal(c.typ);
    if (why) {
      unsupported(ctx, c, why);
      return 'unsupported';
    }
    if (c.enabled === 2) {
      ctx.warnings.push(`${c.name}: shorted in the file (enabledShorted 2); replaced by a connection`);
      return 'inactive';
    }
    return 'active';
  }
  if (c.block === 'c' && isThermalMeter(c)) {
    if (c.enabled !== 0) return 'active';
    ctx.warnings.push(`${c.name}: disabled in the file; not simulated`);
    return 'inactive';
  }
  const known = c.block === 'e' ? ELEMENT_KINDS[c.typ] ?? (c.typ === LISN_TYP || undefined) : BLOCK_KINDS[c.typ];
  if (c.enabled === 0) {
    ctx.warnings.push(`${c.name}: disabled in the file; not simulated`);
    return 'inactive';
  }
  if (c.block === 'c' && isObserverBlock(c.typ)) return 'display';
  if (c.block === 'c' && c.typ === MACHINE_METER_TYP) return 'active';
  if (!known) {
    const what = c.block === 'e' ? UNSUPPORTED_ELEMENT_NAMES[c.typ] : EXTERNAL_BLOCKS[c.typ] ?? UNSUPPORTED_BLOCK_NAMES[c.typ];
    unsupported(ctx, c, what ?? `unknown ${c.block === 'e' ? 'power-circuit' : 'control'} type`);
    return 'unsupported';
  }
  if (c.enabled === 2) {
    ctx.warnings.push(`${c.name}: shorted in the file (enabledShorted 2); replaced by a connection`);
    return 'inactive';
  }
  return 'active';
}

export function classify(ctx: ReadContext, records: ComponentRecord[]): Classified {
  const status = records.map((c) => statusOf(ctx, c));
  const placed = records.map((c, i): PlacedComponent | undefined => {
    if (status[i] === 'unsupported') return undefined;
    if (status[i] === 'inactive' && c.enabled !== 2) return undefined;
    const geometry = c.block === 'eTH' ? thermalTerminals(c) : isThermalMeter(c) ? thermalMeterTerminals(c) : specialTerminals(c) ?? componentTerminals(c);
    return geometry ? { geometry, shorted: status[i] === 'inactive' } : undefined;
  });
  return { status, placed, observers: new Set() };
}
