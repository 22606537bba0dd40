// Which components take part in the simulation. Simulated: enabled components of the types in
// catalog.ts on the top-level sheet. Kept in the file but not simulated, with a warning: disabled
// components (`enabledShorted 0`), shorted ones (`enabledShorted 2`, replaced by connections
// XIN[i]–YOUT[i]), text fields (sp typ 70), and display/export blocks whose outputs feed nothing.
// Unsupported (one error lists them all): subcircuits (sp typ 27) and anything on a subcircuit
// sheet, thermal modules and terminals (eTH typ 42, 49, 50), motors, reluctance, Java blocks and
// the other types the engine lacks. Thermal elements and TEMP/FLOW meters: thermal.ts,
// thermal-blocks.ts.
import type { ComponentRecord } from './components.js';
import { BLOCK_KINDS, DISPLAY_ONLY_BLOCKS, ELEMENT_KINDS, UNSUPPORTED_BLOCK_NAMES, UNSUPPORTED_ELEMENT_NAMES } from './catalog.js';
import { componentTerminals, type Connectivity, type PlacedComponent } from './geometry.js';
import { unsupported, type ReadContext } from './params.js';
import { thermalTerminals, unsupportedThermal } from './thermal.js';
import { isThermalMeter, thermalMeterTerminals } from './thermal-blocks.js';

export type Status = 'active' | 'inactive' | 'unsupported' | 'display';

export interface Classified {
  status: Status[];
  placed: Array<PlacedComponent | undefined>;
  /** Drops display-only blocks whose outputs feed nothing; the others become unsupported. */
  dropDisplayBlocks(conn: Connectivity, driver: Map<number, number>): void;
}

function statusOf(ctx: ReadContext, c: ComponentRecord): Status {
  if (c.sheet !== 0) {
    unsupported(ctx, c, `inside a subcircuit (sheet ${c.sheet})`);
    return 'unsupported';
  }
  if (c.block === 'sp') {
    if (c.typ === 70) {
      ctx.warnings.push(`${c.name}: text field ignored`);
      return 'inactive';
    }
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
  const known = c.block === 'e' ? ELEMENT_KINDS[c.typ] : BLOCK_KINDS[c.typ];
  if (c.enabled === 0) {
    ctx.warnings.push(`${c.name}: disabled in the file; not simulated`);
    return 'inactive';
  }
  if (c.block === 'c' && DISPLAY_ONLY_BLOCKS[c.typ]) return 'display';
  if (!known) {
    const what = c.block === 'e' ? UNSUPPORTED_ELEMENT_NAMES[c.typ] : UNSUPPORTED_BLOCK_NAMES[c.typ];
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
    const geometry = c.block === 'eTH' ? thermalTerminals(c) : isThermalMeter(c) ? thermalMeterTerminals(c) : componentTerminals(c);
    return geometry ? { geometry, shorted: status[i] === 'inactive' } : undefined;
  });
  return {
    status,
    placed,
    dropDisplayBlocks(conn, driver) {
      records.forEach((c, i) => {
        if (status[i] !== 'display') return;
        const outs = placed[i]?.geometry.outs ?? [];
        const feeds = outs.some((_, j) => {
          const node = conn.nodes[conn.nodeOf(i, 'out', j)!];
          return node.terminals.some((t) => t.side === 'in' && status[t.component] === 'active') || driver.has(node.id);
        });
        if (feeds) {
          unsupported(ctx, c, `${DISPLAY_ONLY_BLOCKS[c.typ]} block whose output is used`);
          status[i] = 'unsupported';
        } else {
          ctx.warnings.push(`${c.name}: ${DISPLAY_ONLY_BLOCKS[c.typ]} block ignored (it does not affect the simulation)`);
          status[i] = 'inactive';
        }
      });
    },
  };
}
