// GeckoSCRIPT's getAccessibleParameters(element) and its alias getParametersNames(element): one
// line per parameter setParameter accepts, "shortName\t\tunit\tdescription", as GeckoCIRCUITS
// lists an element's registered UserParameters (AbstractGeckoCustom.getAccessibleParameters:
// getAccessibleParamterDescription + getUnits + getAccessibleParameterDescriptionVerbose). pesim
// lists the short names it maps (remote/gecko-parameters.ts); an element type without any lists
// its netlist parameters, which setParameter then takes by their own names.
import { geckoShortNames } from '../remote/gecko-parameters.js';
import { findComponent } from '../remote/lookup.js';
import type { Builtin, Builtins, ScriptHost } from './host.js';

/**
 * Unit and description of each short name as GeckoCIRCUITS lists them (its UserParameter unit and
 * long name; read from GeckoCIRCUITS' own getAccessibleParameters where pesim's circuits have the
 * element), by element type where they differ.
 */
const DESCRIPTIONS: Record<string, [string, string]> = {
  R: ['ohm', 'Resistor R [Ohm]'],
  L: ['H', 'Inductor L [H]'],
  'iL(0)': ['A', 'initial current'],
  C: ['F', 'Capacitor C [F]'],
  'uC(0)': ['V', 'initial voltage'],
  uDC: ['V', 'DC (constant) value of source component'],
  uMAX: ['V', 'Peak amplitude (sinus/triangle/rect)'],
  iMAX: ['A', 'DC (constant) value of source component'],
  ampl: ['A', 'Peak amplitude (sinus/triangle/rect)'],
  f: ['Hz', 'frequency'],
  offset: ['', 'offset of waveform from zero'],
  phase: ['degrees', 'phase shift of waveform'],
  gain: ['', 'Gain for direct potential control'],
  rON: ['ohm', 'on-resistance'],
  rOFF: ['ohm', 'off-resistance'],
  uF: ['V', 'forward voltage drop'],
  t_rr: ['sec', 'reverse recovery delay'],
  k: ['unitless', 'magnetic coupling k'],
  n1: ['turns', 'winding number primary side'],
  n2: ['turns', 'winding number secondary side'],
  const: ['', 'Constant value'],
  r0: ['', 'GAIN'],
  a1: ['', 'coefficient'],
  T: ['sec', 'time constant'],
  min: ['', 'minimum'],
  max: ['', 'maximum'],
  y0: ['', 'initial value'],
  amplMAX: ['', 'Peak amplitude (sinus/triangle/rect)'],
  d: ['', 'duty ratio'],
};
const BY_TYPE: Record<string, Record<string, [string, string]>> = {
  V: { offset: ['V', 'offset of waveform from zero'] },
  I: { offset: ['A', 'offset of waveform from zero'] },
  SIGNAL: { phase: ['', 'signal phase delay (degrees)'] },
};
/** GeckoCIRCUITS' order of the parameters, where pesim's table has another. */
const ORDER: Record<string, string[]> = {
  V: ['uDC', 'f', 'phase', 'gain', 'offset', 'uMAX'],
  I: ['iMAX', 'f', 'phase', 'gain', 'offset', 'ampl'],
};

/** The parameters pesim's setParameter accepts for `element`, as GeckoCIRCUITS' getAccessibleParameters lists them. */
export function accessibleParameters(host: ScriptHost, element: string): string[] {
  const item = findComponent(host.session.circuit(), element);
  const order = ORDER[item.type] ?? [];
  const rank = (name: string): number => (order.includes(name) ? order.indexOf(name) : order.length);
  const shortNames = geckoShortNames(item.type).map((names) => names[0]).sort((a, b) => rank(a) - rank(b));
  if (shortNames.length === 0) {
    return Object.entries(item.params ?? {}).filter(([, v]) => typeof v === 'number').map(([name]) => `${name}\t\t\t${name}`);
  }
  return shortNames.map((name) => {
    const [unit, description] = BY_TYPE[item.type]?.[name] ?? DESCRIPTIONS[name] ?? ['', name];
    return `${name}\t\t${unit}\t${description}`;
  });
}

export function geckoParameterListBuiltins(host: ScriptHost): Builtins {
  const list: Builtin[] = ['getAccessibleParameters', 'getParametersNames'].map((name) => ({
    name, signatures: [{ params: ['String'], returns: 'String[]' }], call: (a) => accessibleParameters(host, a[0] as string),
  }));
  return new Map(list.map((b) => [b.name, b]));
}
