// XML-RPC messages from element trees (xml-reader.ts): a <methodCall> into its method name and
// parameters (server side), a <methodResponse> into its value or fault (client side). Every
// departure from the XML-RPC specification is an XmlRpcFault naming the element and its line.
import type { XmlElement } from './xml-reader.js';
import { FAULT, XmlRpcFault, isStruct, type XmlRpcValue } from './values.js';

export interface MethodCall {
  methodName: string;
  params: XmlRpcValue[];
}

export type MethodResponse = { ok: true; value: XmlRpcValue } | { ok: false; faultCode: number; faultString: string };

function invalid(element: XmlElement, message: string): XmlRpcFault {
  return new XmlRpcFault(FAULT.INVALID_REQUEST, `line ${element.line}: ${message}`);
}

function only(element: XmlElement, name: string): XmlElement {
  const child = element.children.find((c) => c.name === name);
  if (!child) throw invalid(element, `<${element.name}> needs a <${name}> element`);
  return child;
}

function checkChildren(element: XmlElement, allowed: string[]): void {
  for (const child of element.children) {
    if (!allowed.includes(child.name)) throw invalid(child, `<${child.name}> is not allowed inside <${element.name}> (expected ${allowed.map((a) => `<${a}>`).join(' or ')})`);
  }
}

const INTEGER = /^[+-]?\d+$/;
const DOUBLE = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
const SPECIAL_DOUBLES: Record<string, number> = { nan: Number.NaN, inf: Infinity, '+inf': Infinity, '-inf': -Infinity, infinity: Infinity, '-infinity': -Infinity };
const DATE_TIME = /^(\d{4})-?(\d{2})-?(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d+)?(Z|[+-]\d{2}:?\d{2})?$/;
const BASE64 = /^[A-Za-z0-9+/=\s]*$/;

function integer(element: XmlElement, bits: 32 | 64): number {
  const text = element.text.trim();
  if (!INTEGER.test(text)) throw invalid(element, `<${element.name}> must hold an integer, got ${JSON.stringify(text.slice(0, 40))}`);
  const value = Number(text);
  const limit = bits === 32 ? 2 ** 31 : 2 ** 53;
  if (value < -limit || value >= limit) throw invalid(element, `<${element.name}> ${text} is out of range${bits === 64 ? ' (integers beyond ±2^53 lose precision)' : ''}`);
  return value;
}

function dateTime(element: XmlElement): Date {
  const text = element.text.trim();
  const m = DATE_TIME.exec(text);
  if (!m) throw invalid(element, `<dateTime.iso8601> must look like 20260101T12:30:00, got ${JSON.stringify(text.slice(0, 40))}`);
  const zone = m[8] === undefined || m[8] === 'Z' ? 'Z' : m[8].length === 5 ? `${m[8].slice(0, 3)}:${m[8].slice(3)}` : m[8];
  const date = new Date(`${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}${m[7] ?? ''}${zone}`);
  if (Number.isNaN(date.getTime())) throw invalid(element, `<dateTime.iso8601> ${text} is not a valid date`);
  return date;
}

/** The value of a <value> element. */
export function decodeValue(value: XmlElement): XmlRpcValue {
  if (value.name !== 'value') throw invalid(value, `expected <value>, got <${value.name}>`);
  if (value.children.length === 0) return value.text; // bare text is a string
  if (value.children.length > 1) throw invalid(value, '<value> must hold one typed element');
  const typed = value.children[0];
  switch (typed.name) {
    case 'int':
    case 'i4':
      return integer(typed, 32);
    case 'i8':
      return integer(typed, 64);
    case 'double': {
      const text = typed.text.trim();
      const special = SPECIAL_DOUBLES[text.toLowerCase()];
      if (special !== undefined) return special;
      if (!DOUBLE.test(text)) throw invalid(typed, `<double> must hold a number, got ${JSON.stringify(text.slice(0, 40))}`);
      return Number(text);
    }
    case 'boolean': {
      const text = typed.text.trim();
      if (text !== '0' && text !== '1') throw invalid(typed, `<boolean> must hold 0 or 1, got ${JSON.stringify(text.slice(0, 40))}`);
      return text === '1';
    }
    case 'string':
      return typed.text;
    case 'nil':
      if (typed.text.trim() !== '' || typed.children.length > 0) throw invalid(typed, '<nil/> must be empty');
      return null;
    case 'dateTime.iso8601':
      return dateTime(typed);
    case 'base64': {
      if (!BASE64.test(typed.text)) throw invalid(typed, '<base64> holds characters outside the base64 alphabet');
      return Buffer.from(typed.text.replace(/\s+/g, ''), 'base64');
    }
    case 'array': {
      checkChildren(typed, ['data']);
      const data = only(typed, 'data');
      checkChildren(data, ['value']);
      return data.children.map(decodeValue);
    }
    case 'struct': {
      checkChildren(typed, ['member']);
      const out: Record<string, XmlRpcValue> = {};
      for (const member of typed.children) {
        checkChildren(member, ['name', 'value']);
        const name = only(member, 'name').text;
        if (name === '__proto__') throw invalid(member, 'a struct member may not be named __proto__');
        out[name] = decodeValue(only(member, 'value'));
      }
      return out;
    }
    default:
      throw invalid(typed, `unknown value type <${typed.name}> (expected int, i4, i8, double, boolean, string, nil, dateTime.iso8601, base64, array or struct)`);
  }
}

function decodeParams(element: XmlElement | undefined): XmlRpcValue[] {
  if (!element) return [];
  checkChildren(element, ['param']);
  return element.children.map((param) => {
    checkChildren(param, ['value']);
    return decodeValue(only(param, 'value'));
  });
}

export function decodeMethodCall(root: XmlElement): MethodCall {
  if (root.name !== 'methodCall') throw invalid(root, `expected <methodCall> as the root element, got <${root.name}>`);
  checkChildren(root, ['methodName', 'params']);
  const methodName = only(root, 'methodName').text.trim();
  if (!/^[A-Za-z0-9_.:/]+$/.test(methodName)) throw invalid(root, `<methodName> must be a name of letters, digits, _ . : /, got ${JSON.stringify(methodName.slice(0, 60))}`);
  return { methodName, params: decodeParams(root.children.find((c) => c.name === 'params')) };
}

export function decodeMethodResponse(root: XmlElement): MethodResponse {
  if (root.name !== 'methodResponse') throw invalid(root, `expected <methodResponse> as the root element, got <${root.name}>`);
  checkChildren(root, ['params', 'fault']);
  const fault = root.children.find((c) => c.name === 'fault');
  if (fault) {
    checkChildren(fault, ['value']);
    const value = decodeValue(only(fault, 'value'));
    if (!isStruct(value) || typeof value.faultCode !== 'number' || typeof value.faultString !== 'string') throw invalid(fault, '<fault> must hold a struct with faultCode (int) and faultString (string)');
    return { ok: false, faultCode: value.faultCode, faultString: value.faultString };
  }
  const params = decodeParams(root.children.find((c) => c.name === 'params'));
  if (params.length !== 1) throw invalid(root, `a <methodResponse> carries exactly one <param>, got ${params.length}`);
  return { ok: true, value: params[0] };
}
