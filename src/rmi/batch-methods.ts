// The results table of a batch over XML-RPC: getBatchResults(batchId) answers a list with one
// struct per run, in batch order (PLECS-style, as plecs.simulate answers a list of option
// structs), the same rows as GET /api/v1/simulations/batch/{batchId}/results. A page of it with
// offset and limit, so that a client can read a large batch in parts.
import { batchTable } from '../jobs/batch-table.js';
import type { ServiceRuntime } from '../jobs/runtime.js';
import { SIMULATION_OWNER } from '../simulations/SimulationService.js';
import { FAULT, XmlRpcFault, type XmlRpcStruct, type XmlRpcValue } from '../xmlrpc/values.js';
import { argumentCount, invalidParams, numberArg, stringArg, type RmiMethod } from './methods.js';

/** Rows of one answer at most (a page; the client asks for the next with offset). */
export const MAX_ROWS = 100_000;

export function batchMethods(runtime: ServiceRuntime): RmiMethod[] {
  const results = async (params: XmlRpcValue[]): Promise<XmlRpcValue> => {
    argumentCount('getBatchResults', params, 1, 2);
    const batchId = stringArg('getBatchResults', params, 0, 'batchId');
    const offset = params[1] === undefined || params[1] === null ? 0 : numberArg('getBatchResults', params, 1, 'offset');
    const limit = params[2] === undefined || params[2] === null ? MAX_ROWS : numberArg('getBatchResults', params, 2, 'limit');
    if (!Number.isInteger(offset) || offset < 0) throw invalidParams('getBatchResults', `argument 2 (offset) must be a non-negative integer, got ${offset}`);
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_ROWS) throw invalidParams('getBatchResults', `argument 3 (limit) must be an integer from 1 to ${MAX_ROWS}, got ${limit}`);
    const header = runtime.batchResults.header(batchId);
    if (!header || header.owner !== SIMULATION_OWNER) throw new XmlRpcFault(FAULT.INVALID_PARAMS, `getBatchResults: no batch ${JSON.stringify(batchId)} (POST /api/v1/simulations/batch names its batchId)`);
    const table = await batchTable(runtime.batchResults, batchId, {
      names: { run: 'run', id: 'simulationId', status: 'status', duration: 'durationMs', error: 'errorMessage' },
      head: { batchId },
      readMeasurements: async (taskId) => (await runtime.scheduler.result(taskId)).measurements,
    });
    const rows: XmlRpcStruct[] = [];
    for await (const row of table.rows) {
      if (row.run < offset) continue;
      if (rows.length === limit) break;
      rows.push({
        run: row.run,
        simulationId: row.id,
        status: row.status,
        parameters: { ...row.parameters },
        measurements: { ...row.measurements },
        durationMs: row.durationMs,
        errorMessage: row.errorMessage,
      });
    }
    return rows;
  };
  return [
    {
      name: 'getBatchResults',
      signature: 'getBatchResults(batchId: string[, offset: int, limit: int]) → [struct]',
      help: `The results table of a batch of the service (POST /api/v1/simulations/batch): one struct per run in batch order, {run, simulationId, status, parameters: {name: value}, measurements: {"SCOPE.1.ch1_avg": value, …}, durationMs, errorMessage} (durationMs and errorMessage nil when they do not apply; measurements empty unless completed). offset (default 0) and limit (1–${MAX_ROWS}, default ${MAX_ROWS}) take a page. Faults: INVALID_PARAMS (-32602: unknown batch, bad offset or limit).`,
      call: results,
    },
  ];
}
