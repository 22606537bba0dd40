// The specification's remote-control operations (its "RMI" table) as XML-RPC methods on one
// RemoteSession (client-sessions.ts: the shared one, or a client id's own): every connection to
// the same session sees one loaded circuit, so stopSimulation() from a second connection stops the
// runSimulation() blocking the first. Parameters are named as the netlist names them or by their
// GeckoCIRCUITS short names (uDC, d, f, iL(0): src/remote/gecko-parameters.ts). Each method's help text
// states its return value and faults; the table of docs/remote-control.md repeats them.
import { getNamedParameter, setNamedParameter } from '../remote/gecko-parameters.js';
import { RemoteError, type RemoteExportFormat, type RemoteOperations } from '../remote/types.js';
import type { SteadyOptions } from '../engine/types.js';
import { argumentCount, numberArg, stringArg, type RmiMethod } from './methods.js';
import { isStruct, typeName, type XmlRpcValue } from '../xmlrpc/values.js';

const F = {
  none: 'Faults: INVALID_PARAMS (-32602).',
  circuit: 'Faults: NO_CIRCUIT (1), INVALID_PARAMS (-32602).',
  component: 'Faults: NO_CIRCUIT (1), UNKNOWN_COMPONENT (6), UNKNOWN_PARAMETER (7), INVALID_ARGUMENT (9), INVALID_PARAMS (-32602).',
  result: 'Faults: NO_RESULT (2), UNKNOWN_CHANNEL (8), INVALID_PARAMS (-32602).',
};

function method(name: string, signature: string, help: string, call: (params: XmlRpcValue[]) => Promise<XmlRpcValue> | XmlRpcValue): RmiMethod {
  return { name, signature, help, call };
}

/** runSteadyState's option struct as the engine's options; a bad field is an INVALID_ARGUMENT fault. */
function steadyOptions(value: XmlRpcValue | undefined): SteadyOptions {
  if (value === undefined || value === null) return {};
  if (!isStruct(value)) throw new RemoteError('INVALID_ARGUMENT', `runSteadyState: options must be a struct {period, tolerance, maxIterations, maxPeriods, temperatures, initPeriods, perturbation, jacobian}, got ${typeName(value)}`);
  const known = ['period', 'tolerance', 'maxIterations', 'maxPeriods', 'temperatures', 'initPeriods', 'perturbation', 'jacobian'];
  const unknown = Object.keys(value).filter((k) => !known.includes(k));
  if (unknown.length > 0) throw new RemoteError('INVALID_ARGUMENT', `runSteadyState: unknown option ${unknown.join(', ')}; accepted: ${known.join(', ')}`);
  const options: SteadyOptions = {};
  const number = (name: string, whole: boolean): number | undefined => {
    const v = value[name];
    if (v === undefined || v === null) return undefined;
    if (typeof v !== 'number' || !Number.isFinite(v) || v < 0 || (whole && !Number.isInteger(v)) || (!whole && v === 0)) {
      throw new RemoteError('INVALID_ARGUMENT', `runSteadyState: ${name} must be ${whole ? 'a whole number ≥ 0' : 'a positive number'}, got ${JSON.stringify(v)}`);
    }
    return v;
  };
  const period = number('period', false);
  const tolerance = number('tolerance', false);
  const maxIterations = number('maxIterations', true);
  const maxPeriods = number('maxPeriods', true);
  if (period !== undefined) options.period = period;
  if (tolerance !== undefined) options.tolerance = tolerance;
  if (maxIterations !== undefined) options.maxIterations = maxIterations;
  if (maxPeriods !== undefined) options.maxPeriods = maxPeriods;
  const initPeriods = number('initPeriods', true);
  const perturbation = number('perturbation', false);
  if (initPeriods !== undefined) options.initPeriods = initPeriods;
  if (perturbation !== undefined) {
    if (perturbation > 0.1) throw new RemoteError('INVALID_ARGUMENT', `runSteadyState: perturbation must be in (0, 0.1], got ${perturbation}`);
    options.perturbation = perturbation;
  }
  if (value.jacobian !== undefined && value.jacobian !== null) {
    if (value.jacobian !== 'fast' && value.jacobian !== 'full') throw new RemoteError('INVALID_ARGUMENT', `runSteadyState: jacobian must be "fast" or "full", got ${JSON.stringify(value.jacobian)}`);
    options.jacobian = value.jacobian;
  }
  if (value.temperatures !== undefined && value.temperatures !== null) {
    if (typeof value.temperatures !== 'boolean') throw new RemoteError('INVALID_ARGUMENT', 'runSteadyState: temperatures must be true or false');
    options.temperatures = value.temperatures;
  }
  return options;
}

