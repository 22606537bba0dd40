// The models the PLECS dialect has open: files opened by plecs.load, known by their file stem, with
// the values plecs.set gave them; and the reading of a parameter as plecs.get answers it. Components
// are looked up by their exact name (control/lookup.ts).
import { componentNamed } from '../remote/lookup.js';
import { readCircuitAt } from '../remote/circuit-files.js';
import { modelName, overrideKey, type PlecsModel } from './plecs-models.js';
import { FAULT, XmlRpcFault } from '../xmlrpc/values.js';

export class LoadedModels {
  private readonly models = new Map<string, PlecsModel>();

  /** Reads the circuit file at `path` (absolute, checked) as the model named after its stem, replacing one of that name. */
  async load(path: string): Promise<string> {
    const circuit = await readCircuitAt(path);
    const name = modelName(path);
    this.models.set(name, { name, path, netlist: circuit.netlist, overrides: {} });
    return name;
  }

  close(name: string): void {
    this.model(name);
    this.models.delete(name);
  }

  list(): PlecsModel[] {
    return [...this.models.values()];
  }

  model(name: string): PlecsModel {
    const found = this.models.get(name);
    if (!found) {
      throw new XmlRpcFault(FAULT.INVALID_PARAMS, `no model ${JSON.stringify(name)} is loaded (loaded: ${[...this.models.keys()].join(', ') || 'none'}); plecs.load(path) opens one`);
    }
    return found;
  }

  /** `Model/Comp` → the model and the component name (none for the model itself). */
  target(path: string): { model: PlecsModel; component?: string } {
    const slash = path.indexOf('/');
    if (slash < 0) return { model: this.model(path) };
    return { model: this.model(path.slice(0, slash)), component: path.slice(slash + 1) };
  }
}

/** The parameters of the model's component named `component`. */
export function componentParams(m: PlecsModel, component: string): Record<string, unknown> {
  const item = componentNamed(m.netlist, component);
  if (!item) throw new XmlRpcFault(FAULT.INVALID_PARAMS, `${m.name} has no component ${JSON.stringify(component)}`);
  return item.params ?? {};
}

/** A parameter as plecs.get shows it: of the component, or (none given) a model setting or global. */
export function parameterText(m: PlecsModel, component: string | undefined, param: string): string {
  if (component === undefined) {
    if (param === 'TimeSpan') return String(m.overrides.TimeSpan ?? m.netlist.settings.tEnd);
    if (param === 'FixedStep' || param === 'MaxStep') return String(m.overrides[param] ?? m.netlist.settings.dt);
    const key = overrideKey(m.netlist, param, 'plecs.get');
    if (!key.startsWith('$')) return parameterText(m, key.slice(0, key.lastIndexOf('.')), key.slice(key.lastIndexOf('.') + 1));
    return String(m.overrides[key] ?? m.netlist.parameters![key.slice(1)]);
  }
  const params = componentParams(m, component);
  const key = `${component}.${param}`;
  if (m.overrides[key] !== undefined) return String(m.overrides[key]);
  if (!(param in params)) throw new XmlRpcFault(FAULT.INVALID_PARAMS, `${m.name}/${component} has no parameter ${JSON.stringify(param)}; its parameters: ${Object.keys(params).join(', ') || 'none'}`);
  const value = params[param];
  return Array.isArray(value) ? value.join(' ') : String(value);
}
