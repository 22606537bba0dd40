// The XML-RPC codec against Python's xmlrpc.client: every value type Python writes (nil, int,
// i8-sized integers, double, boolean, string with markup characters, base64, dateTime, arrays,
// structs, nesting) decodes to the expected JavaScript values, and what we encode Python reads
// back equal. Also the reader's refusals: DOCTYPE, depth, malformed XML, non-XML-RPC documents.
import { execFileSync } from 'node:child_process';
import { expect } from 'chai';
import { decodeMethodCall, decodeMethodResponse } from '../../../src/xmlrpc/decode.js';
import { encodeFault, encodeMethodCall, encodeResponse } from '../../../src/xmlrpc/encode.js';
import { readXml } from '../../../src/xmlrpc/xml-reader.js';
import { XmlRpcFault, type XmlRpcValue } from '../../../src/xmlrpc/values.js';

function python(code: string, input = ''): string {
  return execFileSync('python3', ['-c', code], { input, encoding: 'utf8', timeout: 30_000 });
}

const LIMITS = { maxDepth: 64 };

function faultOf(fn: () => unknown): XmlRpcFault {
  try {
    fn();
  } catch (error) {
    if (error instanceof XmlRpcFault) return error;
    throw error;
  }
  throw new Error('expected a fault');
}

