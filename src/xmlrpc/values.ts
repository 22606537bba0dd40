// XML-RPC values as JavaScript sees them, and the fault that carries an error back to the caller.
// Decoding: <int>/<i4>/<i8>/<double> → number, <boolean> → boolean, <string> (or bare text) →
// string, <nil/> → null, <dateTime.iso8601> → Date, <base64> → Buffer, <array> → array,
// <struct> → plain object. Encoding also takes Float64Array (always written as <double>s).
import { PesimError } from '../errors/pesim-error.js';

export type XmlRpcValue =
  | null
  | boolean
  | number
  | string
  | Date
  | Buffer
  | Float64Array
  | XmlRpcValue[]
  | { [member: string]: XmlRpcValue };

export type XmlRpcStruct = { [member: string]: XmlRpcValue };

/** Fault codes of this server (XML-RPC leaves them to the application; the spec-for-faults ranges are followed for transport errors). */
export const FAULT = {
  /** The request is not well-formed XML, or uses a DTD. */
  PARSE_ERROR: -32700,
  /** Well-formed XML that is not an XML-RPC method call (or too deep, too large). */
  INVALID_REQUEST: -32600,
  METHOD_NOT_FOUND: -32601,
  /** Wrong number or types of arguments. */
  INVALID_PARAMS: -32602,
  INTERNAL_ERROR: -32603,
  /** The API key is missing or wrong. */
  UNAUTHORIZED: 401,
  /** The body exceeds the size limit. */
  TOO_LARGE: 413,
  /** The job runtime refused new runs: too many unfinished simulations. */
  QUEUE_FULL: 503,
} as const;

/** A fault answered by an XML-RPC method (code XMLRPC_FAULT; `faultCode` the protocol's number). */
export class XmlRpcFault extends PesimError {
  readonly faultCode: number;

  constructor(faultCode: number, faultString: string) {
    super('XMLRPC_FAULT', faultString);
    this.faultCode = faultCode;
  }
}

export function isStruct(value: XmlRpcValue | undefined): value is XmlRpcStruct {
  return value !== null && typeof value === 'object' && !Array.isArray(value) && !(value instanceof Date) && !Buffer.isBuffer(value) && !(value instanceof Float64Array);
}

/** A short description of a value's XML-RPC type, for error messages. */
export function typeName(value: XmlRpcValue | undefined): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'nil';
  if (typeof value === 'number') return Number.isInteger(value) ? 'int' : 'double';
  if (typeof value === 'boolean') return 'boolean';
  if (typeof value === 'string') return 'string';
  if (value instanceof Date) return 'dateTime';
  if (Buffer.isBuffer(value)) return 'base64';
  if (Array.isArray(value) || value instanceof Float64Array) return 'array';
  return 'struct';
}
