// The runs of the PLECS dialect: each option struct of plecs.simulate / plecs.analyze (or each of a
// list) becomes a simulation of the service's job runtime, so the runs are listed, cached and spread
// over the worker pool; the call blocks until they end and answers {Time, Values} per run.
import type { ServiceRuntime } from '../jobs/runtime.js';
import type { SubmitInput } from '../jobs/scheduler.js';
import type { StoredResult } from '../jobs/types.js';
import { SIMULATION_OWNER } from '../simulations/SimulationService.js';
import type { StoredRequest } from '../simulations/SimulationRequest.js';
import { REMOTE_FAULT_CODES } from './faults.js';
import { invalidParams } from './methods.js';
import { channelOrder, planRun, type PlecsModel, type PlecsRun } from './plecs-models.js';
import { awaitTask } from './runtime-runs.js';
import { XmlRpcFault, type XmlRpcStruct, type XmlRpcValue } from '../xmlrpc/values.js';

export interface PlecsRunContext {
  runtime: ServiceRuntime;
  maxSteps: number;
}

/** `{Time, Values}` of a stored result, rows in channelOrder; a steady-state run adds `SteadyState` (its report). */
function plainResult(netlist: PlecsRun['netlist'], result: StoredResult): XmlRpcStruct {
  const rows = channelOrder(netlist).map((key) => result.signals[key]).filter((row): row is Float64Array => row !== undefined);
  const answer: XmlRpcStruct = { Time: result.time, Values: rows };
  if (result.steady) answer.SteadyState = { ...result.steady };
  return answer;
}

/** Runs the option struct (or each of a list) as tasks of the runtime; plecs.analyze as steady-state runs. */
export async function runModel(context: PlecsRunContext, method: 'plecs.simulate' | 'plecs.analyze', m: PlecsModel, options: XmlRpcValue | undefined): Promise<XmlRpcValue> {
  const list = Array.isArray(options);
  const items: XmlRpcValue[] = list ? options : [options ?? null];
  if (list && items.length === 0) throw invalidParams(method, 'the list of option structs is empty');
  const plans: (PlecsRun | XmlRpcFault)[] = items.map((item, i) => {
    try {
      return planRun(m, item, context.maxSteps, list ? `opts[${i}]` : 'opts', method === 'plecs.analyze');
    } catch (error) {
      if (!list || !(error instanceof XmlRpcFault)) throw error;
      return error;
    }
  });
  const inputs: SubmitInput[] = [];
  for (const plan of plans) {
    if (plan instanceof XmlRpcFault) continue;
    const request: StoredRequest = { circuitFile: `XML-RPC ${method} ${m.path}`, circuitName: m.name, parameters: plan.parameters, simulationTime: plan.netlist.settings.tEnd, timeStep: plan.netlist.settings.dt };
    if (plan.steady) request.steady = plan.steady;
    const spec = { netlist: { ...plan.netlist, name: m.name }, parameters: plan.parameters, ...(plan.steady ? { steady: plan.steady } : {}) };
    inputs.push({ owner: SIMULATION_OWNER, priority: 'NORMAL', spec, request, modelName: m.path });
  }
  // All runs are queued at once (QUEUE_FULL for the set): the pool runs them side by side.
  const tasks = await context.runtime.scheduler.submitMany(inputs);
  let next = 0;
  const answers = await Promise.all(
    plans.map(async (plan): Promise<XmlRpcValue> => {
      if (plan instanceof XmlRpcFault) return plan.message;
      const task = tasks[next++];
      try {
        const { result } = await awaitTask(context.runtime, task, { timeoutSeconds: plan.timeoutSeconds });
        return plainResult(plan.netlist, result);
      } catch (error) {
        if (!list) throw new XmlRpcFault(REMOTE_FAULT_CODES.SIMULATION_FAILED, `SIMULATION_FAILED: ${method}: simulation ${task.id}: ${(error as Error).message}`);
        return `simulation ${task.id}: ${(error as Error).message}`;
      }
    }),
  );
  return list ? answers : answers[0];
}
