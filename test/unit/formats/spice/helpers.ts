// Shared helpers of the SPICE reader/writer tests.
import { expect } from 'chai';
import { NetlistError } from '../../../../src/formats/errors.js';
import type { Netlist, NetlistElement } from '../../../../src/formats/netlist.js';
import { readFileSync } from 'node:fs';
import { simulateSync, type SimulationResult } from '../../../../src/engine/index.js';
import { readSpice } from '../../../../src/formats/spice/index.js';

/** Asserts that `fn` throws a NetlistError with `code` whose details name `line`, and returns it. */
export function expectLineError(fn: () => unknown, line: number, message: RegExp, code?: string): NetlistError {
  try {
    fn();
  } catch (error) {
    expect(error, String(error)).to.be.instanceOf(NetlistError);
    const e = error as NetlistError;
    expect(e.message).to.match(message);
    expect(e.details[0].line, e.message).to.equal(line);
    expect(e.details[0].field).to.equal(`line ${line}`);
    if (code) expect(e.code).to.equal(code);
    return e;
  }
  expect.fail(`expected a NetlistError on line ${line}`);
}

/** Reads a deck made of a title, the given lines and a .tran card. */
export function deck(lines: string, tran = '.tran 1u 1m'): ReturnType<typeof readSpice> {
  return readSpice(`test deck\n${lines}\n${tran}\n.end\n`);
}

export function element(netlist: Netlist, name: string): NetlistElement {
  const found = netlist.elements.find((e) => e.name === name);
  if (!found) expect.fail(`no element ${name}`);
  return found;
}

/** bench/peers/buck.cir shortened to 2 ms. */
export const BUCK_DECK = readFileSync(new URL('../../../../bench/peers/buck.cir', import.meta.url), 'utf8')
  .replace('.tran 100n 20m 0 100n uic', '.tran 100n 2m 0 100n uic');

/** Reads a deck and simulates it with at most 30 000 points per channel. */
export function runDeck(text: string): SimulationResult {
  const { netlist } = readSpice(text, 'buck.cir');
  netlist.settings.maxPoints = 30_000;
  return simulateSync(netlist);
}

/** The recorded samples of the channel with this label (V(out), I(L1), ...). */
export function channelOf(r: SimulationResult, label: string): Float64Array {
  const c = r.channels.find((x) => x.label === label);
  expect(c, label).to.not.equal(undefined);
  return r.signals[c!.key];
}
