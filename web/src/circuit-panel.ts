// Opening and editing a circuit: a file dropped or chosen (with the data files it names, if any)
// goes to POST /api/v1/circuits/parse (reader errors listed with their line numbers, a missing
// data file by name), or a loaded circuit is chosen from the list;
// then its schematic, its components with editable parameter values and its settings. Run uses
// what the form shows (runOptions: the changed values as overrides of the run); the settings are
// stored on "Save settings" (PUT /circuits/{id}/parameters), and a copy with the changed values only
// on "Save as a copy" (POST /circuits/{id}/clone), under a name that does not pile up "(copy)".
import { errorLines, getJson, request, sendJson, type Circuit, type CircuitComponent, type Schematic } from './api.js';
import { byId, h } from './dom.js';
import { SchematicView } from './schematic.js';

export interface LoadedCircuit {
  circuit: Circuit;
  components: CircuitComponent[];
}

const CIRCUIT_EXTENSION = /\.(ipes|cir|sp|spice|net|json)$/i;

/** What a run takes from the form: the values that differ from the stored circuit. */
export interface RunOptions {
  parameters?: Record<string, number>;
  simulationTime?: number;
  timeStep?: number;
  solverType?: string;
}

/** `buck`, `buck (copy)`, `buck (copy 2)` → `buck`. */
export function copyBase(name: string): string {
  return name.replace(/ \(copy(?: \d+)?\)$/, '');
}

/** The first of `<base> (copy)`, `<base> (copy 2)`, … that no circuit in `taken` has. */
export function copyName(name: string, taken: ReadonlySet<string>): string {
  const base = copyBase(name);
  for (let n = 1; ; n++) {
    const candidate = n === 1 ? `${base} (copy)` : `${base} (copy ${n})`;
    if (!taken.has(candidate)) return candidate;
  }
}

export class CircuitPanel {
  private readonly schematic = new SchematicView(byId('schematic'));
  private readonly select = byId<HTMLSelectElement>('circuit-select');
  private readonly errors = byId('open-errors');
  current: LoadedCircuit | undefined;
  /** Names of the stored circuits, from the last list read. */
  private names = new Set<string>();

  constructor(private readonly onLoaded: (loaded: LoadedCircuit) => void) {
    const input = byId<HTMLInputElement>('file');
    input.addEventListener('change', () => {
      if (input.files?.length) void this.upload([...input.files]);
      input.value = '';
    });
    const drop = byId('drop');
    drop.addEventListener('dragover', (e) => { e.preventDefault(); drop.classList.add('over'); });
    drop.addEventListener('dragleave', () => drop.classList.remove('over'));
    drop.addEventListener('drop', (e) => {
      e.preventDefault();
      drop.classList.remove('over');
      const files = [...(e.dataTransfer?.files ?? [])];
      if (files.length) void this.upload(files);
    });
    this.select.addEventListener('change', () => { if (this.select.value) void this.load(this.select.value); });
    byId('circuit-refresh').addEventListener('click', () => void this.refreshList());
    byId('settings-form').addEventListener('submit', (e) => { e.preventDefault(); void this.saveSettings(); });
    byId('save-copy').addEventListener('click', () => void this.saveCopy());
  }

  private showErrors(error: unknown, title: string): void {
    this.errors.replaceChildren(h('p', {}, title), h('ul', {}, ...errorLines(error).map((line) => h('li', {}, line))));
  }

  /**
   * Uploads a circuit file with the data files it names (signal tables, loss files, SPICE
   * includes): the first file with a circuit extension is the circuit, the others go as parts `files`.
   */
  async upload(chosen: File[]): Promise<void> {
    this.errors.replaceChildren();
    const file = chosen.find((f) => CIRCUIT_EXTENSION.test(f.name)) ?? chosen[0];
    const form = new FormData();
    form.append('file', file, file.name);
    for (const data of chosen) if (data !== file) form.append('files', data, data.name);
    try {
      const circuit = await (await request('/api/v1/circuits/parse', { method: 'POST', body: form })).json() as Circuit;
      await this.load(circuit.circuitId);
      await this.refreshList();
    } catch (error) {
      this.showErrors(error, `${file.name} could not be opened:`);
    }
  }

  async refreshList(): Promise<void> {
    try {
      const { circuits } = await getJson<{ circuits: Circuit[] }>('/api/v1/circuits?limit=200');
      this.names = new Set(circuits.map((c) => c.name));
      const chosen = this.current?.circuit.circuitId ?? '';
      this.select.replaceChildren(h('option', { value: '' }, '—'), ...circuits.map((c) =>
        h('option', { value: c.circuitId, selected: c.circuitId === chosen }, `${c.name} (${c.format}, ${c.componentCount} components)`)));
    } catch (error) {
      this.showErrors(error, 'The circuit list could not be read:');
    }
  }

