// The schematic view: components at their .ipes grid positions with a symbol per kind
// (symbols.ts), wires as polylines, the domains told apart by colour and line style (solid power,
// dashed control, dotted thermal). Components without a position (SPICE and JSON circuits,
// components the reader added) are set out in rows below. Zoom and pan change the SVG viewBox:
// mouse wheel, dragging, the toolbar buttons, or the arrow and +/− keys on the focused view. Fit
// shows the whole circuit unless that would draw the names smaller than MIN_LABEL_PX: then it
// shows the top left part at that size, and the rest is reached by panning (dragging, arrow keys).
import { byId, svg } from './dom.js';
import type { Schematic } from './api.js';
import { symbol } from './symbols.js';

const GRID = 20;
/** Font size of the component names in SVG units (style.css: .schematic text). */
const LABEL_UNITS = 11;
/** The smallest on-screen size of the component names that Fit allows [px]. */
export const MIN_LABEL_PX = 9;

interface Box { x: number; y: number; w: number; h: number }

export class SchematicView {
  private svgEl: SVGSVGElement | undefined;
  private view: Box = { x: 0, y: 0, w: 100, h: 100 };
  private full: Box = { x: 0, y: 0, w: 100, h: 100 };

  constructor(private readonly container: HTMLElement) {
    byId('zoom-in').addEventListener('click', () => this.zoom(0.8));
    byId('zoom-out').addEventListener('click', () => this.zoom(1.25));
    byId('zoom-fit').addEventListener('click', () => this.fit());
    container.addEventListener('keydown', (e) => this.onKey(e));
    container.addEventListener('wheel', (e) => {
      if (!this.svgEl) return;
      e.preventDefault();
      const r = this.container.getBoundingClientRect();
      this.zoom(e.deltaY > 0 ? 1.15 : 1 / 1.15, (e.clientX - r.left) / r.width, (e.clientY - r.top) / r.height);
    }, { passive: false });
    this.enableDrag();
  }

  render(schematic: Schematic): void {
    const root = svg('svg', { role: 'img', 'aria-label': `Schematic with ${schematic.components.length} components`, preserveAspectRatio: 'xMidYMid meet' });
    const wires = svg('g', { class: 'wires' });
    const parts = svg('g', { class: 'components' });
    let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
    const extend = (x: number, y: number): void => {
      minX = Math.min(minX, x); minY = Math.min(minY, y); maxX = Math.max(maxX, x); maxY = Math.max(maxY, y);
    };
    for (const w of schematic.wires) {
      const pts = w.points.map(([x, y]) => `${x * GRID},${y * GRID}`).join(' ');
      w.points.forEach(([x, y]) => extend(x * GRID, y * GRID));
      wires.append(svg('polyline', { class: `wire ${w.domain}`, points: pts }));
      if (w.label && w.points.length > 1) {
        const [x, y] = w.points[Math.floor(w.points.length / 2)];
        wires.append(svg('text', { class: 'wlabel', x: x * GRID + 2, y: y * GRID - 3 }, w.label));
      }
    }
    const placed = schematic.components.filter((c) => c.position);
    for (const c of placed) {
      const p = c.position!;
      parts.append(symbol(c, p.x * GRID, p.y * GRID, p.orientation, GRID));
      extend((p.x - 3) * GRID, (p.y - 3) * GRID);
      extend((p.x + 3) * GRID, (p.y + 3) * GRID);
    }
    // Components without geometry: rows of eight below the drawing.
    const loose = schematic.components.filter((c) => !c.position);
    const top = Number.isFinite(maxY) ? maxY + 4 * GRID : 3 * GRID;
    const left = Number.isFinite(minX) ? minX + 3 * GRID : 3 * GRID;
    loose.forEach((c, i) => {
      const x = left + (i % 8) * 6 * GRID;
      const y = top + Math.floor(i / 8) * 6 * GRID;
      parts.append(symbol(c, x, y, 503, GRID));
      extend(x - 3 * GRID, y - 3 * GRID);
      extend(x + 3 * GRID, y + 3 * GRID);
    });
    if (!Number.isFinite(minX)) { minX = 0; minY = 0; maxX = 100; maxY = 100; }
    root.append(wires, parts);
    this.full = { x: minX, y: minY, w: maxX - minX, h: maxY - minY };
    this.svgEl = root;
    this.container.replaceChildren(root);
    this.fit();
  }

  fit(): void {
    const { width, height } = this.container.getBoundingClientRect();
    const full = this.full;
    // Pixels per SVG unit when the whole circuit is shown (preserveAspectRatio meet).
    const scale = Math.min(width / full.w, height / full.h);
    const least = MIN_LABEL_PX / LABEL_UNITS;
    if (!(width > 0 && height > 0) || scale >= least) this.view = { ...full };
    else this.view = { x: full.x, y: full.y, w: width / least, h: height / least };
    this.apply();
  }

  /** Scales the view by `factor` around the point at fractions (fx, fy) of the view. */
  zoom(factor: number, fx = 0.5, fy = 0.5): void {
    const v = this.view;
    const w = Math.min(Math.max(v.w * factor, 40), this.full.w * 20 + 400);
    const h = (v.h / v.w) * w;
    this.view = { x: v.x + (v.w - w) * fx, y: v.y + (v.h - h) * fy, w, h };
    this.apply();
  }

  pan(dxFraction: number, dyFraction: number): void {
    this.view = { ...this.view, x: this.view.x + dxFraction * this.view.w, y: this.view.y + dyFraction * this.view.h };
    this.apply();
  }

  private apply(): void {
    const v = this.view;
    this.svgEl?.setAttribute('viewBox', `${v.x} ${v.y} ${v.w} ${v.h}`);
  }

  private onKey(e: KeyboardEvent): void {
    const moves: Record<string, [number, number]> = { ArrowLeft: [-0.1, 0], ArrowRight: [0.1, 0], ArrowUp: [0, -0.1], ArrowDown: [0, 0.1] };
    if (moves[e.key]) this.pan(...moves[e.key]);
    else if (e.key === '+' || e.key === '=') this.zoom(0.8);
    else if (e.key === '-') this.zoom(1.25);
    else if (e.key === '0') this.fit();
    else return;
    e.preventDefault();
  }

  private enableDrag(): void {
    let last: { x: number; y: number } | undefined;
    this.container.addEventListener('pointerdown', (e) => {
      last = { x: e.clientX, y: e.clientY };
      this.container.setPointerCapture(e.pointerId);
    });
    this.container.addEventListener('pointermove', (e) => {
      if (!last || !this.svgEl) return;
      const r = this.container.getBoundingClientRect();
      // The view keeps its aspect ratio inside the box: one screen pixel is the larger of the two ratios.
      const scale = Math.max(this.view.w / r.width, this.view.h / r.height);
      this.view = { ...this.view, x: this.view.x - (e.clientX - last.x) * scale, y: this.view.y - (e.clientY - last.y) * scale };
      last = { x: e.clientX, y: e.clientY };
      this.apply();
    });
    const end = (): void => { last = undefined; };
    this.container.addEventListener('pointerup', end);
    this.container.addEventListener('pointercancel', end);
  }
}
