// The specification's scripting functions and their GeckoSCRIPT equivalents over the remote-control
// session: loadCircuit/openFile, saveCircuit/saveFileAs, runSteadyState, stopSimulation,
// resetSimulation, setParameter/getParameter (GeckoCIRCUITS short names or netlist names),
// global parameters, getMeasurement, getWaveform, exportData, and the time settings.
// runSimulation, getSimulationTime and endScript are the step-wise run's (gecko-stepping.ts).
import { extname } from 'node:path';
import type { RemoteExportFormat } from '../remote/types.js';
import { ScriptError } from './errors.js';
import { getGeckoParameter, setGeckoParameter } from '../remote/gecko-parameters.js';
import type { Builtin, Builtins, ScriptHost, Signature } from './host.js';

const sig = (params: string[], returns: string): Signature => ({ params, returns });

function numeric(value: number | string, what: string): number {
  if (typeof value !== 'number') throw new ScriptError('runtime', `${what} is ${JSON.stringify(value)}, not a number`);
  return value;
}

function formatOf(path: string): RemoteExportFormat {
  const ext = extname(path).toLowerCase().slice(1);
  if (ext === 'csv' || ext === 'json' || ext === 'parquet') return ext;
  throw new ScriptError('runtime', `exportData: cannot tell the format from '${path}': give it as exportData(path, "csv" | "json" | "parquet")`);
}

export function sessionBuiltins(host: ScriptHost): Builtins {
  const s = host.session;
  const list: Builtin[] = [
    { name: 'loadCircuit', signatures: [sig(['String'], 'void')], call: async (a) => {
      const summary = await s.loadCircuit(a[0] as string);
      for (const warning of summary.warnings) host.write(`warning: ${warning}\n`);
    } },
    { name: 'saveCircuit', signatures: [sig(['String'], 'void')], call: async (a) => {
      await s.saveCircuit(a[0] as string);
    } },
    // The periodic steady state (docs/steady-state.md); returns its periodicity error. The last run
    // is then one settled period; runSteadyState(period) gives the period [s].
    { name: 'runSteadyState', signatures: [sig([], 'double'), sig(['double'], 'double')], call: async (a) => {
      await s.runSteadyState(a.length > 0 ? { period: a[0] as number } : {});
      return s.lastRun()!.result.steady!.error;
    } },
    { name: 'stopSimulation', signatures: [sig([], 'boolean')], call: () => s.stopSimulation() },
    { name: 'resetSimulation', signatures: [sig([], 'void')], call: () => s.resetSimulation() },
    { name: 'setParameter', signatures: [sig(['String', 'String', 'double'], 'void')],
      call: (a) => setGeckoParameter(s, a[0] as string, a[1] as string, a[2] as number) },
    { name: 'getParameter', signatures: [sig(['String', 'String'], 'double')],
      call: (a) => numeric(getGeckoParameter(s, a[0] as string, a[1] as string), `parameter ${a[1] as string} of ${a[0] as string}`) },
    { name: 'setGlobalParameter', signatures: [sig(['String', 'double'], 'void')], call: (a) => s.setGlobalParameter(a[0] as string, a[1] as number) },
    { name: 'getGlobalParameter', signatures: [sig(['String'], 'double')], call: (a) => s.getGlobalParameter(a[0] as string) },
    { name: 'getMeasurement', signatures: [sig(['String', 'String'], 'double')], call: (a) => s.getMeasurement(a[0] as string, a[1] as string) },
    { name: 'getWaveform', signatures: [sig(['String', 'String'], 'double[][]')], call: (a) => {
      const w = s.getWaveform(a[0] as string, a[1] as string);
      return [w.time, w.values];
    } },
    { name: 'exportData', signatures: [sig(['String'], 'String'), sig(['String', 'String'], 'String')], call: (a) => {
      const path = a[0] as string;
      return s.exportData(path, a.length > 1 ? (a[1] as RemoteExportFormat) : formatOf(path));
    } },
    { name: 'get_dt', signatures: [sig([], 'double')], call: () => s.getTimeStep() },
    { name: 'set_dt', signatures: [sig(['double'], 'void')], call: (a) => s.setTimeStep(a[0] as number) },
    { name: 'get_Tend', signatures: [sig([], 'double')], call: () => s.getEndTime() },
    { name: 'set_Tend', signatures: [sig(['double'], 'void')], call: (a) => s.setEndTime(a[0] as number) },
    { name: 'get_Tend_pre', signatures: [sig([], 'double')], call: () => s.getPreSimulationTime() },
    { name: 'set_Tend_pre', signatures: [sig(['double'], 'void')], call: (a) => s.setPreSimulationTime(a[0] as number) },
    { name: 'get_dt_pre', signatures: [sig([], 'double')], call: () => s.getPreSimulationStep() },
    { name: 'set_dt_pre', signatures: [sig(['double'], 'void')], call: (a) => s.setPreSimulationStep(a[0] as number) },
  ];
  const aliases: Array<[string, string]> = [
    ['openFile', 'loadCircuit'], ['saveFileAs', 'saveCircuit'],
    ['setGlobalParameterValue', 'setGlobalParameter'], ['getGlobalParameterValue', 'getGlobalParameter'],
  ];
  const map = new Map(list.map((b) => [b.name, b]));
  for (const [alias, name] of aliases) map.set(alias, { ...map.get(name)!, name: alias });
  return map;
}
