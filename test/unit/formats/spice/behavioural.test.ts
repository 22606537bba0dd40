// Behavioural sources: B V=/I= and E/G VALUE=/TABLE read into control blocks feeding a signal
// source, simulated to check the values (applied from the step after they are computed).
import { expect } from 'chai';
import { simulateSync } from '../../../../src/engine/index.js';
import { channelOf, deck, element, expectLineError } from './helpers.js';

function run(lines: string): (label: string) => Float64Array {
  const { netlist } = deck(lines, '.tran 1u 100u uic');
  const result = simulateSync(netlist);
  return (label) => channelOf(result, label);
}

describe('SPICE behavioural sources', () => {
  it('B V= computes node voltages, branch currents, time and conditionals once per step', () => {
    const signal = run([
      'V1 a 0 DC 2', 'R1 a 0 1',
      'B1 b 0 V={3*v(a) - i(V1) + if(time > 50u, 10, 0)}', 'Rb b 0 1',
      'B2 c 0 V=limit(v(a)*10, -5, 5) + (v(a) >= 2 && v(a) < 3)', 'Rc c 0 1',
      'B3 d 0 I={max(v(a), 1) ** 2}', 'Rd d 0 2',
    ].join('\n'));
    // i(V1) flows from + through the source: -2 A with 1 Ω across 2 V.
    const b = signal('V(b)');
    expect(b[10]).to.be.closeTo(3 * 2 + 2, 1e-9);
    expect(b[b.length - 1]).to.be.closeTo(18, 1e-9);
    expect(signal('V(c)')[10]).to.be.closeTo(6, 1e-9);
    // A current source drives from its first terminal to its second: into d it is −4 A.
    expect(signal('V(d)')[10]).to.be.closeTo(-8, 1e-9);
  });

  it('E VALUE and TABLE, G VALUE; a constant expression is a DC source', () => {
    const signal = run([
      'V1 a 0 DC 15', 'R1 a 0 1',
      'E1 t 0 TABLE {v(a)} = (0,0) (10,1) (20,1.5)', 'Rt t 0 1',
      'E2 u 0 VALUE={v(a,t)/2}', 'Ru u 0 1',
      'G1 0 w VALUE={2*v(a)}', 'Rw w 0 0.5',
    ].join('\n'));
    expect(signal('V(t)')[10]).to.be.closeTo(1.25, 1e-9);
    expect(signal('V(u)')[20]).to.be.closeTo((15 - 1.25) / 2, 1e-9);
    expect(signal('V(w)')[10]).to.be.closeTo(15, 1e-9);
    const { netlist } = deck('B1 a 0 V={2*3}\nR1 a 0 1');
    expect(element(netlist, 'B1')).to.deep.equal({ name: 'B1', type: 'V', nodes: ['a', '0'], params: { waveform: 'dc', value: 6 } });
  });

  it('maps a constant times one probe onto the exact linear source (E, G, H, F)', () => {
    const { netlist } = deck([
      'V1 a 0 DC 2', 'R1 a b 1', 'R2 b 0 1',
      'B1 c 0 V={2*v(a,b)}', 'Rc c 0 1', 'G1 0 d VALUE={-v(a)/4}', 'Rd d 0 1',
      'B2 e 0 V={-i(V1)*3}', 'Re e 0 1', 'B3 0 f I={i(V1)/2}', 'Rf f 0 1',
    ].join('\n'), '.tran 1u 10u uic');
    expect(element(netlist, 'B1')).to.deep.equal({ name: 'B1', type: 'E', nodes: ['c', '0', 'a', 'b'], params: { gain: 2 } });
    expect(element(netlist, 'G1')).to.deep.equal({ name: 'G1', type: 'G', nodes: ['0', 'd', 'a', '0'], params: { gm: -0.25 } });
    expect(element(netlist, 'B2')).to.deep.equal({ name: 'B2', type: 'H', nodes: ['e', '0'], params: { r: -3, control: 'V1' } });
    expect(element(netlist, 'B3')).to.deep.equal({ name: 'B3', type: 'F', nodes: ['0', 'f'], params: { gain: 0.5, control: 'V1' } });
    const result = simulateSync(netlist);
    // From the first step: v(a,b) = 1 V, i(V1) = −1 A. A G or F source drives its current from its
    // first node through itself to the second: −0.5 A from 0 into d (and into f) gives −0.5 V.
    expect(channelOf(result, 'V(c)')[1]).to.be.closeTo(2, 1e-9);
    expect(channelOf(result, 'V(d)')[1]).to.be.closeTo(-0.5, 1e-9);
    expect(channelOf(result, 'V(e)')[1]).to.be.closeTo(3, 1e-9);
    expect(channelOf(result, 'V(f)')[1]).to.be.closeTo(-0.5, 1e-9);
  });

  it('names the line of what it cannot map', () => {
    expectLineError(() => deck('R1 a 0 1\nB1 b 0 V={sinh(v(a))}'), 3, /B1: function sinh\(\) has no control-block form/, 'SPICE_UNSUPPORTED');
    expectLineError(() => deck('R1 a 0 1\nB1 b 0 V={i(Vx) + 1}'), 3, /i\(Vx\): element 'Vx' is not defined/, 'UNKNOWN_REFERENCE');
    expectLineError(() => deck('R1 a 0 1\nB1 b 0 V={2*i(Vx)}'), 3, /B1: controlling element of B1 'Vx' is not defined/, 'UNKNOWN_REFERENCE');
    expectLineError(() => deck('R1 a 0 1\nB1 b 0 Q={1}'), 3, /expected V=expression or I=expression/);
    expectLineError(() => deck('R1 a 0 1\nB1 b 0 V=v(a)*2 Rpar=1k'), 3, /B1: option 'Rpar=' is not supported/, 'SPICE_UNSUPPORTED');
    expectLineError(() => deck('R1 a 0 1\nB1 b 0 V={v(a)*2} Rpar=1k'), 3, /unexpected 'Rpar'/, 'SPICE_UNSUPPORTED');
    expectLineError(() => deck('R1 a 0 1\nE1 b 0 TABLE {v(a)} = (0,0) (0,1)'), 3, /TABLE x values must increase/);
    expectLineError(() => deck('R1 a 0 1\nE1 b 0 POLY(1) a 0 0 1'), 3, /POLY form of a controlled source is not supported/);
  });
});
