// A netlist converted for the engine once and run with many override sets (PreparedCircuit, the
// addon's prepareCircuit and simulatePreparedSync): every run gives what simulateSync gives for the
// same overrides, bit for bit, whatever ran before it on the same circuit; bad overrides fail with
// simulateSync's errors; a netlist that does not prepare without overrides has no prepared circuit.
import { expect } from 'chai';
import { PreparedCircuit } from '../../src/engine/prepared-circuit.js';
import { simulateSync, type SimulationResult } from '../../src/engine/simulate.js';
import type { Netlist, ParameterOverrides } from '../../src/formats/netlist.js';
import { buck, rcStep, rcWithGlobals, thermalBuck } from '../fixtures/circuits.js';

/** What a run gives, with the engine's wall time left out. */
function comparable(result: SimulationResult): unknown {
  const { wallMs: _wallMs, ...stats } = result.stats;
  return { ...result, stats };
}

function errorOf(run: () => unknown): { name: string; code?: string; message: string } | undefined {
  try {
    run();
    return undefined;
  } catch (error) {
    const e = error as Error & { code?: string };
    return { name: e.name, code: e.code, message: e.message };
  }
}

describe('engine: a netlist prepared once for many runs', () => {
  const cases: [string, () => Netlist, ParameterOverrides[]][] = [
    ['a buck converter', () => buck({ tEnd: 2e-4 }), [{ 'R.1.R': 2 }, {}, { 'R.1.R': 9, 'L.1.L': 2e-4 }, { 'SIGNAL.1.duty': 0.3 }, {}]],
    ['globals and their references', rcWithGlobals, [{ $Rv: 50 }, { $Cv: 2e-6, $Rv: 1 }, { 'R.1.R': 30 }, {}, { $Rv: 10, 'C.1.C': 3e-6 }]],
    ['a thermal network', () => thermalBuck({ tEnd: 2e-4 }), [{}, { 'R.1.R': 3 }, {}]],
  ];
  for (const [name, make, sets] of cases) {
    it(`runs as simulateSync does, one set after another: ${name}`, () => {
      const netlist = make();
      const circuit = PreparedCircuit.of(netlist);
      expect(circuit).to.not.equal(undefined);
      for (const parameters of sets) {
        expect(comparable(circuit!.simulateSync({ parameters })), JSON.stringify(parameters)).to.deep.equal(comparable(simulateSync(netlist, { parameters })));
      }
    });
  }

  it('fails bad overrides with the errors of simulateSync, and runs on afterwards', () => {
    const netlist = rcStep('backward-euler', 1e-5, 1e-4);
    const circuit = PreparedCircuit.of(netlist)!;
    for (const parameters of [{ 'R.9.R': 1 }, { 'R.1.X': 1 }, { 'R.1.R': Number.NaN }, { 'R.1.R': -1 }, { $none: 2 }]) {
      const expected = errorOf(() => simulateSync(netlist, { parameters }));
      expect(expected, JSON.stringify(parameters)).to.not.equal(undefined);
      expect(errorOf(() => circuit.simulateSync({ parameters })), JSON.stringify(parameters)).to.deep.equal(expected);
    }
    // The assignments of a refused run are taken back: the next run is the netlist's own.
    expect(comparable(circuit.simulateSync())).to.deep.equal(comparable(simulateSync(netlist)));
  });

  it('records into the memory handed back for reuse', () => {
    const circuit = PreparedCircuit.of(rcStep('backward-euler', 1e-5, 1e-4))!;
    const first = circuit.simulateSync({ parameters: { 'R.1.R': 10 } });
    const reuse = [first.time, ...Object.values(first.signals)];
    const second = circuit.simulateSync({ parameters: { 'R.1.R': 20 }, reuse });
    expect(reuse.map((a) => a.buffer)).to.include(second.time.buffer);
  });

  it('has no prepared circuit for a netlist of the wrong shape, or one whose reference only an override defines', () => {
    expect(PreparedCircuit.of({ ...rcStep('backward-euler', 1e-5, 1e-4), elements: 'none' } as unknown as Netlist)).to.equal(undefined);
    const dangling = rcStep('backward-euler', 1e-5, 1e-4);
    dangling.elements[1].params = { R: '$Rv' };
    expect(PreparedCircuit.of(dangling)).to.equal(undefined);
  });
});