  async load(id: string): Promise<void> {
    this.errors.replaceChildren();
    try {
      const path = `/api/v1/circuits/${encodeURIComponent(id)}`;
      const [circuit, list, schematic] = await Promise.all([
        getJson<Circuit>(`${path}/info`), getJson<{ components: CircuitComponent[] }>(`${path}/components`), getJson<Schematic>(`${path}/schematic`),
      ]);
      this.current = { circuit, components: list.components };
      byId('circuit-name').textContent = `${circuit.name} · ${circuit.componentCount} components · ${circuit.format}`;
      byId('circuit').dataset.circuitId = circuit.circuitId;
      this.schematic.render(schematic);
      this.renderComponents(list.components);
      this.renderSettings(circuit);
      this.onLoaded(this.current);
    } catch (error) {
      this.showErrors(error, 'The circuit could not be loaded:');
    }
  }

  private renderSettings(c: Circuit): void {
    byId<HTMLInputElement>('set-duration').value = String(c.parameters.simulationDuration);
    byId<HTMLInputElement>('set-step').value = String(c.parameters.timeStep);
    byId<HTMLSelectElement>('set-solver').value = c.parameters.solverType;
  }

  private renderComponents(components: CircuitComponent[]): void {
    const rows = components.map((c) => {
      const params = Object.entries(c.parameters).map(([key, value]) => {
        if (typeof value !== 'number') return h('span', { class: 'param' }, `${key} = ${Array.isArray(value) ? value.join(', ') : value}`);
        const input = h('input', { type: 'number', step: 'any', value: String(value), 'data-key': `${c.name}.${key}`, 'data-original': String(value), 'aria-label': `${c.name} ${key}` });
        return h('label', { class: 'param' }, key, input);
      });
      return h('tr', {}, h('th', { scope: 'row' }, c.name), h('td', {}, c.type), h('td', {}, ...params));
    });
    byId('component-table').querySelector('tbody')!.replaceChildren(...rows);
  }

  private async saveSettings(): Promise<void> {
    if (!this.current) return;
    const status = byId('params-status');
    try {
      const body = {
        simulationDuration: Number(byId<HTMLInputElement>('set-duration').value),
        timeStep: Number(byId<HTMLInputElement>('set-step').value),
        solverType: byId<HTMLSelectElement>('set-solver').value,
      };
      const circuit = await sendJson<Circuit>('PUT', `/api/v1/circuits/${this.current.circuit.circuitId}/parameters`, body);
      this.current = { ...this.current, circuit };
      status.textContent = 'Settings saved.';
      this.onLoaded(this.current);
    } catch (error) {
      status.textContent = errorLines(error).join(' · ');
    }
  }

  /** The parameter values edited in the table (differing from the stored circuit); throws on one that is not a number. */
  private editedParameters(): Record<string, number> {
    const edited: Record<string, number> = {};
    for (const input of byId('component-table').querySelectorAll<HTMLInputElement>('input[data-key]')) {
      if (input.value === input.dataset.original) continue;
      const value = input.value.trim() === '' ? NaN : Number(input.value);
      if (!Number.isFinite(value)) throw new Error(`${input.dataset.key}: "${input.value}" is not a number`);
      edited[input.dataset.key!] = value;
    }
    return edited;
  }

  /**
   * What the form shows that differs from the stored circuit, as options of a run: the edited
   * parameter values and the settings. Throws an Error naming a field that is not a number.
   */
  runOptions(): RunOptions {
    if (!this.current) return {};
    const stored = this.current.circuit.parameters;
    const options: RunOptions = {};
    const parameters = this.editedParameters();
    if (Object.keys(parameters).length) options.parameters = parameters;
    const setting = (id: string, label: string): number => {
      const value = Number(byId<HTMLInputElement>(id).value);
      if (!Number.isFinite(value) || value <= 0) throw new Error(`${label}: "${byId<HTMLInputElement>(id).value}" is not a positive number`);
      return value;
    };
    const duration = setting('set-duration', 'Simulated time');
    const step = setting('set-step', 'Time step');
    const solver = byId<HTMLSelectElement>('set-solver').value;
    if (duration !== stored.simulationDuration) options.simulationTime = duration;
    if (step !== stored.timeStep) options.timeStep = step;
    if (solver !== stored.solverType) options.solverType = solver;
    return options;
  }

  private async saveCopy(): Promise<void> {
    if (!this.current) return;
    const status = byId('params-status');
    try {
      const overrides = this.editedParameters();
      const typed = byId<HTMLInputElement>('copy-name').value.trim();
      const name = typed || copyName(this.current.circuit.name, this.names);
      const copy = await sendJson<Circuit>('POST', `/api/v1/circuits/${this.current.circuit.circuitId}/clone`, { overrides, name });
      byId<HTMLInputElement>('copy-name').value = '';
      status.textContent = `Stored as "${copy.name}".`;
      await this.load(copy.circuitId);
      await this.refreshList();
    } catch (error) {
      status.textContent = errorLines(error).join(' · ');
    }
  }
}