/** loadCircuit and saveCircuit. */
function circuitMethods(session: RemoteOperations): RmiMethod[] {
  return [
    method('loadCircuit', 'loadCircuit(path: string) → struct', `Reads a circuit file (.ipes, SPICE deck or JSON netlist) under SIM_RMI_ROOT and makes it the loaded circuit; parameter changes and results are cleared. Returns {path, format, components: [names], scopes: [names], globals: {name: value}, warnings: [text]}. Faults: PATH_OUTSIDE_ROOT (3), FILE_NOT_FOUND (4), CIRCUIT_INVALID (5), INVALID_ARGUMENT (9), INVALID_PARAMS (-32602).`, async (p) => {
      argumentCount('loadCircuit', p, 1);
      const summary = await session.loadCircuit(stringArg('loadCircuit', p, 0, 'path'));
      return { ...summary };
    }),
    method('saveCircuit', 'saveCircuit(path: string) → string', `Writes the loaded circuit with its parameter changes under SIM_RMI_ROOT; the format follows the extension (.ipes, .json, .cir/.sp/.net/.spice). Returns the absolute path written. Faults: NO_CIRCUIT (1), PATH_OUTSIDE_ROOT (3), INVALID_ARGUMENT (9), INVALID_PARAMS (-32602).`, async (p) => {
      argumentCount('saveCircuit', p, 1);
      return session.saveCircuit(stringArg('saveCircuit', p, 0, 'path'));
    }),
  ];
}

/** runSimulation, runSteadyState, stopSimulation and resetSimulation. */
function runMethods(session: RemoteOperations): RmiMethod[] {
  return [
    method('runSimulation', 'runSimulation() → string', `Runs the loaded circuit to its end time as a simulation of the service (listed by GET /api/v1/simulations, progress on its streams) and blocks until it ends. Returns the simulation id. Faults: NO_CIRCUIT (1), BUSY (10, a run is going on), CANCELLED (11, stopSimulation() was called or the simulation was cancelled over HTTP), SIMULATION_FAILED (12, the engine's error), INVALID_PARAMS (-32602).`, async (p) => {
      argumentCount('runSimulation', p, 0);
      return session.runSimulation();
    }),
    method('runSteadyState', 'runSteadyState([options: struct]) → string', `Runs the periodic steady-state analysis of the loaded circuit (docs/steady-state.md) as a simulation of the service and blocks until it ends: the last run is then one settled period (getMeasurement, getWaveform and exportData read it). options: {period, tolerance, maxIterations, maxPeriods, temperatures, initPeriods, perturbation, jacobian ("fast" | "full")}, each optional. Returns the simulation id. Faults: NO_CIRCUIT (1), INVALID_ARGUMENT (9, a bad option), BUSY (10), CANCELLED (11), SIMULATION_FAILED (12, the engine's error, e.g. STEADY_STATE_UNSUPPORTED for a circuit without periodic sources), INVALID_PARAMS (-32602).`, async (p) => {
      argumentCount('runSteadyState', p, 0, 1);
      return session.runSteadyState(steadyOptions(p[0]));
    }),
    method('stopSimulation', 'stopSimulation() → boolean', `Stops the run in progress (the blocked runSimulation() then answers the CANCELLED fault). Returns true when a run was stopped, false when none was running. ${F.none}`, (p) => {
      argumentCount('stopSimulation', p, 0);
      return session.stopSimulation();
    }),
    method('resetSimulation', 'resetSimulation() → boolean', `Stops a run in progress, forgets the last result and every parameter change since loadCircuit. Returns true. ${F.none}`, (p) => {
      argumentCount('resetSimulation', p, 0);
      session.resetSimulation();
      return true;
    }),
  ];
}

/** The parameters of components and the global parameters. */
function parameterMethods(session: RemoteOperations): RmiMethod[] {
  return [
    method('setParameter', 'setParameter(component: string, param: string, value: double) → boolean', `Sets a numeric parameter of a component of the loaded circuit (setParameter("R.1", "R", 10)); names match exactly or case-insensitively when unique; a name the component does not have may be a GeckoCIRCUITS short name (uDC, d, f, iL(0), ...). A value outside the parameter's range (a negative resistance) is refused now with INVALID_ARGUMENT. Returns true. ${F.component}`, (p) => {
      argumentCount('setParameter', p, 3);
      setNamedParameter(session, stringArg('setParameter', p, 0, 'component'), stringArg('setParameter', p, 1, 'param'), numberArg('setParameter', p, 2, 'value'));
      return true;
    }),
    method('getParameter', 'getParameter(component: string, param: string) → double | string', `A parameter of a component of the loaded circuit (netlist name or GeckoCIRCUITS short name): a number ($global references resolved), or text for non-numeric parameters. ${F.component}`, (p) => {
      argumentCount('getParameter', p, 2);
      return getNamedParameter(session, stringArg('getParameter', p, 0, 'component'), stringArg('getParameter', p, 1, 'param'));
    }),
    method('setGlobalParameter', 'setGlobalParameter(name: string, value: double) → boolean', `Sets a global parameter ($name, with or without the $) of the loaded circuit. Returns true. Faults: NO_CIRCUIT (1), UNKNOWN_PARAMETER (7), INVALID_ARGUMENT (9), INVALID_PARAMS (-32602).`, (p) => {
      argumentCount('setGlobalParameter', p, 2);
      session.setGlobalParameter(stringArg('setGlobalParameter', p, 0, 'name'), numberArg('setGlobalParameter', p, 1, 'value'));
      return true;
    }),
    method('getGlobalParameter', 'getGlobalParameter(name: string) → double', `A global parameter of the loaded circuit. Faults: NO_CIRCUIT (1), UNKNOWN_PARAMETER (7), INVALID_PARAMS (-32602).`, (p) => {
      argumentCount('getGlobalParameter', p, 1);
      return session.getGlobalParameter(stringArg('getGlobalParameter', p, 0, 'name'));
    }),
  ];
}

