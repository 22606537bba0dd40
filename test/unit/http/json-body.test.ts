// The checks of a parsed JSON body (src/http/json-body.ts): the first problem in document order,
// named by its path (a deep structure by its top-level field), and none for a good body.
import { expect } from 'chai';
import { findJsonBodyProblem, MAX_JSON_DEPTH } from '../../../src/http/json-body.js';

describe('http: JSON body checks', () => {
  const problem = (value: unknown): { kind: string; path: unknown[] } | undefined => {
    const found = findJsonBodyProblem(value);
    return found && { kind: found.kind, path: found.path };
  };

  it('accepts a good body, large or small', () => {
    expect(problem({ a: [1, 2, { b: 'x', c: null }], d: true })).to.equal(undefined);
    expect(problem(Array.from({ length: 1000 }, (_, i) => ({ model_file: 'rc.json', parameters: { 'R.1.R': i } })))).to.equal(undefined);
    expect(problem(42)).to.equal(undefined);
  });

  it('names a number beyond the double range by its full path, the first in document order', () => {
    expect(problem({ a: { b: [1, Infinity] }, c: Infinity })).to.deep.equal({ kind: 'not-finite', path: ['a', 'b', 1] });
    expect(problem({ a: { b: 1 }, c: [{ d: -Infinity }] })).to.deep.equal({ kind: 'not-finite', path: ['c', 0, 'd'] });
    expect(problem([Number.NaN])).to.deep.equal({ kind: 'not-finite', path: [0] });
    expect(problem(Infinity)).to.deep.equal({ kind: 'not-finite', path: [] });
  });

  it('names a forbidden key by its path', () => {
    const body = JSON.parse('{"x": [{"y": {"__proto__": {"polluted": 1}}}]}') as unknown;
    expect(problem(body)).to.deep.equal({ kind: 'forbidden-key', path: ['x', 0, 'y', '__proto__'] });
    expect(problem({ items: [{ constructor: { prototype: {} } }] })).to.deep.equal({ kind: 'forbidden-key', path: ['items', 0, 'constructor'] });
  });

  it('names a structure nested too deep by the top-level field that holds it', () => {
    let deep: unknown = 1;
    for (let i = 0; i < MAX_JSON_DEPTH + 5; i++) deep = [deep];
    expect(problem({ ok: 1, metadata: deep })).to.deep.equal({ kind: 'too-deep', path: ['metadata'] });
    let fine: unknown = 1;
    for (let i = 0; i < MAX_JSON_DEPTH - 1; i++) fine = { x: fine };
    expect(problem(fine)).to.equal(undefined);
  });
});
