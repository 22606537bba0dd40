// Edited variants of the corpus files for tests: the decompressed text of a corpus file, and the
// removal of one component (e.g. a Java regression-check block that only prints a verdict) by its
// `idStringDialog`, failing when the component is absent.
import { gunzipSync } from 'node:zlib';
import { expect } from 'chai';
import { corpusFixture } from './helpers.js';

export function corpusText(name: string): string {
  return gunzipSync(corpusFixture(name)).toString('utf-8');
}

/** The text without the component whose `idStringDialog` is `id` (its `<Element…>` block). */
export function withoutComponent(text: string, id: string): string {
  const at = text.indexOf(`\nidStringDialog ${id}\n`);
  expect(at, `component ${id} in the file`).to.be.above(-1);
  const start = text.lastIndexOf('\n<Element', at);
  const close = text.indexOf('\n<\\Element', at);
  expect(start, `start of ${id}`).to.be.above(-1);
  expect(close, `end of ${id}`).to.be.above(at);
  const end = text.indexOf('\n', close + 1);
  return text.slice(0, start) + text.slice(end);
}
