// GeckoCIRCUITS' parameter short names (UserParameter.shortName / alternative short names, as
// setParameter/getParameter in GeckoSCRIPT match them, case-insensitively) mapped onto the netlist
// parameters the .ipes reader produces (src/formats/ipes/catalog.ts, elements.ts, signals.ts),
// including the conversions the reader applies (GeckoCIRCUITS' phase φ is the netlist's −φ).
// Names that are not GeckoCIRCUITS short names fall through to the netlist's own parameter names.
// One table for GeckoSCRIPT (short names first, as GeckoCIRCUITS matches them), the XML-RPC remote
// control (the component's own names first) and `pesim info` (which lists both).
import { findComponent, findParameter, type Component } from './lookup.js';
import { RemoteError, type RemoteOperations } from './types.js';
import type { Netlist, ParamValue } from '../formats/netlist.js';

type Params = Record<string, ParamValue>;

interface ShortName {
  /** Short name first, then alternative short names. */
  names: string[];
  /** The netlist parameter. */
  net: string;
  /** GeckoCIRCUITS value → netlist assignments (default: the same value to `net`). */
  toNet?: (value: number, params: Params) => Array<[string, number]>;
  /** Netlist value → GeckoCIRCUITS value (default: unchanged). */
  fromNet?: (value: number, params: Params) => number;
}

const num = (v: ParamValue | undefined, def: number): number => (typeof v === 'number' ? v : def);
const negated: Pick<ShortName, 'toNet' | 'fromNet'> = { toNet: (v) => [['phase', v === 0 ? 0 : -v]], fromNet: (v) => (v === 0 ? 0 : -v) };
const SWITCH: ShortName[] = [{ names: ['rON'], net: 'ron' }, { names: ['rOFF'], net: 'roff' }];
const SEMICONDUCTOR: ShortName[] = [...SWITCH, { names: ['uF'], net: 'vf' }];
const SOURCE: ShortName[] = [
  { names: ['f'], net: 'frequency' }, { names: ['offset'], net: 'offset' }, { names: ['phase'], net: 'phase', ...negated },
];

/** SIGNAL phase: sine and rectangle −φ; triangle 180°·d − φ (signals.ts). */
function signalPhaseOffset(params: Params): number {
  return params.waveform === 'triangle' ? 180 * num(params.duty, 0.5) : 0;
}

const SHORT_NAMES: Record<string, ShortName[]> = {
  R: [{ names: ['R'], net: 'R' }],
  L: [{ names: ['L'], net: 'L' }, { names: ['iL(0)'], net: 'i0' }],
  C: [{ names: ['C'], net: 'C' }, { names: ['uC(0)'], net: 'v0' }],
  V: [{ names: ['uDC'], net: 'value' }, { names: ['uMAX'], net: 'amplitude' }, ...SOURCE],
  I: [{ names: ['iMAX'], net: 'value' }, { names: ['ampl'], net: 'amplitude' }, ...SOURCE],
  E: [{ names: ['gain'], net: 'gain' }],
  G: [{ names: ['gain'], net: 'gm' }],
  D: SEMICONDUCTOR,
  IGBT: SEMICONDUCTOR,
  THYR: [...SEMICONDUCTOR, { names: ['t_rr'], net: 'trr' }],
  S: SWITCH,
  MOSFET: SWITCH,
  K: [{ names: ['k'], net: 'k' }],
  TRANS: [{ names: ['n1'], net: 'n1' }, { names: ['n2'], net: 'n2' }],
  CONST: [{ names: ['const'], net: 'value' }],
  GAIN: [{ names: ['r0'], net: 'k' }],
  PT1: [{ names: ['T'], net: 'T' }, { names: ['a1'], net: 'gain' }],
  PT2: [{ names: ['T'], net: 'T' }, { names: ['a1'], net: 'gain' }],
  PI: [{ names: ['r0'], net: 'kp' }, { names: ['a1'], net: 'ki' }],
  PD: [{ names: ['a1'], net: 'gain' }],
  DELAY: [{ names: ['T', 'T_delay'], net: 'delay' }],
  LIMIT: [{ names: ['min'], net: 'min' }, { names: ['max'], net: 'max' }],
  INT: [{ names: ['a1'], net: 'gain' }, { names: ['y0'], net: 'y0' }, { names: ['min'], net: 'min' }, { names: ['max'], net: 'max' }],
  SIGNAL: [
    { names: ['amplMAX'], net: 'amplitude' }, { names: ['f'], net: 'frequency' }, { names: ['offset'], net: 'offset' },
    { names: ['phase'], net: 'phase', toNet: (v, p) => [['phase', signalPhaseOffset(p) - v]], fromNet: (v, p) => signalPhaseOffset(p) - v },
    { names: ['d'], net: 'duty', toNet: (v, p) => {
      if (p.waveform !== 'triangle') return [['duty', v]];
      const phi = signalPhaseOffset(p) - num(p.phase, 0);
      return [['duty', v], ['phase', 180 * v - phi]];
    } },
  ],
};

