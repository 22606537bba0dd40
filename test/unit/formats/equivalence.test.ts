// One buck converter written as JSON, as .ipes and as a SPICE deck, each read back through the
// format-detecting reader and simulated: the three waveforms agree within 1e-9 relative. A
// GeckoCIRCUITS diode keeps its forward voltage in series with Roff when off (`vfOff`), so the .ipes
// file is compared with the JSON netlist whose diode has `vfOff: 1`.
// The gate edges fall on steps (20 kHz at 100 ns, duty 0.5): an edge between two steps is a
// sub-step of exact timing in the JSON and .ipes runs, while a SPICE deck's pulse-driven switch
// changes at the start of a step.
import { expect } from 'chai';
import { simulateSync, type SimulationResult } from '../../../src/engine/index.js';
import type { Netlist } from '../../../src/formats/netlist.js';
import { readCircuitBytes } from '../../../src/formats/read.js';
import { writeIpes } from '../../../src/formats/ipes/index.js';
import { writeSpice } from '../../../src/formats/spice/index.js';
import { buck } from '../../fixtures/circuits.js';

const TOLERANCE = 1e-9;

function maxRelativeDifference(a: Float64Array, b: Float64Array): number {
  expect(b.length).to.equal(a.length);
  let worst = 0;
  let scale = 0;
  for (let i = 0; i < a.length; i++) {
    worst = Math.max(worst, Math.abs(a[i] - b[i]));
    scale = Math.max(scale, Math.abs(a[i]));
  }
  return worst / scale;
}

function run(bytes: Uint8Array, expectedFormat: string): SimulationResult {
  const read = readCircuitBytes(bytes);
  expect(read.format).to.equal(expectedFormat);
  read.netlist.settings.maxPoints = 1_000_000; // every step, no decimation
  // The .ipes file would run its sources with GeckoCIRCUITS' stepping (its default): compare the
  // formats on the same, exact timing.
  read.netlist.settings.timing = 'exact';
  return simulateSync(read.netlist);
}

/** The channel of a result recording `label` (SPICE decks) or the scope channel key. */
function channel(result: SimulationResult, key: string, label?: string): Float64Array {
  const found = result.channels.find((c) => (label ? c.label === label : c.key === key));
  expect(found, label ?? key).to.not.equal(undefined);
  return result.signals[found!.key];
}

describe('one buck in three formats', function () {
  this.timeout(60_000);
  const netlist: Netlist = buck({ tEnd: 20e-3 });

  const gecko: Netlist = structuredClone(netlist);
  gecko.elements.find((e) => e.name === 'D.1')!.params!.vfOff = 1;

  let json: SimulationResult;
  let geckoJson: SimulationResult;
  before(() => {
    json = run(new TextEncoder().encode(JSON.stringify(netlist)), 'json');
    geckoJson = run(new TextEncoder().encode(JSON.stringify(gecko)), 'json');
  });

  it('simulates the JSON netlist to a plausible buck steady state', () => {
    expect(json.time.length).to.equal(200_001);
    const vout = json.signals['SCOPE.1.ch1'];
    const tail = vout.subarray(160_000);
    const average = tail.reduce((s, v) => s + v, 0) / tail.length;
    // D·Vin less the diode's share of the off time: 0.5·48 − 0.5·0.6 − small conduction drops.
    expect(average).to.be.within(23.4, 23.8);
  });

  it('gives the same waveforms from the .ipes file (gzip)', () => {
    const ipes = run(writeIpes(gecko), 'ipes');
    expect(maxRelativeDifference(geckoJson.time, ipes.time)).to.be.at.most(TOLERANCE);
    expect(maxRelativeDifference(geckoJson.signals['SCOPE.1.ch1'], channel(ipes, 'SCOPE.1.ch1'))).to.be.at.most(TOLERANCE);
    expect(maxRelativeDifference(geckoJson.signals['SCOPE.1.ch2'], channel(ipes, 'SCOPE.1.ch2'))).to.be.at.most(TOLERANCE);
  });

  it('gives the same waveforms from the SPICE deck (diode model, gate edges on pesim steps)', () => {
    const deck = writeSpice(netlist, { diode: 'model', gateTiming: 'step' });
    expect(deck).to.match(/^D_1 0 sw /m);
    const spice = run(new TextEncoder().encode(deck), 'spice');
    expect(maxRelativeDifference(json.time, spice.time)).to.be.at.most(TOLERANCE);
    expect(maxRelativeDifference(json.signals['SCOPE.1.ch1'], channel(spice, '', 'V(out)'))).to.be.at.most(TOLERANCE);
    expect(maxRelativeDifference(json.signals['SCOPE.1.ch2'], channel(spice, '', 'I(L_1)'))).to.be.at.most(TOLERANCE);
  });
});
