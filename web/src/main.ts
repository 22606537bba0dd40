// The dashboard's entry point: wires the panels together (open a circuit → schematic, components
// and settings; run → progress → results; sweeps; the simulations list; the job queue), the
// API-key field and the health read-out.
import 'uplot/dist/uPlot.min.css';
import '../style.css';
import { apiKey, getJson, setApiKey } from './api.js';
import { CircuitPanel } from './circuit-panel.js';
import { byId, h } from './dom.js';
import { JobQueuePanel } from './jobq-panel.js';
import { ResultsPanel } from './results-panel.js';
import { RunPanel } from './run-panel.js';
import { SimulationsPanel } from './simulations-panel.js';
import { SweepPanel } from './sweep-panel.js';

const measureNames = (names: string[]): void => {
  const list = byId('measure-keys');
  if (names.length) list.replaceChildren(...names.map((n) => h('option', { value: n })));
};

const results = new ResultsPanel(measureNames);
const sweep = new SweepPanel();
const simulations = new SimulationsPanel((id) => void run.watch(id));
const run = new RunPanel((id, status) => {
  if (status === 'completed') void results.show(id);
  void simulations.refresh();
}, () => ({ ...circuits.runOptions() }));
const circuits = new CircuitPanel(({ circuit, components }) => {
  run.setCircuit(circuit.circuitId);
  sweep.setCircuit(circuit.circuitId);
  const keys = components.flatMap((c) => Object.entries(c.parameters).filter(([, v]) => typeof v === 'number').map(([k]) => `${c.name}.${k}`));
  keys.push(...Object.keys(circuit.globalParameters).map((g) => `$${g}`));
  byId('param-keys').replaceChildren(...keys.map((k) => h('option', { value: k })));
});

async function showHealth(): Promise<void> {
  const el = byId('health');
  try {
    const health = await getJson<{ status: string; version: string }>('/api/v1/health');
    el.textContent = `service ${health.status} · v${health.version}`;
  } catch {
    el.textContent = 'service unreachable';
  }
}

const keyInput = byId<HTMLInputElement>('api-key');
keyInput.value = apiKey();
byId('key-form').addEventListener('submit', (e) => {
  e.preventDefault();
  setApiKey(keyInput.value.trim());
  void circuits.refreshList();
  void simulations.refresh();
});

void showHealth();
void circuits.refreshList();
void simulations.refresh();
new JobQueuePanel();
document.body.dataset.ready = 'true';
