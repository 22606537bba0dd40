// The introspection methods every XML-RPC client may call: system.listMethods (pyplecs's liveness
// probe), system.methodHelp (the signature, return value and faults of a method) and
// system.multicall (several calls in one request, as Python's xmlrpc.client.MultiCall sends them).
import { FAULT_TABLE, toFault } from './faults.js';
import { argumentCount, invalidParams, stringArg, type MethodTable, type RmiMethod } from './methods.js';
import { FAULT, XmlRpcFault, isStruct, type XmlRpcValue } from '../xmlrpc/values.js';

/** Most calls in one system.multicall. */
const MAX_MULTICALL = 1000;

export function systemMethods(table: () => MethodTable, log: (error: unknown) => void): RmiMethod[] {
  return [
    {
      name: 'system.listMethods',
      signature: 'system.listMethods() → [string]',
      help: 'The names of every method of this server, sorted.',
      call(p) {
        argumentCount('system.listMethods', p, 0);
        return [...table().keys()].sort();
      },
    },
    {
      name: 'system.methodHelp',
      signature: 'system.methodHelp(name: string) → string',
      help: `The signature, return value and faults of a method. Fault codes: ${FAULT_TABLE.join(', ')}. Faults: METHOD_NOT_FOUND (-32601).`,
      call(p) {
        argumentCount('system.methodHelp', p, 1);
        const name = stringArg('system.methodHelp', p, 0, 'name');
        const method = table().get(name);
        if (!method) throw new XmlRpcFault(FAULT.METHOD_NOT_FOUND, `METHOD_NOT_FOUND: no method ${JSON.stringify(name)}; system.listMethods() lists them`);
        return `${method.signature}\n${method.help}`;
      },
    },
    {
      name: 'system.multicall',
      signature: 'system.multicall(calls: [{methodName: string, params: [any]}]) → [[result] | {faultCode, faultString}]',
      help: `Runs the calls one after the other; each answer is a one-element array with the result, or a fault struct for a call that failed. At most ${MAX_MULTICALL} calls; system.multicall itself cannot be nested. Faults: INVALID_PARAMS (-32602).`,
      async call(p) {
        argumentCount('system.multicall', p, 1);
        const calls = p[0];
        if (!Array.isArray(calls)) throw invalidParams('system.multicall', 'argument 1 (calls) must be an array of {methodName, params}');
        if (calls.length > MAX_MULTICALL) throw invalidParams('system.multicall', `at most ${MAX_MULTICALL} calls, got ${calls.length}`);
        const answers: XmlRpcValue[] = [];
        for (const [index, call] of calls.entries()) {
          try {
            if (!isStruct(call) || typeof call.methodName !== 'string' || !Array.isArray(call.params)) throw invalidParams('system.multicall', `calls[${index}] must be {methodName: string, params: array}`);
            if (call.methodName === 'system.multicall') throw invalidParams('system.multicall', `calls[${index}]: system.multicall cannot be nested`);
            const method = table().get(call.methodName);
            if (!method) throw new XmlRpcFault(FAULT.METHOD_NOT_FOUND, `METHOD_NOT_FOUND: no method ${JSON.stringify(call.methodName)}; system.listMethods() lists them`);
            answers.push([(await method.call(call.params)) ?? true]);
          } catch (error) {
            const fault = toFault(error, log);
            answers.push({ faultCode: fault.faultCode, faultString: fault.message });
          }
        }
        return answers;
      },
    },
  ];
}
