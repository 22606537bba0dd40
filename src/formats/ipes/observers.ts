// Blocks that only observe the circuit: display/export blocks (ToEXTERNAL, data export, motor
// viewer, control debug, the U-Z-I diagram `ReglerU_ZI`: a window drawing its four inputs as
// vectors, no outputs), and Java blocks (GeckoCIRCUITS `ReglerJavaFunction`) whose outputs feed
// nothing, which in example files check results, print or write files. A display block whose
// outputs feed nothing cannot change the simulation: it is dropped with a warning; one whose output
// is used is refused, naming what it feeds. Java blocks are simulated either way (java-blocks.ts);
// one whose outputs feed nothing is an observer (`cls.observers`): its failures are warnings.
// "Used" = an output's node reaches an input of another simulated or unsupported component, another
// block's output, or a label that a signal-controlled source (U, I) reads.
import { DISPLAY_ONLY_BLOCKS } from './catalog.js';
import type { Classified } from './classify.js';
import type { ComponentRecord } from './components.js';
import { JAVA_BLOCK_TYP } from './footprints.js';
import type { Connectivity } from './geometry.js';
import { unsupported, type ReadContext } from './params.js';

const SIGNAL_SOURCE_TYPS = new Set([4, 5]);

/** Display/export blocks by typ: the shared list plus the ones only this file knows. */
const DISPLAY_BLOCKS: Record<number, string> = { ...DISPLAY_ONLY_BLOCKS, 73: 'U-Z-I diagram display' };

/** Whether a control block of this typ is dropped when none of its outputs is used. */
export function isObserverBlock(typ: number): boolean {
  return typ === JAVA_BLOCK_TYP || DISPLAY_BLOCKS[typ] !== undefined;
}

/** Indices of the components that read the outputs of block `index`. */
function consumers(records: ComponentRecord[], cls: Classified, conn: Connectivity, index: number): number[] {
  const counts = (i: number): boolean => i !== index && ['active', 'unsupported', 'display'].includes(cls.status[i]);
  const found = new Set<number>();
  const outs = cls.placed[index]?.geometry.outs ?? [];
  outs.forEach((_, j) => {
    const id = conn.nodeOf(index, 'out', j);
    if (id === undefined) return;
    const node = conn.nodes[id];
    for (const t of node.terminals) if (counts(t.component)) found.add(t.component);
    records.forEach((r, i) => {
      if (r.block === 'e' && SIGNAL_SOURCE_TYPS.has(r.typ) && counts(i) && node.labels.includes(r.strings[0] ?? '')) found.add(i);
    });
  });
  return [...found];
}

/**
 * Drops the observer blocks (status 'display') whose outputs feed nothing, or only other observers
 * that are dropped; the others become unsupported. `conn` must hold the terminals of unsupported
 * components too, where known.
 */
export function dropUnusedObservers(ctx: ReadContext, records: ComponentRecord[], cls: Classified, conn: Connectivity): void {
  const fed = new Map<number, number[]>();
  cls.status.forEach((s, i) => {
    if (s === 'display') fed.set(i, consumers(records, cls, conn, i));
  });
  const dropped = new Set<number>();
  for (let changed = true; changed;) {
    changed = false;
    for (const [i, users] of fed) {
      if (!dropped.has(i) && users.every((u) => dropped.has(u))) {
        dropped.add(i);
        changed = true;
      }
    }
  }
  for (const [i, users] of fed) {
    const c = records[i];
    if (c.typ === JAVA_BLOCK_TYP) {
      cls.status[i] = 'active';
      if (dropped.has(i)) cls.observers.add(i);
    } else if (dropped.has(i)) {
      ctx.warnings.push(`${c.name}: ${DISPLAY_BLOCKS[c.typ]} block ignored (it does not affect the simulation)`);
      cls.status[i] = 'inactive';
    } else {
      const names = users.map((u) => records[u].name).join(', ');
      unsupported(ctx, c, `${DISPLAY_BLOCKS[c.typ]} block whose output feeds ${names}`);
      cls.status[i] = 'unsupported';
    }
  }
}
