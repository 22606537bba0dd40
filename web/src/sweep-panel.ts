// Parameter sweeps: a form that builds a batch (one or two parameters, grid or zip) for
// POST /api/v1/simulations/batch on the open circuit, a table of its runs refreshed every half
// second from GET /simulations/batch/{id} (counts and progress) and the batch's results table
// GET /simulations/batch/{id}/results (the measurements of every completed run, in one request),
// and a plot of the chosen measurement against the first swept parameter (one line per value of
// the second).
import uPlot from 'uplot';
import { errorLines, getJson, sendJson, type BatchResults, type BatchStatus } from './api.js';
import { byId, fmt, h, siTicks } from './dom.js';
import { parseValues } from './sweep-values.js';
import { PALETTE } from './waveform-plot.js';

export class SweepPanel {
  private circuitId: string | undefined;
  private batchId: string | undefined;
  private keys: string[] = [];
  private mode = 'grid';
  private refreshing = false;
  private timer: number | undefined;
  private readonly measured = new Map<string, Record<string, number>>();
  private plot: uPlot | undefined;

  constructor() {
    byId('sweep-form').addEventListener('submit', (e) => { e.preventDefault(); void this.start(); });
    byId('sweep-cancel').addEventListener('click', () => void this.cancel());
    byId('sweep-measure').addEventListener('change', () => void this.refresh());
  }

  setCircuit(circuitId: string): void {
    this.circuitId = circuitId;
  }

  private async start(): Promise<void> {
    const errors = byId('sweep-errors');
    errors.replaceChildren();
    if (!this.circuitId) {
      errors.textContent = 'Open a circuit first.';
      return;
    }
    try {
      const sweep: Record<string, number[]> = {};
      const p1 = byId<HTMLInputElement>('sweep-p1').value.trim();
      sweep[p1] = parseValues(byId<HTMLInputElement>('sweep-v1').value, 'Values 1');
      const p2 = byId<HTMLInputElement>('sweep-p2').value.trim();
      if (p2) sweep[p2] = parseValues(byId<HTMLInputElement>('sweep-v2').value, 'Values 2');
      const mode = byId<HTMLSelectElement>('sweep-mode').value;
      const submitted = await sendJson<{ batchId: string; totalSimulations: number }>('POST', '/api/v1/simulations/batch', { base: { circuitFile: this.circuitId }, sweep, mode });
      this.batchId = submitted.batchId;
      this.keys = Object.keys(sweep);
      this.mode = mode;
      this.measured.clear();
      byId<HTMLButtonElement>('sweep-cancel').disabled = false;
      byId('sweep').dataset.batchId = submitted.batchId;
      window.clearInterval(this.timer);
      this.timer = window.setInterval(() => void this.refresh(), 500);
      await this.refresh();
    } catch (error) {
      errors.replaceChildren(...errorLines(error).map((line) => h('p', {}, line)));
    }
  }

  private async cancel(): Promise<void> {
    if (!this.batchId) return;
    try {
      await sendJson('DELETE', `/api/v1/simulations/batch/${this.batchId}`);
      await this.refresh();
    } catch (error) {
      byId('sweep-errors').textContent = errorLines(error).join(' · ');
    }
  }

  private async refresh(): Promise<void> {
    if (!this.batchId || this.refreshing) return;
    this.refreshing = true;
    let batch: BatchStatus;
    try {
      batch = await getJson<BatchStatus>(`/api/v1/simulations/batch/${this.batchId}`);
      if (batch.completed > this.measured.size) {
        const results = await getJson<BatchResults>(`/api/v1/simulations/batch/${this.batchId}/results`);
        for (const row of results.rows) if (row.status === 'completed') this.measured.set(row.simulationId, row.measurements);
      }
    } catch (error) {
      byId('sweep-errors').textContent = errorLines(error).join(' · ');
      window.clearInterval(this.timer);
      return;
    } finally {
      this.refreshing = false;
    }
    this.render(batch);
  }

  private render(batch: BatchStatus): void {
    const runs = Object.entries(batch.simulations);
    const names = [...new Set([...this.measured.values()].flatMap((m) => Object.keys(m)))];
    const measureInput = byId<HTMLInputElement>('sweep-measure');
    if (!measureInput.value && names.length) measureInput.value = names[0];
    if (names.length) byId('measure-keys').replaceChildren(...names.map((n) => h('option', { value: n })));
    const measure = measureInput.value;
    byId('sweep-status').textContent = `Batch ${batch.batchId}: ${batch.completed} of ${batch.totalSimulations} completed, ${batch.failed} failed, ${batch.cancelled} cancelled · ${batch.overallProgress.toFixed(0)} %${batch.done ? ' · done' : ''}`;
    const table = byId('sweep-table');
    table.querySelector('thead')!.replaceChildren(h('tr', {}, ...this.keys.map((k) => h('th', { scope: 'col' }, k)), h('th', { scope: 'col' }, 'Status'), h('th', { scope: 'col' }, 'Progress'), h('th', { scope: 'col' }, measure || 'Measurement')));
    table.querySelector('tbody')!.replaceChildren(...runs.map(([id, r]) => h('tr', { 'data-status': r.status, title: id },
      ...this.keys.map((k) => h('td', {}, fmt(r.parameterSet[k]))), h('td', {}, r.status), h('td', {}, `${r.progress.toFixed(0)} %`),
      h('td', {}, r.errorMessage ?? fmt(this.measured.get(id)?.[measure])))));
    this.drawPlot(runs.map(([id, r]) => ({ params: r.parameterSet, value: this.measured.get(id)?.[measure] })), measure);
    if (batch.done) {
      window.clearInterval(this.timer);
      byId<HTMLButtonElement>('sweep-cancel').disabled = true;
    }
  }

  private drawPlot(points: Array<{ params: Record<string, number>; value: number | undefined }>, measure: string): void {
    const container = byId('sweep-plot');
    const [k1, k2] = this.keys;
    const xs = [...new Set(points.map((p) => p.params[k1]))].sort((a, b) => a - b);
    // A grid gets one line per value of the second parameter; a zip sweep is one line.
    const groups = k2 && this.mode === 'grid' ? [...new Set(points.map((p) => p.params[k2]))] : [undefined];
    const ys = groups.map((g) => xs.map((x) => points.find((p) => p.params[k1] === x && (g === undefined || p.params[k2] === g))?.value ?? null));
    container.dataset.points = String(ys.flat().filter((v) => v !== null).length);
    container.setAttribute('role', 'img');
    container.setAttribute('aria-label', `${measure} against ${k1}${groups.length > 1 ? `, one line per ${k2}` : ''}`);
    this.plot?.destroy();
    const fg = getComputedStyle(document.documentElement).getPropertyValue('--fg').trim();
    const options: uPlot.Options = {
      width: Math.max(240, container.clientWidth || 400),
      height: 260,
      scales: { x: { time: false } },
      axes: [{ label: k1, stroke: fg, values: siTicks }, { label: measure, stroke: fg, values: siTicks, size: 60 }],
      series: [{ label: k1 }, ...groups.map((g, i) => ({ label: g === undefined ? measure : `${k2} = ${fmt(g)}`, stroke: PALETTE[i % PALETTE.length], width: 1.5, spanGaps: true, points: { show: true, size: 7 } }))],
    };
    this.plot = new uPlot(options, [xs, ...ys] as uPlot.AlignedData, container);
  }
}
