// Bad circuit files through the format-detecting reader: each is a NetlistError with a code, the
// line at fault and what was expected — truncated gzip, binary junk, decompression bombs (the
// inflated-size limit, PESIM_MAX_INFLATED_BYTES), missing keys, wrong numbers, unknown `typ`,
// wires that connect nothing, duplicate names — in .ipes, SPICE and JSON files.
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { deflateSync, gunzipSync, gzipSync } from 'node:zlib';
import { NetlistError } from '../../../src/formats/errors.js';
import { DEFAULT_MAX_INFLATED_BYTES } from '../../../src/formats/ipes/container.js';
import { readCircuitBytes } from '../../../src/formats/read.js';

const fixture = readFileSync(new URL('../../fixtures/gecko/buck_simple.ipes', import.meta.url));
const buckText = gunzipSync(fixture).toString('utf8');
const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);

function readError(bytes: Uint8Array, fileName = 'bad.ipes'): NetlistError {
  try {
    readCircuitBytes(bytes, fileName);
  } catch (error) {
    expect(error).to.be.instanceOf(NetlistError);
    return error as NetlistError;
  }
  throw new Error('expected a NetlistError');
}

/** The buck text with `from` replaced by `to` (which must occur). */
function edited(from: string | RegExp, to: string): Uint8Array {
  const text = buckText.replace(from, to);
  expect(text).to.not.equal(buckText);
  return utf8(text);
}

