// Exact JSON: NaN, ±Infinity and -0 survive a round trip anywhere in a document; documents
// without them are plain JSON both ways.
import { expect } from 'chai';
import { parseExact, stringifyExact } from '../../../src/store/exact-json.js';

describe('exact JSON', () => {
  it('keeps NaN, ±Infinity and -0 in objects and arrays, at any depth', () => {
    const doc = { a: NaN, b: [1, -0, Infinity, { c: -Infinity }], d: { e: { f: -0 } }, g: 'x', h: null };
    const back = parseExact(stringifyExact(doc)) as typeof doc;
    expect(Number.isNaN(back.a)).to.equal(true);
    expect(Object.is(back.b[1], -0)).to.equal(true);
    expect(back.b[2]).to.equal(Infinity);
    expect((back.b[3] as { c: number }).c).to.equal(-Infinity);
    expect(Object.is(back.d.e.f, -0)).to.equal(true);
    expect(back).to.include({ g: 'x', h: null });
  });

  it('writes plain JSON when nothing needs a tag, and reads plain JSON', () => {
    const doc = { measurements: { 'SCOPE.1.ch1.avg': 23.6, 'SCOPE.1.ch1.min': 0 }, signals: ['SCOPE.1.ch1'] };
    expect(stringifyExact(doc)).to.equal(JSON.stringify(doc));
    expect(parseExact(JSON.stringify(doc))).to.deep.equal(doc);
  });

  it('leaves objects that merely look like tags alone', () => {
    const doc = { a: { $num: 'NaN', other: 1 }, b: { $num: 'seven' }, '"$num"': 2 };
    expect(parseExact(stringifyExact(doc))).to.deep.equal(doc);
  });
});
