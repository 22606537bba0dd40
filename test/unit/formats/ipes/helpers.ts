// Shared helpers of the .ipes tests: the GeckoCIRCUITS example files in test/fixtures/gecko, their
// decompressed text (to build edited variants), and lookups into a netlist.
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { expect } from 'chai';
import type { ControlBlock, Netlist, NetlistElement } from '../../../../src/formats/netlist.js';
import { NetlistError } from '../../../../src/formats/errors.js';

export const FIXTURES = [
  '2phaseDiodeBridge_AC-Inductor.ipes',
  'BuckBoost_const_dutyCycle.ipes',
  'boost_simple.ipes',
  'buck_simple.ipes',
  'diode_RL_singlePH_trafo.ipes',
  'ex_2.ipes',
  'singlePhase_PWM_converter.ipes',
  'thyristor_RL_single.ipes',
];

export function fixture(name: string): Buffer {
  return readFileSync(new URL(`../../../fixtures/gecko/${name}`, import.meta.url));
}

export function fixtureText(name: string): string {
  return gunzipSync(fixture(name)).toString('utf-8');
}

/**
 * Steps GeckoCIRCUITS takes after its first one at t = 0: it steps while t <= tEnd and adds dt to t
 * after each step (SimulationsKern.runSimulation), so the last step may fall short of tEnd by up to dt.
 * pesim's runs of .ipes models (timing 'gecko') take the same steps.
 */
export function geckoSteps(tEnd: number, dt: number, from = 0, first = dt): number {
  let n = 0;
  for (let t = from + first; t <= tEnd; t += dt) n++;
  return n;
}

/** A netlist as the .ipes reader returns it once written: GeckoCIRCUITS' source timing. */
export function asIpes(n: Netlist): Netlist {
  return { ...n, settings: { ...n.settings, timing: 'gecko' } };
}

export const textBytes = (text: string): Uint8Array => new TextEncoder().encode(text);

export function element(n: Netlist, name: string): NetlistElement {
  const found = n.elements.find((e) => e.name === name);
  expect(found, `element ${name}`).to.not.equal(undefined);
  return found!;
}

export function block(n: Netlist, name: string): ControlBlock {
  const found = (n.blocks ?? []).find((b) => b.name === name);
  expect(found, `block ${name}`).to.not.equal(undefined);
  return found!;
}

/** Runs `fn`, expects a NetlistError and returns it. */
export function netlistError(fn: () => unknown): NetlistError {
  try {
    fn();
  } catch (error) {
    expect(error).to.be.instanceOf(NetlistError);
    return error as NetlistError;
  }
  expect.fail('expected a NetlistError');
}

/** Replaces one exact piece of text, failing when it is absent (keeps edits honest). */
export function edit(text: string, from: string, to: string): string {
  expect(text.includes(from), `fixture text contains ${JSON.stringify(from)}`).to.equal(true);
  return text.replace(from, to);
}

/** The 50 GeckoCIRCUITS example files of test/fixtures/gecko-corpus (see SOURCES.md there). */
export function corpusFixture(name: string): Buffer {
  return readFileSync(new URL(`../../../fixtures/gecko-corpus/${name}`, import.meta.url));
}
