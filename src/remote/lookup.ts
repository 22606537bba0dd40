// Name look-ups of the remote-control operations: components and their parameters (exact name
// first, then a unique case-insensitive match, as GeckoCIRCUITS scripts write `r0` for `R0`), scope
// channels (`ch1` or the channel's label) and measurement names (`ch1_avg`). A name that matches
// nothing is a RemoteError listing what exists.
import { channelMeasurementName, MEASUREMENT_STATISTICS, type MeasurementStatistic } from '../engine/measurement-names.js';
import type { SimulationResult } from '../engine/simulate.js';
import type { Netlist, ParamValue } from '../formats/netlist.js';
import { RemoteError } from './types.js';

export interface Component {
  name: string;
  type: string;
  params?: Record<string, ParamValue>;
}

const LISTED = 30;

function listing(names: string[]): string {
  if (names.length === 0) return 'none';
  return names.length > LISTED ? `${names.slice(0, LISTED).join(', ')}, … (${names.length} in all)` : names.join(', ');
}

function matchName<T>(items: T[], nameOf: (item: T) => string, wanted: string): T | undefined {
  const exact = items.find((item) => nameOf(item) === wanted);
  if (exact) return exact;
  const folded = items.filter((item) => nameOf(item).toLowerCase() === wanted.toLowerCase());
  return folded.length === 1 ? folded[0] : undefined;
}

function text(value: unknown, what: string): string {
  if (typeof value !== 'string' || value.length === 0) throw new RemoteError('INVALID_ARGUMENT', `${what}: expected a name, got ${JSON.stringify(value)}`);
  return value;
}

/** Every component of `netlist`: its elements, control blocks and thermal elements, themselves (not copies). */
export function componentsOf(netlist: Netlist): Component[] {
  return [...netlist.elements, ...(netlist.blocks ?? []), ...(netlist.thermal ?? [])];
}

/** The component named exactly `name`, or undefined (the PLECS dialect's paths name components exactly). */
export function componentNamed(netlist: Netlist, name: string): Component | undefined {
  return componentsOf(netlist).find((item) => item.name === name);
}

/** The component named `name` (element, control block or thermal element) of `netlist`, itself (not a copy). */
export function findComponent(netlist: Netlist, name: string): Component {
  const wanted = text(name, 'component');
  const items = componentsOf(netlist);
  const found = matchName(items, (item) => item.name, wanted);
  if (!found) throw new RemoteError('UNKNOWN_COMPONENT', `no component ${JSON.stringify(wanted)}; the circuit has: ${listing(items.map((i) => i.name))}`);
  return found;
}

/** The name of `component`'s parameter `param` as the netlist spells it. */
export function findParameter(component: Component, param: string): string {
  const wanted = text(param, `parameter of ${component.name}`);
  const names = Object.keys(component.params ?? {});
  const found = matchName(names, (n) => n, wanted);
  if (!found) {
    throw new RemoteError('UNKNOWN_PARAMETER', `${component.name} (${component.type}) has no parameter ${JSON.stringify(wanted)}; its parameters: ${listing(names)}`);
  }
  return found;
}

/** A numeric parameter's value with a `$global` reference resolved; other values as text. */
export function numericValue(value: ParamValue, netlist: Netlist): number | string {
  if (typeof value === 'number') return value;
  if (typeof value === 'string' && value.startsWith('$') && netlist.parameters?.[value.slice(1)] !== undefined) return netlist.parameters[value.slice(1)];
  return Array.isArray(value) ? value.join(' ') : value;
}

/** True when the parameter holds a number (or a `$global` reference to one) and may be set to a number. */
export function isNumericParameter(value: ParamValue | undefined): boolean {
  return value === undefined || typeof value === 'number' || (typeof value === 'string' && value.startsWith('$'));
}

/** The signal key (`SCOPE.1.ch2`) of a scope channel named `ch2`, `2` or by its label. */
export function channelOf(result: SimulationResult, scope: string, channel: string): string {
  const scopeName = text(scope, 'scope');
  const wanted = text(String(channel), `channel of ${scopeName}`);
  const ofScope = result.channels.filter((c) => c.scope === scopeName || c.scope.toLowerCase() === scopeName.toLowerCase());
  if (ofScope.length === 0) {
    const scopes = [...new Set(result.channels.map((c) => c.scope))];
    throw new RemoteError('UNKNOWN_CHANNEL', `no scope ${JSON.stringify(scopeName)} in the last run; scopes: ${listing(scopes)}`);
  }
  const byIndex = /^(?:ch)?(\d+)$/i.exec(wanted);
  const found = byIndex ? ofScope.find((c) => c.index === Number(byIndex[1])) : matchName(ofScope.filter((c) => c.label), (c) => c.label, wanted);
  if (!found) {
    const names = ofScope.map((c) => (c.label ? `ch${c.index} (${c.label})` : `ch${c.index}`));
    throw new RemoteError('UNKNOWN_CHANNEL', `${ofScope[0].scope} has no channel ${JSON.stringify(wanted)}; its channels: ${listing(names)}`);
  }
  return found.key;
}

/** The measurement name (`SCOPE.1.ch1_avg`) of `ch1_avg` (also `ch1.avg`, `<label>_rms`). */
export function measurementKey(result: SimulationResult, scope: string, channel: string): string {
  const wanted = text(String(channel), 'measurement');
  const split = /^(.*)[._](avg|rms|min|max)$/i.exec(wanted);
  if (!split) throw new RemoteError('UNKNOWN_CHANNEL', `measurement ${JSON.stringify(wanted)}: expected <channel>_<statistic> such as ch1_avg; statistics: ${MEASUREMENT_STATISTICS.join(', ')}`);
  const key = channelMeasurementName(channelOf(result, scope, split[1]), split[2].toLowerCase() as MeasurementStatistic);
  if (result.measurements[key] === undefined) throw new RemoteError('UNKNOWN_CHANNEL', `no measurement ${key} in the last run`);
  return key;
}