/** What the last completed run gives: measurements, waveforms, exported data. */
function resultMethods(session: RemoteOperations): RmiMethod[] {
  return [
    method('getMeasurement', 'getMeasurement(scope: string, channel: string) → double', `A measurement of the last completed run over its measurement window: channel "ch1_avg", "ch1_rms", "ch1_min" or "ch1_max" (getMeasurement("SCOPE.1", "ch1_avg")). ${F.result}`, (p) => {
      argumentCount('getMeasurement', p, 2);
      return session.getMeasurement(stringArg('getMeasurement', p, 0, 'scope'), stringArg('getMeasurement', p, 1, 'channel'));
    }),
    method('getWaveform', 'getWaveform(scope: string, channel: string) → struct', `The samples of a scope channel ("ch1", "1" or its label) of the last completed run. Returns {time: [double], values: [double]} of equal length. ${F.result}`, (p) => {
      argumentCount('getWaveform', p, 2);
      const waveform = session.getWaveform(stringArg('getWaveform', p, 0, 'scope'), stringArg('getWaveform', p, 1, 'channel'));
      return { time: Float64Array.from(waveform.time), values: Float64Array.from(waveform.values) };
    }),
    method('exportData', 'exportData(path: string, format: string) → string', `Writes the last completed run's waveforms under SIM_RMI_ROOT as "csv", "json" or "parquet". Returns the absolute path written. Faults: NO_RESULT (2), PATH_OUTSIDE_ROOT (3), INVALID_ARGUMENT (9, unknown format), INVALID_PARAMS (-32602).`, async (p) => {
      argumentCount('exportData', p, 2);
      return session.exportData(stringArg('exportData', p, 0, 'path'), stringArg('exportData', p, 1, 'format') as RemoteExportFormat);
    }),
  ];
}

/** The time step, the timing of the signal sources and the end time. */
function settingMethods(session: RemoteOperations): RmiMethod[] {
  return [
    method('getTimeStep', 'getTimeStep() → double', `The fixed time step [s] of the loaded circuit. ${F.circuit}`, (p) => {
      argumentCount('getTimeStep', p, 0);
      return session.getTimeStep();
    }),
    method('setTimeStep', 'setTimeStep(dt: double) → boolean', `Sets the fixed time step [s] of the loaded circuit. Returns true. Faults: NO_CIRCUIT (1), INVALID_ARGUMENT (9), INVALID_PARAMS (-32602).`, (p) => {
      argumentCount('setTimeStep', p, 1);
      session.setTimeStep(numberArg('setTimeStep', p, 0, 'dt'));
      return true;
    }),
    method('getTiming', 'getTiming() → string', `How the loaded circuit's rectangle and triangle signal sources are discretised: "gecko" (stepped as GeckoCIRCUITS steps them, with its steps; the default of .ipes models) or "exact". ${F.circuit}`, (p) => {
      argumentCount('getTiming', p, 0);
      return session.getTiming();
    }),
    method('setTiming', 'setTiming(timing: string) → boolean', `Sets the discretisation of the signal sources: "gecko" or "exact". Returns true. Faults: NO_CIRCUIT (1), INVALID_ARGUMENT (9), INVALID_PARAMS (-32602).`, (p) => {
      argumentCount('setTiming', p, 1);
      session.setTiming(stringArg('setTiming', p, 0, 'timing'));
      return true;
    }),
    method('getEndTime', 'getEndTime() → double', `The end time [s] of the loaded circuit. ${F.circuit}`, (p) => {
      argumentCount('getEndTime', p, 0);
      return session.getEndTime();
    }),
    method('setEndTime', 'setEndTime(tEnd: double) → boolean', `Sets the end time [s] of the loaded circuit. Returns true. Faults: NO_CIRCUIT (1), INVALID_ARGUMENT (9), INVALID_PARAMS (-32602).`, (p) => {
      argumentCount('setEndTime', p, 1);
      session.setEndTime(numberArg('setEndTime', p, 0, 'tEnd'));
      return true;
    }),
  ];
}

export function remoteMethods(session: RemoteOperations): RmiMethod[] {
  return [...circuitMethods(session), ...runMethods(session), ...parameterMethods(session), ...resultMethods(session), ...settingMethods(session)];
}
