// Every engine error: its code, the element or node at fault, and the time where one applies.
import { expect } from 'chai';
import {
  CircuitError, SingularMatrixError, SwitchIterationError, simulateSync, validateNetlist, type EngineError, type Netlist,
} from '../../src/index.js';
import { NetlistError } from '../../src/formats/errors.js';
import { dc, rcStep, scope, volt } from '../fixtures/circuits.js';
import { loadBinding } from '../../src/engine/binding.js';

function failure(netlist: unknown): EngineError {
  try {
    simulateSync(netlist as Netlist);
  } catch (error) {
    return error as EngineError;
  }
  throw new Error('expected the run to fail');
}

const base = (): Netlist => rcStep('backward-euler', 1e-5, 1e-3);

describe('engine errors', () => {
  it('rejects a floating node named in the error', () => {
    const n = base();
    n.elements.push({ name: 'E.1', type: 'E', nodes: ['out', '0', 'nowhere', '0'], params: { gain: 1 } });
    const e = failure(n);
    expect(e).to.be.instanceOf(CircuitError);
    expect(e.code).to.equal('FLOATING_NODE');
    expect(e.node).to.equal('nowhere');
    expect(e.element).to.equal('E.1');
  });

  it('rejects a loop of voltage sources naming them', () => {
    const n = base();
    n.elements.push(dc('V.2', 'in', '0', 2));
    const e = failure(n);
    expect(e.code).to.equal('VOLTAGE_SOURCE_LOOP');
    expect(e.element).to.equal('V.2');
    expect(e.message).to.contain('V.1');
  });

  it('rejects a cut-set of current sources', () => {
    const n = base();
    n.elements.push(
      { name: 'I.1', type: 'I', nodes: ['0', 'iso'], params: { waveform: 'dc', value: 1 } },
      { name: 'R.9', type: 'R', nodes: ['iso', 'iso2'], params: { R: 1 } },
    );
    const e = failure(n);
    expect(e.code).to.equal('CURRENT_SOURCE_CUTSET');
    expect(e.element).to.equal('I.1');
  });

  it('rejects a node fed only by a current source', () => {
    const n = base();
    n.elements.push({ name: 'I.2', type: 'I', nodes: ['out', 'dead'], params: { waveform: 'dc', value: 1 } });
    const e = failure(n);
    expect(e.code).to.equal('CURRENT_SOURCE_CUTSET');
    expect(e.node).to.equal('dead');
  });

  it('rejects a missing parameter', () => {
    const n = base();
    n.elements[1].params = {};
    const e = failure(n);
    expect(e.code).to.equal('MISSING_PARAMETER');
    expect(e.element).to.equal('R.1');
    expect(e.message).to.contain("'R'");
  });

  it('rejects an out-of-range parameter with the value', () => {
    const n = base();
    n.elements[2].params = { C: -1e-6 };
    const e = failure(n);
    expect(e.code).to.equal('PARAMETER_OUT_OF_RANGE');
    expect(e.element).to.equal('C.1');
    expect(e.message).to.contain('-1e-06');
  });

  it('rejects an unknown element type (engine level, bypassing the schema)', async () => {
    const { loadBinding } = await import('../../src/engine/binding.js');
    const n = base();
    (n.elements[1] as { type: string }).type = 'QX';
    try {
      loadBinding().simulateSync(n);
      expect.fail('expected an error');
    } catch (error) {
      expect((error as EngineError).code).to.equal('UNKNOWN_ELEMENT_TYPE');
      expect((error as EngineError).element).to.equal('R.1');
    }
  });

  it('rejects an unknown element type in the netlist schema with the field', () => {
    const n = base();
    (n.elements[1] as { type: string }).type = 'QX';
    expect(() => simulateSync(n)).to.throw(NetlistError, /elements\.1\.type/);
  });

  it('the addon itself names the field of a value of the wrong type and what it expected', () => {
    // What reaches the addon without the TypeScript shape check (the netlist conversion's own checks).
    const settings = { tEnd: 1e-3, dt: 1e-6 };
    const resistor = { name: 'R.1', type: 'R', nodes: ['a', '0'], params: { R: 1 } };
    const cases: [unknown, string, string][] = [
      [{ settings, elements: [{ ...resistor, nodes: ['a', 3] }] }, 'elements[0].nodes[1]', 'a string'],
      [{ settings, elements: [{ ...resistor, params: { R: [1, 'x'] } }] }, 'elements[0].params.R[1]', 'a number'],
      [{ settings, elements: [{ ...resistor, params: { R: null } }] }, 'elements[0].params.R', 'a number, a string or an array'],
      [{ settings, elements: [{ ...resistor, name: 5 }] }, 'elements[0].name', 'a string'],
      [{ settings, elements: [resistor, 7] }, 'elements[1]', 'an object'],
      [{ settings, elements: [resistor], blocks: [{ name: 'B', type: 'GAIN', inputs: ['x'], outputs: [1] }] }, 'blocks[0].outputs[0]', 'a string'],
      [{ settings, elements: [resistor], thermal: [{ ...resistor, params: { R: {} } }] }, 'thermal[0].params.R', 'a number, a string or an array'],
      [{ settings: { ...settings, maxPoints: 'x' }, elements: [resistor] }, 'settings.maxPoints', 'a number'],
    ];
    for (const [netlist, field, expected] of cases) {
      const error = (() => {
        try {
          loadBinding().validate(netlist as Netlist);
        } catch (e) {
          return e as Error & { code?: string; field?: string };
        }
        throw new Error(`${field}: expected the conversion to fail`);
      })();
      expect(error.code, field).to.equal('NETLIST_INVALID');
      expect(error.field).to.equal(field);
      expect(error.message).to.equal(`${field} must be ${expected}`);
    }
  });

  it('rejects a reference to a missing element', () => {
    const n = base();
    n.blocks!.push({ name: 'AMP.9', type: 'AMP', outputs: ['x'], params: { element: 'L.404' } });
    const e = failure(n);
    expect(e.code).to.equal('UNKNOWN_REFERENCE');
    expect(e.element).to.equal('AMP.9');
  });

  it('rejects an algebraic loop naming the blocks', () => {
    const n = base();
    n.blocks!.push(
      { name: 'A', type: 'GAIN', inputs: ['b'], outputs: ['a'], params: { k: 1 } },
      { name: 'B', type: 'ADD', inputs: ['a', 'vc'], outputs: ['b'] },
    );
    const e = failure(n);
    expect(e.code).to.equal('ALGEBRAIC_LOOP');
    expect(e.message).to.contain('A').and.to.contain('B');
  });

  it('accepts the same loop broken by a DELAY block', () => {
    const n = base();
    n.blocks!.push(
      { name: 'A', type: 'DELAY', inputs: ['b'], outputs: ['a'], params: { delay: 1e-5 } },
      { name: 'B', type: 'ADD', inputs: ['a', 'vc'], outputs: ['b'] },
    );
    expect(validateNetlist(n)).to.be.an('array');
  });

  it('reports a singular matrix at its time with the undetermined node', () => {
    // A VCVS that forces v(x) = 1·v(x): any potential satisfies it.
    const n: Netlist = {
      settings: { tEnd: 1e-3, dt: 1e-5 },
      elements: [
        dc('V.1', 'in', '0', 1),
        { name: 'R.1', type: 'R', nodes: ['in', '0'], params: { R: 1 } },
        { name: 'E.1', type: 'E', nodes: ['x', '0', 'x', '0'], params: { gain: 1 } },
        { name: 'R.2', type: 'R', nodes: ['x', 'in'], params: { R: 1 } },
      ],
      blocks: [volt('VOLT.1', 'v', 'x'), scope('SCOPE.1', ['v'])],
    };
    const e = failure(n);
    expect(e).to.be.instanceOf(SingularMatrixError);
    expect(e.code).to.equal('SINGULAR_MATRIX');
    expect(e.time).to.equal(0);
    expect(e.message).to.match(/t = 0 s/);
    expect(e.node ?? e.element).to.be.oneOf(['x', 'E.1']);
  });

  it('fails with the switch iteration limit at a time, naming the chattering device', () => {
    // A voltage-controlled switch that turns on when its own voltage is positive and off when
    // conducting pulls it below the threshold: it can never settle.
    const n: Netlist = {
      settings: { tEnd: 1e-3, dt: 1e-5, maxSwitchIterations: 20 },
      elements: [
        dc('V.1', 'in', '0', 5),
        { name: 'R.1', type: 'R', nodes: ['in', 'a'], params: { R: 1 } },
        { name: 'W.1', type: 'VSW', nodes: ['a', '0', 'a', '0'], params: { vt: 2.5, vh: 0, ron: 0.01, roff: 1e6 } },
      ],
      blocks: [volt('VOLT.1', 'v', 'a'), scope('SCOPE.1', ['v'])],
    };
    const e = failure(n);
    expect(e).to.be.instanceOf(SwitchIterationError);
    expect(e.code).to.equal('SWITCH_ITERATION_LIMIT');
    expect(e.element).to.equal('W.1');
    expect(e.time).to.be.a('number');
  });

  it('rejects settings out of range', () => {
    const n = base();
    n.settings.dt = 1;
    const e = failure(n);
    expect(e.code).to.equal('PARAMETER_OUT_OF_RANGE');
    expect(e.message).to.contain('dt');
  });

  it('rejects a GATE aimed at something that is not a switch', () => {
    const n = base();
    n.blocks!.push(
      { name: 'ONE', type: 'CONST', outputs: ['one'], params: { value: 1 } },
      { name: 'GATE.1', type: 'GATE', inputs: ['one'], params: { target: 'R.1' } },
    );
    const e = failure(n);
    expect(e.code).to.equal('UNKNOWN_REFERENCE');
    expect(e.element).to.equal('GATE.1');
  });
});
