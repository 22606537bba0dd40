// GeckoSCRIPT's lists of the loaded circuit's components (AbstractGeckoCustom): the names of all
// circuit, control and thermal components, and of the resistors, inductors, capacitors, diodes,
// thyristors, IGBTs and ideal switches (createComponentsList by class). Also writerOutputErrorLn,
// which writes its argument's text as a line (GeckoCIRCUITS also copies it to its error stream).
import type { Builtin, Builtins, ScriptHost } from './host.js';

/** The element types each GeckoSCRIPT list names (GeckoCIRCUITS classes → pesim netlist types). */
const LISTS_BY_TYPE: Record<string, string> = {
  getResistors: 'R', getInductors: 'L', getCapacitors: 'C', getDiodes: 'D', getThyristors: 'THYR', getIGBTs: 'IGBT', getIdealSwitches: 'S',
};

const NAMES = { params: [], returns: 'String[]' };

export function geckoCircuitListBuiltins(host: ScriptHost): Builtins {
  const circuit = () => host.session.circuit();
  const list: Builtin[] = [
    { name: 'getCircuitElements', signatures: [NAMES], call: () => circuit().elements.map((e) => e.name) },
    { name: 'getControlElements', signatures: [NAMES], call: () => (circuit().blocks ?? []).map((b) => b.name) },
    { name: 'getThermalElements', signatures: [NAMES], call: () => (circuit().thermal ?? []).map((t) => t.name) },
    ...Object.entries(LISTS_BY_TYPE).map(([name, type]): Builtin => ({
      name, signatures: [NAMES], call: () => circuit().elements.filter((e) => e.type === type).map((e) => e.name),
    })),
    { name: 'writerOutputErrorLn', signatures: [{ params: ['Object'], returns: 'void' }], call: (a) => host.write(`${String(a[0])}\n`) },
  ];
  return new Map(list.map((b) => [b.name, b]));
}
