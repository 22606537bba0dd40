// Output helpers of the command line: user-facing signal names and CSV text.
import type { SimulationResult } from '../engine/index.js';
import type { CircuitFormat } from '../formats/read.js';

/**
 * Maps channel keys to the names users see: for SPICE decks the channel labels (`V(out)`,
 * `I(L1)`), otherwise the channel key (`SCOPE.1.ch1`) — labels of .ipes scopes are not unique.
 */
export function signalNames(result: SimulationResult, format: CircuitFormat): Map<string, string> {
  const names = new Map<string, string>();
  for (const channel of result.channels) {
    names.set(channel.key, format === 'spice' && channel.label ? channel.label : channel.key);
  }
  return names;
}

export function toCsv(result: SimulationResult, names: Map<string, string>): string {
  const keys = [...names.keys()];
  const lines = [['time', ...keys.map((k) => names.get(k))].join(',')];
  for (let i = 0; i < result.time.length; i++) {
    lines.push([result.time[i], ...keys.map((k) => result.signals[k][i])].join(','));
  }
  return lines.join('\n') + '\n';
}