describe('XML-RPC codec with Python\'s xmlrpc.client', () => {
  it('decodes every type Python sends', () => {
    const xml = python(`
import xmlrpc.client as x, datetime, sys
params = (None, 7, 2**31 - 1, -1.5, True, "a<b>&c \u00e9", x.Binary(b"\\x00\\x01hi"), x.DateTime(datetime.datetime(2026, 1, 2, 3, 4, 5)),
          [1, [2, [3, {"k": None}]]], {"nested": {"list": [1.0, "two"]}, "empty": {}}, [], float("inf"))
sys.stdout.write(x.dumps(params, methodname="echo", allow_none=True))
`);
    const call = decodeMethodCall(readXml(xml, LIMITS));
    expect(call.methodName).to.equal('echo');
    const p = call.params;
    expect(p[0]).to.equal(null);
    expect(p[1]).to.equal(7);
    expect(p[2]).to.equal(2 ** 31 - 1);
    expect(p[3]).to.equal(-1.5);
    expect(p[4]).to.equal(true);
    expect(p[5]).to.equal('a<b>&c \u00e9');
    expect(Buffer.isBuffer(p[6]) && (p[6] as Buffer).equals(Buffer.from([0, 1, 0x68, 0x69]))).to.equal(true);
    expect((p[7] as Date).toISOString()).to.equal('2026-01-02T03:04:05.000Z');
    expect(p[8]).to.deep.equal([1, [2, [3, { k: null }]]]);
    expect(p[9]).to.deep.equal({ nested: { list: [1, 'two'] }, empty: {} });
    expect(p[10]).to.deep.equal([]);
    expect(p[11]).to.equal(Infinity);
    // Python reads <i8> but never writes it; other clients (Apache XML-RPC) do.
    const i8 = '<methodCall><methodName>m</methodName><params><param><value><i8>-1099511627776</i8></value></param><param><value>bare</value></param></params></methodCall>';
    expect(decodeMethodCall(readXml(i8, LIMITS)).params).to.deep.equal([-(2 ** 40), 'bare']);
  });

  it('encodes values Python reads back equal, Float64Array as doubles', () => {
    const value: XmlRpcValue = {
      nil: null, int: -3, big: 2 ** 40, double: 0.1, yes: false, text: 'x < y && "q"\r\n',
      bytes: Buffer.from('hello'), date: new Date('2026-03-04T05:06:07Z'), rows: [Float64Array.from([1, 2.5]), ['a', { b: 1 }]],
    };
    const printed = python(`
import xmlrpc.client as x, sys, json, base64
(v,), _ = x.loads(sys.stdin.read(), use_builtin_types=True)
v["bytes"] = base64.b64encode(v["bytes"]).decode()
v["date"] = v["date"].isoformat()
v["rows0types"] = [type(a).__name__ for a in v["rows"][0]]
print(json.dumps(v))
`, encodeResponse(value));
    const back = JSON.parse(printed) as Record<string, unknown>;
    expect(back).to.deep.equal({
      nil: null, int: -3, big: 2 ** 40, double: 0.1, yes: false, text: 'x < y && "q"\r\n',
      bytes: Buffer.from('hello').toString('base64'), date: '2026-03-04T05:06:07', rows: [[1, 2.5], ['a', { b: 1 }]], rows0types: ['float', 'float'],
    });
    const fault = python(`
import xmlrpc.client as x, sys
try:
    x.loads(sys.stdin.read())
except x.Fault as f:
    print(f.faultCode, f.faultString)
`, encodeFault(12, 'SIMULATION_FAILED: <bad> & worse'));
    expect(fault.trim()).to.equal('12 SIMULATION_FAILED: <bad> & worse');
  });

  it('reads its own method calls and responses (the client side)', () => {
    const call = decodeMethodCall(readXml(encodeMethodCall('plecs.simulate', ['buck', [{ ModelVars: { 'R.1.R': 2 } }]]), LIMITS));
    expect(call).to.deep.equal({ methodName: 'plecs.simulate', params: ['buck', [{ ModelVars: { 'R.1.R': 2 } }]] });
    expect(decodeMethodResponse(readXml(encodeFault(3, 'nope'), LIMITS))).to.deep.equal({ ok: false, faultCode: 3, faultString: 'nope' });
    const ok = decodeMethodResponse(readXml(encodeResponse({ Time: Float64Array.from([0, 1]) }), LIMITS));
    expect(ok).to.deep.equal({ ok: true, value: { Time: [0, 1] } });
  });

  it('refuses DOCTYPEs, entities, deep nesting, malformed XML and other documents with clear faults', () => {
    const laughs = '<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;">]><methodCall><methodName>&lol2;</methodName></methodCall>';
    expect(faultOf(() => readXml(laughs, LIMITS)).message).to.match(/DOCTYPE is not accepted/);
    const undefinedEntity = '<methodCall><methodName>&xxe;</methodName></methodCall>';
    expect(faultOf(() => readXml(undefinedEntity, LIMITS)).message).to.match(/malformed XML/);
    const deep = `<methodCall><methodName>m</methodName><params><param>${'<value><array><data>'.repeat(40)}${'</data></array></value>'.repeat(40)}</param></params></methodCall>`;
    const depth = faultOf(() => readXml(deep, LIMITS));
    expect(depth.faultCode).to.equal(-32600);
    expect(depth.message).to.match(/nested deeper than 64/);
    expect(faultOf(() => readXml('<methodCall><methodName>m</methodName>', LIMITS)).faultCode).to.equal(-32700);
    expect(faultOf(() => readXml('<a></b>', LIMITS)).message).to.match(/malformed XML/);
    expect(faultOf(() => decodeMethodCall(readXml('<html><body/></html>', LIMITS))).message).to.match(/expected <methodCall>/);
    const badInt = '<methodCall><methodName>m</methodName><params><param><value><int>12x</int></value></param></params></methodCall>';
    expect(faultOf(() => decodeMethodCall(readXml(badInt, LIMITS))).message).to.match(/line 1: <int> must hold an integer, got "12x"/);
    const unknownType = '<methodCall><methodName>m</methodName><params><param><value><float>1</float></value></param></params></methodCall>';
    expect(faultOf(() => decodeMethodCall(readXml(unknownType, LIMITS))).message).to.match(/unknown value type <float>/);
    const proto = '<methodCall><methodName>m</methodName><params><param><value><struct><member><name>__proto__</name><value>1</value></member></struct></value></param></params></methodCall>';
    expect(faultOf(() => decodeMethodCall(readXml(proto, LIMITS))).message).to.match(/__proto__/);
  });
});
