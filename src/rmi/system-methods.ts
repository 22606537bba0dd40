// The introspection methods every XML-RPC client may call: system.listMethods (pyplecs's liveness
// probe) and system.methodHelp (the signature, return value and faults of a method).
import { FAULT_TABLE } from './faults.js';
import { argumentCount, stringArg, type MethodTable, type RmiMethod } from './methods.js';
import { FAULT, XmlRpcFault } from './values.js';

export function systemMethods(table: () => MethodTable): RmiMethod[] {
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
  ];
}
