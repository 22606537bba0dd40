// What `pesim info FILE` reports about a circuit: its components with type and parameters (with the
// GeckoCIRCUITS short names GeckoSCRIPT and XML-RPC accept, src/remote/gecko-parameters.ts), global
// parameters, scopes with their channels, and the names of the measurements a run produces
// (`SCOPE.1.ch1_avg`, src/engine/measurement-names.ts). Built from the netlist alone: nothing runs.
import { channelMeasurementName, MEASUREMENT_STATISTICS } from '../engine/measurement-names.js';
import { scopeChannels, type Netlist, type ParamValue } from '../formats/netlist.js';
import type { CircuitFormat } from '../formats/read.js';
import { geckoNameOfParameter } from '../remote/gecko-parameters.js';

export interface ParameterInfo {
  /** The netlist's name: the key of `pesim run --param <component>.<name>=…` and of setParameter. */
  name: string;
  value: ParamValue;
  /** GeckoCIRCUITS' short name (`uDC`, `rON`), when the parameter has one. */
  geckoName?: string;
  /** The value as GeckoCIRCUITS shows it, when it differs from `value` (a phase sign). */
  geckoValue?: number;
}

export interface ComponentInfo {
  name: string;
  type: string;
  kind: 'element' | 'control' | 'thermal';
  parameters: ParameterInfo[];
}

export interface ChannelInfo {
  /** `SCOPE.1.ch1`: the signal's name in results, CSV/Parquet columns and waveforms. */
  key: string;
  index: number;
  /** The channel's name in the circuit file ('' when it has none). */
  label: string;
  /** `SCOPE.1.ch1_avg`, `_rms`, `_min`, `_max`. */
  measurements: string[];
}

export interface CircuitInfo {
  file: string;
  format: CircuitFormat;
  name?: string;
  settings: { tEnd: number; dt: number; solver?: string };
  components: ComponentInfo[];
  globalParameters: Record<string, number>;
  scopes: Array<{ name: string; channels: ChannelInfo[] }>;
}

interface Item {
  name: string;
  type: string;
  params?: Record<string, ParamValue>;
}

/** Parameters that only wire a block to the circuit (listed nowhere a user sets them). */
const WIRING = new Set(['channelNames']);

function parameters(item: Item, withGeckoNames: boolean): ParameterInfo[] {
  const params = item.params ?? {};
  return Object.entries(params).filter(([name]) => !WIRING.has(name)).map(([name, value]) => {
    const gecko = withGeckoNames ? geckoNameOfParameter(item.type, name, params) : undefined;
    if (!gecko) return { name, value };
    return gecko.value !== undefined && gecko.value !== value
      ? { name, value, geckoName: gecko.shortName, geckoValue: gecko.value }
      : { name, value, geckoName: gecko.shortName };
  });
}

export function circuitInfo(file: string, format: CircuitFormat, netlist: Netlist): CircuitInfo {
  const gecko = format === 'ipes';
  const component = (kind: ComponentInfo['kind']) => (item: Item): ComponentInfo => ({ name: item.name, type: item.type, kind, parameters: parameters(item, gecko) });
  const blocks = netlist.blocks ?? [];
  const scopes = blocks.filter((b) => b.type === 'SCOPE').map((scope) => ({
    name: scope.name,
    channels: scopeChannels(scope).map(({ key, index, label }) => ({ key, index, label, measurements: MEASUREMENT_STATISTICS.map((s) => channelMeasurementName(key, s)) })),
  }));
  return {
    file,
    format,
    ...(netlist.name ? { name: netlist.name } : {}),
    settings: { tEnd: netlist.settings.tEnd, dt: netlist.settings.dt, ...(netlist.settings.solver ? { solver: netlist.settings.solver } : {}) },
    components: [
      ...netlist.elements.map(component('element')),
      ...blocks.filter((b) => b.type !== 'SCOPE').map(component('control')),
      ...(netlist.thermal ?? []).map(component('thermal')),
    ],
    globalParameters: { ...(netlist.parameters ?? {}) },
    scopes,
  };
}

function valueText(value: ParamValue): string {
  return Array.isArray(value) ? value.join(' ') : String(value);
}

/** The report as text: one line per component, global parameter and channel. */
export function circuitInfoText(info: CircuitInfo): string {
  const lines = [
    `${info.file}: ${info.format} circuit${info.name ? ` "${info.name}"` : ''}, tEnd ${info.settings.tEnd} s, dt ${info.settings.dt} s${info.settings.solver ? `, ${info.settings.solver}` : ''}`,
    '',
    'Components (set with --param <component>.<parameter>=VALUE; GeckoCIRCUITS short names in brackets):',
  ];
  const width = Math.max(8, ...info.components.map((c) => c.name.length));
  for (const c of info.components) {
    const params = c.parameters.map((p) => {
      const gecko = p.geckoName ? ` [${p.geckoName}${p.geckoValue !== undefined ? `=${p.geckoValue}` : ''}]` : '';
      return `${p.name}=${valueText(p.value)}${gecko}`;
    });
    lines.push(`  ${c.name.padEnd(width)}  ${c.type.padEnd(7)} ${params.join('  ')}`.trimEnd());
  }
  const globals = Object.entries(info.globalParameters);
  lines.push('', 'Global parameters (set with --param \'$name=VALUE\'):');
  lines.push(...(globals.length > 0 ? globals.map(([name, value]) => `  $${name} = ${value}`) : ['  (none)']));
  lines.push('', 'Scopes, channels and measurements (<channel>_avg, _rms, _min, _max):');
  if (info.scopes.length === 0) lines.push('  (none: add a SCOPE to get signals and measurements)');
  if (info.format === 'spice') lines.push('  (pesim run and its --out files name these by their labels: V(out), V(out)_avg)');
  for (const scope of info.scopes) {
    for (const ch of scope.channels) {
      lines.push(`  ${ch.key.padEnd(width + 4)}  ${(ch.label || '-').padEnd(10)} ${ch.measurements[0]} …_rms _min _max`);
    }
  }
  return lines.join('\n');
}