describe('bad circuit files', () => {
  it('truncated gzip: cannot be decompressed, line 1', () => {
    const e = readError(fixture.subarray(0, Math.floor(fixture.length / 2)));
    expect(e.code).to.equal('IPES_SYNTAX');
    expect(e.message).to.match(/bad\.ipes starts like a gzip stream but cannot be decompressed: unexpected end of file/);
    expect(e.details[0]).to.include({ line: 1 });
  });

  it('binary junk: names the line and what a circuit file is', () => {
    const junk = Uint8Array.from({ length: 4096 }, (_, i) => (i * 7919 + 13) % 256);
    const e = readError(junk, 'junk.bin');
    expect(e.code).to.equal('PARSE_ERROR');
    expect(e.message).to.match(/^junk\.bin:1: binary data .* expected a SPICE deck, a GeckoCIRCUITS \.ipes file or a JSON netlist/);
    const late = readError(utf8(`title\nR1 a 0 1\nV1 a 0 1\n\u0000\u0001\u0002`), 'deck.cir');
    expect(late.details[0].line).to.equal(4);
  });

  it('a 1 GiB gzip bomb stops at the 64 MiB default limit', () => {
    // 64 concatenated gzip members of 16 MiB of zeros: 1 GiB inflated from about 1 MiB.
    const member = gzipSync(Buffer.alloc(16 * 1024 * 1024), { level: 9 });
    const bomb = Buffer.concat(Array.from({ length: 64 }, () => member));
    expect(bomb.length).to.be.below(2 * 1024 * 1024);
    const e = readError(bomb, 'bomb.ipes');
    expect(e.code).to.equal('INPUT_TOO_LARGE');
    expect(e.message).to.contain(`limit of ${DEFAULT_MAX_INFLATED_BYTES} bytes (PESIM_MAX_INFLATED_BYTES)`);
    expect(e.details[0]).to.include({ line: 1 });
  });

  it('a zlib bomb too, and the limit follows PESIM_MAX_INFLATED_BYTES', () => {
    const zlibBomb = deflateSync(Buffer.alloc(80 * 1024 * 1024), { level: 1 });
    expect(readError(zlibBomb).code).to.equal('INPUT_TOO_LARGE');
    const saved = process.env.PESIM_MAX_INFLATED_BYTES;
    try {
      process.env.PESIM_MAX_INFLATED_BYTES = '10000';
      expect(readError(fixture).code).to.equal('INPUT_TOO_LARGE'); // inflates to ≈ 40 kB
      expect(readError(utf8('x'.repeat(10_001)), 'big.cir').code).to.equal('INPUT_TOO_LARGE');
      process.env.PESIM_MAX_INFLATED_BYTES = 'lots';
      const e = readError(fixture);
      expect(e.code).to.equal('CONFIG_INVALID');
      expect(e.message).to.contain('PESIM_MAX_INFLATED_BYTES must be a positive integer');
    } finally {
      if (saved === undefined) delete process.env.PESIM_MAX_INFLATED_BYTES;
      else process.env.PESIM_MAX_INFLATED_BYTES = saved;
    }
    expect(readCircuitBytes(fixture).netlist.elements).to.have.length(6);
  });

  it('missing keys: the block and the key expected', () => {
    const e = readError(edited(/^typ 4$/m, ''));
    expect(e.code).to.equal('IPES_SYNTAX');
    expect(e.message).to.match(/bad\.ipes:\d+: 'e \(0\)' block has no 'typ' line/);
    expect(e.details[0].line).to.be.a('number');
    const json = readError(utf8('{"settings": {"tEnd": 1}, "elements": []}'), 'n.json');
    expect(json.code).to.equal('NETLIST_INVALID');
    expect(json.details[0]).to.deep.include({ field: 'settings', message: "must have required property 'dt'" });
    const tran = readError(utf8('t\nR1 a 0 1\nV1 a 0 1\n.end\n'), 'deck.cir');
    expect(tran.message).to.match(/\.tran/);
  });

  it('wrong numbers: the line, the key and the text that is not a number', () => {
    const lineOf = (needle: string) => buckText.slice(0, buckText.indexOf(needle)).split('\n').length;
    const position = readError(edited(/^x 4$/m, 'x abc'));
    expect(position.message).to.equal(`bad.ipes:${lineOf('\nx 4\n') + 1}: x: 'abc' is not a number`);
    const parameter = readError(edited('parameter[] 401.0 48.0', 'parameter[] 401.0 4x8.0'));
    expect(parameter.message).to.match(/:\d+: parameter\[\]: '4x8\.0' is not a number/);
    const duration = readError(edited(/^tDURATION .*$/m, 'tDURATION -1'));
    expect(duration.message).to.match(/:\d+: tDURATION must be greater than 0, got -1/);
    const spice = readError(utf8('t\nV1 a 0 1\nR1 a 0 abc\n.tran 1u 1m\n.end\n'), 'deck.cir');
    expect(spice.code).to.equal('SPICE_SYNTAX');
    expect(spice.details[0].line).to.equal(3);
    expect(spice.message).to.contain('abc');
    const json = readError(utf8('{"settings": {"tEnd": 1,\n "dt": "fast"}, "elements": []}'), 'n.json');
    expect(json.details[0]).to.deep.include({ field: 'settings.dt', message: 'must be number' });
  });

  it('unknown typ: the component, its line and that the type is unknown', () => {
    const e = readError(edited(/^typ 4$/m, 'typ 9999'));
    expect(e.code).to.equal('UNSUPPORTED_COMPONENTS');
    expect(e.details[0]).to.include({ component: 'U.1' });
    expect(e.details[0].line).to.be.a('number');
    expect(e.message).to.contain('U.1 (e typ 9999): unknown power-circuit type');
  });

  it('wires that connect nothing: each wire with its line and end points', () => {
    // The first wire (line 3), given a label of its own and moved away from every terminal.
    const moved = buckText.replace('label 2\nzeigerAktuell 6', 'label orphan\nzeigerAktuell 6').replace(/x\[\] 13 12 11 10 9 8 \ny\[\] 4 4 4 4 4 4 /, 'x[] 80 81 \ny[] 90 90 ');
    const e = readError(utf8(moved));
    expect(e.code).to.equal('WIRE_UNCONNECTED');
    expect(e.details).to.have.length(1);
    expect(e.details[0].line).to.equal(3);
    expect(e.message).to.match(/line 3: power wire labelled 'orphan' from \(80, 90\) to \(81, 90\) connects nothing; expected its ends on component terminals or on other wires/);
  });

  it('duplicate names: both lines, in .ipes and SPICE', () => {
    const e = readError(edited('idStringDialog S.1', 'idStringDialog U.1'));
    expect(e.code).to.equal('DUPLICATE_NAME');
    expect(e.message).to.match(/line \d+: component name U\.1 is already used on line \d+; expected a unique idStringDialog/);
    expect(e.details[0].component).to.equal('U.1');
    const spice = readError(utf8('t\nR1 a 0 1\nr1 a 0 2\nV1 a 0 1\n.tran 1u 1m\n.end\n'), 'deck.cir');
    expect(spice.message).to.match(/deck\.cir:3: element name r1 is already used on line 2/i);
  });

  it('stray braces and unterminated constructs in SPICE end with a line, not a hang', () => {
    expect(readError(utf8('t\nR} a 0 1\n.tran 1u 1m\n.end\n'), 'deck.cir').message).to.equal("deck.cir:2: unexpected '}' without a matching '{'");
    expect(readError(utf8('t\nR1 a 0 {1+\n.tran 1u 1m\n.end\n'), 'deck.cir').details[0].line).to.equal(2);
  });
});
