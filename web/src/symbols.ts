// Schematic symbols, one per component kind, drawn in grid units around the component's reference
// point as GeckoCIRCUITS places them: a power-circuit two-terminal element runs from (0, −2) to
// (0, 2) before turning by its orientation; a control block has its inputs at x − 2 and outputs at
// x + 2, one grid row apart; thermal elements are two-terminal like a resistor.
import { svg } from './dom.js';
import type { SchematicComponent } from './api.js';

const LEADS = 'M0,-2V-0.8M0,0.8V2';

/** Path data of the body of a two-terminal power or thermal element (vertical, in at the top). */
function twoTerminal(type: string): { d: string; filled?: string; text?: string } {
  switch (type) {
    case 'R': case 'RTH':
      return { d: `${LEADS}M-0.35,-0.8H0.35V0.8H-0.35Z` };
    case 'L':
      return { d: 'M0,-2V-0.9a0.3,0.3 0 0,1 0,0.6a0.3,0.3 0 0,1 0,0.6a0.3,0.3 0 0,1 0,0.6V2' };
    case 'C': case 'CTH':
      return { d: 'M0,-2V-0.15M-0.6,-0.15H0.6M-0.6,0.15H0.6M0,0.15V2' };
    case 'V': case 'TSRC':
      return { d: `${LEADS}M0.7,0a0.7,0.7 0 1,1 -1.4,0a0.7,0.7 0 1,1 1.4,0M-0.2,-0.4H0.2M0,-0.6V-0.2M-0.2,0.4H0.2` };
    case 'I': case 'QSRC': case 'PV':
      return { d: `${LEADS}M0.7,0a0.7,0.7 0 1,1 -1.4,0a0.7,0.7 0 1,1 1.4,0M0,-0.5V0.5M-0.2,0.25L0,0.5L0.2,0.25` };
    case 'D':
      return { d: 'M0,-2V-0.4M0,0.4V2M-0.5,0.4H0.5', filled: 'M-0.5,-0.4H0.5L0,0.4Z' };
    case 'THYR':
      return { d: 'M0,-2V-0.4M0,0.4V2M-0.5,0.4H0.5M0.25,0.1L0.8,0.6', filled: 'M-0.5,-0.4H0.5L0,0.4Z' };
    case 'S': case 'VSW': case 'CSW':
      return { d: 'M0,-2V-0.8M0,0.8V2M0,0.8L0.55,-0.6' };
    default:
      return { d: `${LEADS}M-0.6,-0.8H0.6V0.8H-0.6Z`, text: type };
  }
}

/** Degrees the vertical drawing turns for a GeckoCIRCUITS orientation code. */
export function rotation(orientation: number): number {
  switch (orientation) {
    case 502: return -90;
    case 501: return 180;
    case 504: return 90;
    default: return 0;
  }
}

/** The symbol of a component at (x, y) in pixels, `grid` pixels per grid unit. */
export function symbol(c: SchematicComponent, x: number, y: number, orientation: number, grid: number): SVGGElement {
  const g = svg('g', { class: `component ${c.domain}`, 'data-name': c.name, 'data-kind': c.kind, 'data-domain': c.domain, transform: `translate(${x},${y})` });
  const title = svg('title');
  title.textContent = `${c.name} (${c.type}) ${c.connections.join(', ')}`;
  g.append(title);
  if (c.kind === 'block') {
    const rows = Math.max(1, c.inputs?.length ?? 0, c.outputs?.length ?? 0);
    const ins = (c.inputs ?? []).map((_, i) => `M${-2 * grid},${i * grid}H${-1.5 * grid}`).join('');
    const outs = (c.outputs ?? []).map((_, j) => `M${1.5 * grid},${j * grid}H${2 * grid}`).join('');
    g.append(svg('path', { class: 'sym', d: `M${-1.5 * grid},${-0.45 * grid}H${1.5 * grid}V${(rows - 0.55) * grid}H${-1.5 * grid}Z${ins}${outs}` }));
    g.append(svg('text', { x: 0, y: 0.35 * grid, 'text-anchor': 'middle', class: 'tlabel' }, c.type.slice(0, 6)));
    // Blocks without inputs (meters, sources) are often stacked a row apart: their name goes left.
    const noInputs = (c.inputs?.length ?? 0) === 0;
    g.append(svg('text', noInputs ? { x: -1.7 * grid, y: 0.35 * grid, 'text-anchor': 'end', class: 'name' } : { x: -1.5 * grid, y: -0.8 * grid, class: 'name' }, c.name));
    return g;
  }
  const shape = twoTerminal(c.type);
  const turned = svg('g', { transform: `rotate(${rotation(orientation)}) scale(${grid})` });
  turned.append(svg('path', { class: 'sym', d: shape.d }));
  if (shape.filled) turned.append(svg('path', { class: 'sym fill', d: shape.filled }));
  g.append(turned);
  if (shape.text) g.append(svg('text', { x: 0, y: 4, 'text-anchor': 'middle', style: 'font-size:8px' }, shape.text.slice(0, 5)));
  const vertical = rotation(orientation) % 180 === 0;
  g.append(svg('text', vertical ? { x: 0.9 * grid, y: 4, class: 'name' } : { x: 0, y: -0.9 * grid, 'text-anchor': 'middle', class: 'name' }, c.name));
  return g;
}
