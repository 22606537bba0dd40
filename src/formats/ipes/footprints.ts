// Terminal positions of component kinds whose position rule differs from the common ones in
// geometry.ts, and of kinds the engine does not simulate: their wires must still connect (a wire
// ending on such a component is not a drawing mistake), and blocks that observe a signal are
// dropped only after checking what their outputs feed.
// - Java block (GeckoCIRCUITS `ReglerJavaFunction`, c typ 61): `anzXIN` inputs at (x − 2, y − 1 + i)
//   and `anzYOUT` outputs at (x + 2, y − 1 + j); files without those counts (before 1.60) have one
//   saved terminal label per terminal.
// - LISN (e typ 13): lisn.ts.
// - Thermal elements (eTH typ 41 loss source, 44 heat source, 45 temperature source, 46 Rth, 47 Cth,
//   48 ambient temperature): two-ports like the power-circuit R (GeckoCIRCUITS
//   `AbstractTwoPortLKreisBlock`): XIN at offset (0, 2), YOUT at (0, −2), turned by the orientation.
import type { ComponentRecord } from './components.js';
import { relativePoint, type TerminalGeometry } from './geometry.js';
import { LISN_TYP, lisnTerminals } from './lisn.js';

export const JAVA_BLOCK_TYP = 61;
const THERMAL_TWO_PORTS = new Set([41, 44, 45, 46, 47, 48]);

function javaBlockTerminals(c: ComponentRecord): TerminalGeometry {
  const inputs = c.tokens.integer('anzXIN') ?? c.inLabels.length;
  const outputs = c.tokens.integer('anzYOUT') ?? c.outLabels.length;
  return {
    domain: 'CONTROL',
    ins: Array.from({ length: inputs }, (_, i) => ({ x: c.x - 2, y: c.y - 1 + i })),
    outs: Array.from({ length: outputs }, (_, j) => ({ x: c.x + 2, y: c.y - 1 + j })),
  };
}

/** Terminals of the kinds listed above; undefined for every other kind. */
export function specialTerminals(c: ComponentRecord): TerminalGeometry | undefined {
  if (c.block === 'c' && c.typ === JAVA_BLOCK_TYP) return javaBlockTerminals(c);
  if (c.block === 'e' && c.typ === LISN_TYP) return lisnTerminals(c);
  if (c.block === 'eTH' && THERMAL_TWO_PORTS.has(c.typ)) {
    const at = (px: number, py: number) => relativePoint(c.orientation, c.x, c.y, px, py);
    return { domain: 'THERMAL', ins: [at(0, 2)], outs: [at(0, -2)] };
  }
  return undefined;
}
