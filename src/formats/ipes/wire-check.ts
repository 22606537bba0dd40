// The check for wires that connect nothing. In GeckoCIRCUITS such a wire is a drawing mistake (an
// end that misses the terminal it was meant for), and dropping it would silently leave that
// terminal open. A wire is judged with the terminals of every component on the sheet, including
// the ones the engine does not simulate (Java blocks, thermal elements, ...): a wire must not be
// blamed for ending on a component that is reported as unsupported. When such a component's
// terminal positions are not known here, no wire is blamed (the file fails on the component).
import { NetlistError, type ErrorDetail } from '../errors.js';
import { BLOCK_KINDS, ELEMENT_KINDS } from './catalog.js';
import type { Classified } from './classify.js';
import type { ComponentRecord, WireRecord } from './components.js';
import { specialTerminals } from './footprints.js';
import { componentTerminals, connect, type Connectivity, type PlacedComponent } from './geometry.js';

/**
 * Terminals of a component the engine does not simulate: exact for the kinds whose positions are
 * known, else a best guess (control blocks: the common block layout over their saved labels).
 */
function footprint(c: ComponentRecord): { placed?: PlacedComponent; exact: boolean } {
  const special = specialTerminals(c);
  if (special) return { placed: { geometry: special, shorted: false }, exact: true };
  const exact = Boolean((c.block === 'e' && ELEMENT_KINDS[c.typ]) || (c.block === 'c' && BLOCK_KINDS[c.typ]));
  const geometry = componentTerminals(c);
  return { placed: geometry ? { geometry, shorted: false } : undefined, exact };
}

/** Connectivity over simulated and unsupported components; `exact` when every footprint is known. */
function fullConnectivity(records: ComponentRecord[], cls: Classified, wires: WireRecord[], conn: Connectivity): { full: Connectivity; exact: boolean } {
  const unsupported = records.map((c, i) => cls.status[i] === 'unsupported' && c.sheet === 0);
  if (!unsupported.includes(true)) return { full: conn, exact: true };
  let exact = true;
  const placed = records.map((c, i) => {
    if (!unsupported[i]) return cls.placed[i];
    const f = footprint(c);
    exact &&= f.exact;
    return f.placed;
  });
  return { full: connect(records, placed, wires), exact };
}

/**
 * Throws WIRE_UNCONNECTED listing every wire whose node reaches no component terminal. Returns the
 * connectivity over all components, simulated or not (unknown terminal positions guessed).
 */
export function checkWires(records: ComponentRecord[], cls: Classified, wires: WireRecord[], conn: Connectivity, fileName?: string): Connectivity {
  const { full, exact } = fullConnectivity(records, cls, wires, conn);
  if (!exact) return full;
  const details: ErrorDetail[] = [];
  wires.forEach((w, i) => {
    if (full.nodes[full.wireNodes[i]].terminals.length > 0) return;
    const last = w.x.length - 1;
    const label = w.label ? ` labelled '${w.label}'` : '';
    details.push({
      field: `line ${w.line}`, line: w.line,
      message: `${w.domain === 'LK' ? 'power' : w.domain.toLowerCase()} wire${label} from (${w.x[0]}, ${w.y[0]}) to (${w.x[last]}, ${w.y[last]}) connects nothing; expected its ends on component terminals or on other wires`,
    });
  });
  if (details.length > 0) {
    const where = fileName ? `${fileName}: ` : '';
    throw new NetlistError('WIRE_UNCONNECTED', `${where}${details.map((d) => `line ${d.line}: ${d.message}`).join('; ')}`, details);
  }
  return full;
}
