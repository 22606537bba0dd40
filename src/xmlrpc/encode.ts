// XML-RPC messages as text: values, method calls (client side), responses and faults (server side).
// Integers in the 32-bit range are written as <int>, larger safe integers as <i8>, every other
// number and every element of a Float64Array as <double>; NaN and infinities as Python writes them.
import { isStruct, type XmlRpcValue } from './values.js';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', '\r': '&#13;' };

export function escapeXml(text: string): string {
  return text.replace(/[&<>"\r]/g, (c) => ESCAPES[c]);
}

function double(value: number): string {
  if (Number.isNaN(value)) return '<double>nan</double>';
  if (value === Infinity) return '<double>inf</double>';
  if (value === -Infinity) return '<double>-inf</double>';
  return `<double>${String(value)}</double>`;
}

function number(value: number): string {
  if (Number.isInteger(value) && value >= -(2 ** 31) && value < 2 ** 31) return `<int>${value}</int>`;
  if (Number.isSafeInteger(value)) return `<i8>${value}</i8>`;
  return double(value);
}

function dateTime(date: Date): string {
  const iso = date.toISOString(); // 2026-01-01T12:30:00.000Z
  return `${iso.slice(0, 4)}${iso.slice(5, 7)}${iso.slice(8, 10)}T${iso.slice(11, 19)}`;
}

function encodeInto(value: XmlRpcValue, out: string[]): void {
  if (value === null || value === undefined) out.push('<value><nil/></value>');
  else if (typeof value === 'number') out.push(`<value>${number(value)}</value>`);
  else if (typeof value === 'boolean') out.push(`<value><boolean>${value ? 1 : 0}</boolean></value>`);
  else if (typeof value === 'string') out.push(`<value><string>${escapeXml(value)}</string></value>`);
  else if (value instanceof Date) out.push(`<value><dateTime.iso8601>${dateTime(value)}</dateTime.iso8601></value>`);
  else if (Buffer.isBuffer(value)) out.push(`<value><base64>${value.toString('base64')}</base64></value>`);
  else if (value instanceof Float64Array) {
    out.push('<value><array><data>');
    for (const v of value) out.push(`<value>${double(v)}</value>`);
    out.push('</data></array></value>');
  } else if (Array.isArray(value)) {
    out.push('<value><array><data>');
    for (const v of value) encodeInto(v, out);
    out.push('</data></array></value>');
  } else if (isStruct(value)) {
    out.push('<value><struct>');
    for (const [name, v] of Object.entries(value)) {
      if (v === undefined) continue;
      out.push(`<member><name>${escapeXml(name)}</name>`);
      encodeInto(v, out);
      out.push('</member>');
    }
    out.push('</struct></value>');
  }
}

export function encodeValue(value: XmlRpcValue): string {
  const out: string[] = [];
  encodeInto(value, out);
  return out.join('');
}

export function encodeMethodCall(methodName: string, params: XmlRpcValue[]): string {
  const out = ['<?xml version="1.0"?>\n<methodCall><methodName>', escapeXml(methodName), '</methodName><params>'];
  for (const p of params) {
    out.push('<param>');
    encodeInto(p, out);
    out.push('</param>');
  }
  out.push('</params></methodCall>\n');
  return out.join('');
}

export function encodeResponse(value: XmlRpcValue): string {
  const out = ['<?xml version="1.0"?>\n<methodResponse><params><param>'];
  encodeInto(value, out);
  out.push('</param></params></methodResponse>\n');
  return out.join('');
}

export function encodeFault(faultCode: number, faultString: string): string {
  return `<?xml version="1.0"?>\n<methodResponse><fault>${encodeValue({ faultCode, faultString })}</fault></methodResponse>\n`;
}