/** The GeckoCIRCUITS short names setParameter accepts for a component of netlist type `type`, each with its alternatives. */
export function geckoShortNames(type: string): string[][] {
  return (SHORT_NAMES[type] ?? []).map((s) => [...s.names]);
}

/** The short-name entry for `param` of a component of netlist type `type` (short names first, then alternatives). */
export function geckoShortName(type: string, param: string): ShortName | undefined {
  const table = SHORT_NAMES[type] ?? [];
  const wanted = param.toLowerCase();
  return table.find((s) => s.names[0].toLowerCase() === wanted) ?? table.find((s) => s.names.slice(1).some((n) => n.toLowerCase() === wanted));
}

/**
 * The GeckoCIRCUITS short name of netlist parameter `net` of a component of netlist type `type`, with
 * the parameter's value as GeckoCIRCUITS shows it (`pesim info` lists both); undefined when none.
 */
export function geckoNameOfParameter(type: string, net: string, params: Params): { shortName: string; value?: number } | undefined {
  const short = (SHORT_NAMES[type] ?? []).find((s) => s.net === net);
  if (!short) return undefined;
  const value = params[net];
  if (typeof value !== 'number') return { shortName: short.names[0] };
  return { shortName: short.names[0], value: short.fromNet ? short.fromNet(value, params) : value };
}

/** True when the .ipes reader marked the component as a sine source of a file up to 1.62 (elements.ts). */
function amplitudeInDcValue(netlist: Netlist, name: string): boolean {
  const ipes = netlist.layout?.ipes as { components?: Record<string, { extra?: Record<string, unknown> }> } | undefined;
  return ipes?.components?.[name]?.extra?.amplitudeInDcValue === 1;
}

/**
 * The short-name entry for a component of the circuit. uDC/iMAX name GeckoCIRCUITS' DC value
 * (AbstractCircuitSource._dcValue, parameter[1]); a sine source computes A·sin(2πft − φ) + offset
 * from its amplitude (parameter[20], short name uMAX/ampl; LKMatrices), so the DC value does not
 * reach it — except in files up to version 1.62, which have no separate amplitude: there
 * parameter[1] is the sine's peak value (importIndividual copies it to the amplitude), and scripts
 * written for them set the peak with uDC/iMAX. Those set the amplitude here; on other sine sources
 * they are refused, naming the amplitude's short name.
 */
function shortNameOf(netlist: Netlist, item: Component, param: string): ShortName | undefined {
  const short = geckoShortName(item.type, param);
  if (!short || short.net !== 'value' || item.params?.waveform !== 'sine' || (item.type !== 'V' && item.type !== 'I')) return short;
  const amplitude = SHORT_NAMES[item.type].find((s) => s.net === 'amplitude')!;
  if (amplitudeInDcValue(netlist, item.name)) return { ...amplitude, names: short.names };
  throw new RemoteError('INVALID_ARGUMENT', `${param} is the DC value of ${item.name}, which its sine waveform does not use; its peak value is '${amplitude.names[0]}'`);
}

/** setParameter with GeckoCIRCUITS short names, else the netlist's parameter names. */
export function setGeckoParameter(session: RemoteOperations, component: string, param: string, value: number): void {
  const netlist = session.circuit();
  const item = findComponent(netlist, component);
  const short = shortNameOf(netlist, item, param);
  if (!short) {
    session.setParameter(item.name, param, value);
    return;
  }
  const assignments = short.toNet ? short.toNet(value, item.params ?? {}) : [[short.net, value] as [string, number]];
  for (const [net, v] of assignments) session.setParameter(item.name, net, v);
}

/** getParameter with GeckoCIRCUITS short names, else the netlist's parameter names. */
export function getGeckoParameter(session: RemoteOperations, component: string, param: string): number | string {
  const netlist = session.circuit();
  const item = findComponent(netlist, component);
  const short = shortNameOf(netlist, item, param);
  if (!short) return session.getParameter(item.name, param);
  const value = session.getParameter(item.name, short.net);
  return short.fromNet && typeof value === 'number' ? short.fromNet(value, item.params ?? {}) : value;
}

/** True when the component has a parameter of this name (exactly, or case-insensitively when unique). */
function hasNetlistParameter(session: RemoteOperations, component: string, param: string): boolean {
  const item = findComponent(session.circuit(), component);
  try {
    findParameter(item, param);
    return true;
  } catch {
    return false;
  }
}

/**
 * setParameter for the remote control: the component's own parameter names first (so `phase` of a
 * JSON netlist stays the netlist's phase), then the GeckoCIRCUITS short names (`uDC`, `d`, `iL(0)`).
 */
export function setNamedParameter(session: RemoteOperations, component: string, param: string, value: number): void {
  if (hasNetlistParameter(session, component, param)) session.setParameter(component, param, value);
  else setGeckoParameter(session, component, param, value);
}

/** getParameter for the remote control, with the names setNamedParameter accepts. */
export function getNamedParameter(session: RemoteOperations, component: string, param: string): number | string {
  return hasNetlistParameter(session, component, param) ? session.getParameter(component, param) : getGeckoParameter(session, component, param);
}
