// The waveform plot: uPlot with several signals on one time axis. The full samples stay in typed
// arrays; what uPlot draws is their min/max decimation (decimate.ts) for the visible time range at
// the plot's pixel width, recomputed on every zoom, so millions of points stay responsive. Drag
// to zoom, double-click to reset, the legend is the cursor read-out; toolbar buttons zoom and pan
// without a mouse. Signals whose sizes differ by more than ten times get y-axes of their own
// (scaleGroups), alternately left and right, each titled with its signals.
import uPlot from 'uplot';
import { byId, siTicks } from './dom.js';
import { decimate } from './decimate.js';

export const PALETTE = ['#1f77b4', '#d62728', '#2ca02c', '#ff7f0e', '#9467bd', '#8c564b', '#e377c2', '#17becf'];

function cssVar(name: string): string {
  return getComputedStyle(document.documentElement).getPropertyValue(name).trim() || '#888';
}

/** The largest magnitude of a signal (NaN ignored). */
function peak(values: Float64Array): number {
  let top = 0;
  for (const v of values) if (Math.abs(v) > top) top = Math.abs(v);
  return top;
}

/**
 * The y-axis of each signal: signals share an axis while the largest of them is at most ten times
 * the smallest one's peak (all-zero signals join the first axis). Returns the axis index per signal.
 */
export function scaleGroups(values: Float64Array[]): number[] {
  const peaks = values.map(peak);
  const order = peaks.map((_, i) => i).sort((a, b) => peaks[b] - peaks[a]);
  const groups = new Array<number>(values.length).fill(0);
  let group = 0;
  let top = Number.NaN;
  for (const i of order) {
    if (peaks[i] === 0) continue;
    if (Number.isNaN(top)) top = peaks[i];
    else if (top > 10 * peaks[i]) {
      group += 1;
      top = peaks[i];
    }
    groups[i] = group;
  }
  return groups;
}

export class WaveformPlot {
  private plot: uPlot | undefined;
  private time: Float64Array = new Float64Array(0);
  private series: Float64Array[] = [];
  private range: [number, number] = [0, 1];
  private applying = false;

  constructor(private readonly container: HTMLElement) {
    new ResizeObserver(() => this.resize()).observe(container);
    byId('plot-in').addEventListener('click', () => this.zoomBy(0.5));
    byId('plot-out').addEventListener('click', () => this.zoomBy(2));
    byId('plot-left').addEventListener('click', () => this.panBy(-0.25));
    byId('plot-right').addEventListener('click', () => this.panBy(0.25));
    byId('plot-reset').addEventListener('click', () => this.showRange(this.time[0], this.time[this.time.length - 1]));
  }

  private width(): number {
    return Math.max(200, Math.floor(this.container.clientWidth || 600));
  }

  /** Replaces what is plotted: `names[i]` with samples `values[i]` over `time`. */
  show(time: Float64Array, names: string[], values: Float64Array[]): void {
    this.plot?.destroy();
    this.plot = undefined;
    this.time = time;
    this.series = values;
    this.container.dataset.points = String(time.length);
    this.container.dataset.series = String(names.length);
    this.container.setAttribute('role', 'img');
    this.container.setAttribute('aria-label', names.length ? `Waveforms of ${names.join(', ')} over ${time.length} samples` : 'No signal chosen');
    if (time.length === 0 || names.length === 0) {
      this.container.replaceChildren();
      return;
    }
    const axis = { stroke: cssVar('--fg'), grid: { stroke: cssVar('--grid') }, ticks: { stroke: cssVar('--grid') }, values: siTicks, size: 56 };
    const groups = scaleGroups(values);
    const axisCount = Math.max(...groups) + 1;
    this.container.dataset.axes = String(axisCount);
    const yAxes: uPlot.Axis[] = Array.from({ length: axisCount }, (_, g) => {
      const members = names.filter((_, i) => groups[i] === g);
      const only = members.length === 1 ? PALETTE[names.indexOf(members[0]) % PALETTE.length] : undefined;
      return {
        ...axis, scale: `y${g}`, side: g % 2 === 0 ? 3 : 1, label: members.join(', '), labelSize: 18,
        ...(only ? { stroke: only } : {}), ...(g > 0 ? { grid: { show: false } } : {}),
      };
    });
    // uPlot draws the axis titles on its canvas: the description says them too.
    if (axisCount > 1) this.container.setAttribute('aria-label', `Waveforms over ${time.length} samples on ${axisCount} y-axes: ${yAxes.map((a) => a.label).join('; ')}`);
    const options: uPlot.Options = {
      width: this.width(),
      height: 320,
      scales: { x: { time: false } },
      axes: [{ ...axis, label: 'time [s]' }, ...yAxes],
      series: [{ label: 't [s]' }, ...names.map((name, i) => ({ label: name, scale: `y${groups[i]}`, stroke: PALETTE[i % PALETTE.length], width: 1.25, points: { show: false } }))],
      cursor: { drag: { x: true, y: false } },
      hooks: { setScale: [(u: uPlot, key: string) => { if (key === 'x') this.onZoom(u); }] },
    };
    this.range = [time[0], time[time.length - 1]];
    const data = decimate(time, values, this.range[0], this.range[1], this.width()) as uPlot.AlignedData;
    this.plot = new uPlot(options, data, this.container);
  }

  private onZoom(u: uPlot): void {
    if (this.applying) return;
    const { min, max } = u.scales.x;
    if (min === undefined || max === undefined || (min === this.range[0] && max === this.range[1])) return;
    this.showRange(min, max);
  }

  /** Decimates [from, to] afresh and shows exactly that range (the y axis fits the visible part). */
  showRange(from: number, to: number): void {
    const plot = this.plot;
    if (!plot || !(to > from)) return;
    this.range = [from, to];
    const data = decimate(this.time, this.series, from, to, this.width()) as uPlot.AlignedData;
    this.applying = true;
    try {
      plot.batch(() => {
        plot.setData(data, true);
        plot.setScale('x', { min: from, max: to });
      });
    } finally {
      this.applying = false;
    }
  }

  private zoomBy(factor: number): void {
    const [a, b] = this.range;
    const mid = (a + b) / 2;
    const half = ((b - a) * factor) / 2;
    this.showRange(Math.max(this.time[0], mid - half), Math.min(this.time[this.time.length - 1], mid + half));
  }

  private panBy(fraction: number): void {
    const [a, b] = this.range;
    const shift = (b - a) * fraction;
    const first = this.time[0];
    const last = this.time[this.time.length - 1];
    const from = Math.min(Math.max(first, a + shift), last - (b - a));
    this.showRange(from, from + (b - a));
  }

  private resize(): void {
    if (!this.plot) return;
    this.plot.setSize({ width: this.width(), height: 320 });
    this.showRange(...this.range);
  }
}
