// The method table of the XML-RPC server: each method's name, signature, help text (returned by
// system.methodHelp and listed in docs/remote-control.md) and implementation, plus the argument checks the
// implementations share. A wrong argument is an INVALID_PARAMS fault naming the method, the
// argument and what was expected.
import { FAULT, XmlRpcFault, isStruct, typeName, type XmlRpcStruct, type XmlRpcValue } from '../xmlrpc/values.js';

export interface RmiMethod {
  name: string;
  /** `name(arg: type, ...) → result`, as system.methodHelp shows it. */
  signature: string;
  /** What it does, what it returns and its faults. */
  help: string;
  call(params: XmlRpcValue[]): Promise<XmlRpcValue> | XmlRpcValue;
}

export type MethodTable = Map<string, RmiMethod>;

export function methodTable(...groups: RmiMethod[][]): MethodTable {
  const table: MethodTable = new Map();
  for (const method of groups.flat()) table.set(method.name, method);
  return table;
}

function invalidParams(method: string, message: string): XmlRpcFault {
  return new XmlRpcFault(FAULT.INVALID_PARAMS, `${method}: ${message}`);
}

/** Checks the number of arguments (`optional` of them may be left out; trailing nils count as left out). */
export function argumentCount(method: string, params: XmlRpcValue[], required: number, optional = 0): void {
  let count = params.length;
  while (count > required && params[count - 1] === null) count--;
  if (count < required || count > required + optional) {
    const expected = optional === 0 ? `${required}` : `${required} to ${required + optional}`;
    throw invalidParams(method, `expected ${expected} argument${required + optional === 1 ? '' : 's'}, got ${params.length}`);
  }
}

export function stringArg(method: string, params: XmlRpcValue[], index: number, name: string): string {
  const value = params[index];
  if (typeof value !== 'string') throw invalidParams(method, `argument ${index + 1} (${name}) must be a string, got ${typeName(value)}`);
  return value;
}

/** A number; a string holding one ("1e-3") is accepted, as PLECS evaluates strings. */
export function numberArg(method: string, params: XmlRpcValue[], index: number, name: string): number {
  const value = params[index];
  const number = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : Number.NaN;
  if (!Number.isFinite(number)) throw invalidParams(method, `argument ${index + 1} (${name}) must be a finite number, got ${typeName(value)}${typeof value === 'string' ? ` ${JSON.stringify(value.slice(0, 40))}` : ''}`);
  return number;
}

export function structArg(method: string, params: XmlRpcValue[], index: number, name: string): XmlRpcStruct {
  const value = params[index];
  if (!isStruct(value)) throw invalidParams(method, `argument ${index + 1} (${name}) must be a struct, got ${typeName(value)}`);
  return value;
}

export { invalidParams };
