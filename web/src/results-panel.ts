// Results of a completed simulation: the signal picker (checkboxes), the waveforms of the chosen
// signals from GET /simulations/{id}/export?format=json (each signal fetched once and kept as a
// typed array), the measurements table, and the CSV, JSON and Parquet downloads. Signals carry
// their scope channel labels (`u2`, `iL`) in the picker, the plot's legend and axes, and the table.
import { download, errorLines, getJson, type SimulationStatus } from './api.js';
import { byId, fmt, h } from './dom.js';
import { WaveformPlot } from './waveform-plot.js';

interface ExportJson { time: number[]; signals: Record<string, number[]> }

/** `u2 (SCOPE.1.ch3)` for a labelled channel, else the signal name. */
export function signalTitle(name: string, labels: Record<string, string>): string {
  return labels[name] ? `${labels[name]} (${name})` : name;
}

/** The label of the channel a measurement (`SCOPE.1.ch3_avg`) belongs to, or ''. */
export function measurementLabel(name: string, labels: Record<string, string>): string {
  const cut = name.lastIndexOf('_');
  return cut > 0 ? labels[name.slice(0, cut)] ?? '' : '';
}

export class ResultsPanel {
  private readonly plot = new WaveformPlot(byId('plot'));
  private simulationId: string | undefined;
  private time: Float64Array = new Float64Array(0);
  private readonly samples = new Map<string, Float64Array>();
  private labels: Record<string, string> = {};

  constructor(private readonly onMeasurements: (names: string[]) => void) {
    for (const format of ['csv', 'json', 'parquet'] as const) {
      byId(`export-${format}`).addEventListener('click', () => {
        if (!this.simulationId) return;
        download(`/api/v1/simulations/${this.simulationId}/export?format=${format}`, `${this.simulationId}.${format}`)
          .catch((error: unknown) => { byId('run-errors').textContent = errorLines(error).join(' · '); });
      });
    }
  }

  /** Shows the simulation's signals, waveforms and measurements; failures are shown. */
  async show(simulationId: string): Promise<void> {
    try {
      await this.load(simulationId);
    } catch (error) {
      byId('run-errors').textContent = errorLines(error).join(' · ');
    }
  }

  private async load(simulationId: string): Promise<void> {
    const status = await getJson<SimulationStatus>(`/api/v1/simulations/${simulationId}`);
    this.simulationId = simulationId;
    this.samples.clear();
    this.time = new Float64Array(0);
    const results = status.results ?? { signals: [], measurements: {} };
    this.labels = results.labels ?? {};
    for (const format of ['csv', 'json', 'parquet']) byId<HTMLButtonElement>(`export-${format}`).disabled = status.status !== 'completed';
    const rows = Object.entries(results.measurements).map(([name, value]) =>
      h('tr', {}, h('th', { scope: 'row' }, name), h('td', {}, measurementLabel(name, this.labels)), h('td', {}, fmt(value))));
    byId('measurements').querySelector('tbody')!.replaceChildren(...rows);
    this.onMeasurements(Object.keys(results.measurements));
    const picker = byId('signal-picker');
    const boxes = results.signals.map((name, i) => {
      const box = h('input', { type: 'checkbox', value: name, checked: i < 2 });
      box.addEventListener('change', () => void this.plotChosen());
      return h('label', {}, box, ` ${signalTitle(name, this.labels)}`);
    });
    picker.replaceChildren(h('legend', {}, 'Signals'), ...(boxes.length ? boxes : [h('p', { class: 'muted' }, 'This simulation has no recorded signals.')]));
    await this.plotChosen();
  }

  private async plotChosen(): Promise<void> {
    if (!this.simulationId) return;
    const chosen = [...byId('signal-picker').querySelectorAll<HTMLInputElement>('input:checked')].map((b) => b.value);
    const missing = chosen.filter((name) => !this.samples.has(name));
    try {
      if (missing.length) {
        const query = `format=json&signals=${encodeURIComponent(missing.join(','))}`;
        const data = await getJson<ExportJson>(`/api/v1/simulations/${this.simulationId}/export?${query}`);
        this.time = Float64Array.from(data.time);
        for (const name of missing) this.samples.set(name, Float64Array.from(data.signals[name] ?? []));
      }
      const titles = chosen.map((name) => signalTitle(name, this.labels));
      this.plot.show(chosen.length ? this.time : new Float64Array(0), titles, chosen.map((name) => this.samples.get(name)!));
    } catch (error) {
      byId('run-errors').textContent = errorLines(error).join(' · ');
    }
  }
}
