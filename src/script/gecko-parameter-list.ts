// GeckoSCRIPT's getAccessibleParameters(element) and its alias getParametersNames(element): one
// line per parameter setParameter accepts, "shortName\t\tunit\tdescription", as GeckoCIRCUITS
// lists an element's registered UserParameters (AbstractGeckoCustom.getAccessibleParameters:
// getAccessibleParamterDescription + getUnits + getAccessibleParameterDescriptionVerbose). pesim
// lists the short names it maps (remote/gecko-parameters.ts); an element type without any lists
// its netlist parameters, which setParameter then takes by their own names.
import { geckoShortNames } from '../remote/gecko-parameters.js';
import { findComponent } from '../remote/lookup.js';
import type { Builtin, Builtins, ScriptHost } from './host.js';

/** Unit and description of each short name (GeckoCIRCUITS' units; descriptions in its words). */
const DESCRIPTIONS: Record<string, [string, string]> = {
  R: ['Ohm', 'resistance'],
  L: ['H', 'inductance'],
  'iL(0)': ['A', 'initial current'],
  C: ['F', 'capacitance'],
  'uC(0)': ['V', 'initial voltage'],
  uDC: ['V', 'DC value'],
  uMAX: ['V', 'amplitude'],
  iMAX: ['A', 'DC value'],
  ampl: ['A', 'amplitude'],
  f: ['Hz', 'frequency'],
  offset: ['', 'offset'],
  phase: ['deg', 'phase shift'],
  gain: ['', 'gain'],
  rON: ['Ohm', 'on-resistance'],
  rOFF: ['Ohm', 'off-resistance'],
  uF: ['V', 'forward voltage drop'],
  t_rr: ['sec', 'reverse recovery delay'],
  k: ['unitless', 'magnetic coupling k'],
  n1: ['turns', 'winding number primary side'],
  n2: ['turns', 'winding number secondary side'],
  const: ['', 'constant value'],
  r0: ['', 'gain'],
  a1: ['', 'coefficient'],
  T: ['sec', 'time constant'],
  min: ['', 'minimum'],
  max: ['', 'maximum'],
  y0: ['', 'initial value'],
  amplMAX: ['', 'amplitude'],
  d: ['', 'duty ratio'],
};

/** The parameters pesim's setParameter accepts for `element`, as GeckoCIRCUITS' getAccessibleParameters lists them. */
export function accessibleParameters(host: ScriptHost, element: string): string[] {
  const item = findComponent(host.session.circuit(), element);
  const shortNames = geckoShortNames(item.type).map((names) => names[0]);
  if (shortNames.length === 0) {
    return Object.entries(item.params ?? {}).filter(([, v]) => typeof v === 'number').map(([name]) => `${name}\t\t\t${name}`);
  }
  return shortNames.map((name) => {
    const [unit, description] = DESCRIPTIONS[name] ?? ['', name];
    return `${name}\t\t${unit}\t${description}`;
  });
}

export function geckoParameterListBuiltins(host: ScriptHost): Builtins {
  const list: Builtin[] = ['getAccessibleParameters', 'getParametersNames'].map((name) => ({
    name, signatures: [{ params: ['String'], returns: 'String[]' }], call: (a) => accessibleParameters(host, a[0] as string),
  }));
  return new Map(list.map((b) => [b.name, b]));
}
