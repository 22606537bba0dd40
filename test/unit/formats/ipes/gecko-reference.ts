// Comparison with numbers GeckoCIRCUITS computed for the small circuits of test/fixtures/gecko
// (see SOURCES.md there): each circuit was run in GeckoCIRCUITS itself (built from its public
// source, run headless with its own step, solver and end time); the tests keep, per scope channel,
// the average, RMS, minimum and maximum GeckoCIRCUITS reported over the last 20 % of the run, and
// require pesim's to lie within 1 % of the channel's full scale (max |value| in that window).
import { expect } from 'chai';
import { simulateSync, type SimulationResult } from '../../../../src/engine/index.js';
import { readIpes } from '../../../../src/formats/ipes/index.js';
import type { Netlist } from '../../../../src/formats/netlist.js';
import { fixture } from './helpers.js';

export interface GeckoStats {
  avg: number;
  rms: number;
  min: number;
  max: number;
}

export interface FixtureRun {
  netlist: Netlist;
  warnings: string[];
  result: SimulationResult;
}

/** Reads a fixture and simulates it to its own end time (window: the last 20 %, as GeckoCIRCUITS' statistics). */
export function runFixture(name: string): FixtureRun {
  const { netlist, warnings } = readIpes(fixture(name), name);
  return { netlist, warnings, result: simulateSync(netlist) };
}

/** Expects every channel (by scope label) within 1 % of its GeckoCIRCUITS full scale. */
export function expectGecko(result: SimulationResult, gecko: Record<string, GeckoStats>): void {
  for (const [label, g] of Object.entries(gecko)) {
    const channel = result.channels.find((c) => c.label === label);
    expect(channel, `scope channel ${label}`).to.not.equal(undefined);
    const scale = Math.max(Math.abs(g.min), Math.abs(g.max));
    for (const kind of ['avg', 'rms', 'min', 'max'] as const) {
      const value = result.measurements[`${channel!.key}_${kind}`];
      expect(value, `${label} ${kind} (GeckoCIRCUITS ${g[kind]})`).to.be.closeTo(g[kind], 0.01 * scale);
    }
  }
}
