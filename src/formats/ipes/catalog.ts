// GeckoCIRCUITS component types as this reader and writer know them, by `typ` (types are
// identified by `typ` only, never by component name): the element and block kinds of the type
// catalog (../catalog/elements.ts, ../catalog/blocks.ts) indexed by typ, the writer's typ of each
// netlist type, and the GeckoCIRCUITS types the engine does not simulate, for messages.
import { BLOCK_CATALOG, type BlockType } from '../catalog/blocks.js';
import { ELEMENT_CATALOG, type ElementType } from '../catalog/elements.js';
import type { GeckoBlock, GeckoElement } from '../catalog/types.js';

export type { ParamSpec } from '../catalog/types.js';

export interface ElementKind extends GeckoElement {
  type: ElementType;
}

export interface BlockKind extends GeckoBlock {
  type: BlockType;
}

/** Power-circuit element types (block `e`) that the engine can simulate. */
export const ELEMENT_KINDS: Record<number, ElementKind> = Object.fromEntries(
  ELEMENT_CATALOG.flatMap((entry) => entry.gecko.map((gecko) => [gecko.typ, { ...gecko, type: entry.type }])),
);

/** Power-circuit types the engine cannot simulate, by typ, for error messages. */
export const UNSUPPORTED_ELEMENT_NAMES: Record<number, string> = {
  14: 'DC motor', 16: 'motor', 17: 'motor', 18: 'motor', 19: 'motor', 20: 'motor',
  21: 'motor', 51: 'motor', 24: 'reluctance element', 25: 'reluctance element',
  26: 'reluctance element', 30: 'reluctance element', 32: 'reluctance element', 52: 'reluctance element',
  29: 'subcircuit terminal', 31: 'global terminal', 33: 'BJT',
};

/** Element `typ` → element kind, writer side: netlist type → typ (L → 2, or 12 when coupled). */
/** Writer side: netlist element type → typ (L → 2; the writer makes it 12 when coupled). */
export const TYP_OF_ELEMENT: Partial<Record<ElementType, number>> = Object.fromEntries(
  ELEMENT_CATALOG.filter((entry) => entry.gecko.length > 0).map((entry) => [entry.type, entry.gecko[0].typ]),
);

/** Control block types (block `c`) that map onto engine blocks. */
export const BLOCK_KINDS: Record<number, BlockKind> = Object.fromEntries(
  BLOCK_CATALOG.flatMap((entry) => (entry.gecko ? [[entry.gecko.typ, { ...entry.gecko, type: entry.type }]] : [])),
);

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
