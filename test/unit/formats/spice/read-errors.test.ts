// SPICE reader errors: each names the line at fault (details.line, field `line N`) and says why.
import { expect } from 'chai';
import { NetlistError } from '../../../../src/formats/errors.js';
import { readSpice } from '../../../../src/formats/spice/index.js';
import { expectLineError } from './helpers.js';

/** Deck whose line 3 is `card` (title, V1, card, R1, .tran). */
const withCard = (card: string, extra = '') => () => readSpice(`title\nV1 a 0 1\n${card}\nR1 a 0 1\n${extra}.tran 1u 1m\n`);

describe('spice reader: errors', () => {
  it('rejects unsupported element letters naming the device', () => {
    expectLineError(withCard('M1 d g s b nmos'), 3, /M1: MOSFET \(M\) is not supported/, 'SPICE_UNSUPPORTED');
    expectLineError(withCard('Q1 c b e npn'), 3, /bipolar transistor \(Q\)/);
    expectLineError(withCard('J1 d g s njf'), 3, /JFET \(J\)/);
    expectLineError(withCard('X1 a b sub'), 3, /X1: subcircuit 'sub' is not defined/);
    expectLineError(withCard('Z1 a 0 b mes'), 3, /MESFET \(Z\)/);
    expectLineError(withCard('1R a 0 1'), 3, /unknown element letter '1'/);
  });

  it('rejects unsupported control cards and bad .ic cards', () => {
    expectLineError(withCard('.subckt sub a b'), 3, /\.subckt sub without \.ends/, 'SPICE_SYNTAX');
    expectLineError(withCard('.include models.lib'), 3, /\.include models\.lib: this deck was given without its folder/);
    expectLineError(withCard('.lib models.lib tt'), 3, /\.lib models\.lib: this deck was given without its folder/);
    expectLineError(withCard('.func sqrt(x) {2*x}'), 3, /\.func: sqrt is a built-in function/);
    expectLineError(withCard('.net I(R1) V1'), 3, /\.net is not supported/, 'SPICE_UNSUPPORTED');
    expectLineError(withCard('.ic v(a)=1 x'), 3, /\.ic: expected V\(node\)=value or I\(inductor\)=value, got 'x'/);
    expectLineError(withCard('.ic I(R1)=1'), 3, /\.ic I\(R1\): no inductor named R1/);
    expectLineError(withCard('.step param r 1 10 1'), 3, /\.step is not supported/, 'SPICE_UNSUPPORTED');
  });

  it('requires a .tran card and validates it', () => {
    try {
      readSpice('t\nV1 a 0 1\nR1 a 0 1\n');
      expect.fail('expected an error');
    } catch (error) {
      expect(error).to.be.instanceOf(NetlistError);
      expect((error as NetlistError).details[0]).to.deep.equal({ field: '.tran', message: 'missing .tran card' });
    }
    expectLineError(() => readSpice('t\nR1 a 0 1\n.tran 1u\n'), 3, /\.tran TSTOP alone \(LTspice\) gives no step/);
    expectLineError(() => readSpice('t\nR1 a 0 1\n.tran 0 1m\n'), 3, /must be greater than 0/);
    expectLineError(() => readSpice('t\nR1 a 0 1\n.tran 1u 1m 2m\n'), 3, /TSTART/);
    expectLineError(() => readSpice('t\nR1 a 0 1\n.tran 1u 1m 0 1u 5\n'), 3, /unexpected '5'/);
    expectLineError(() => readSpice('t\nR1 a 0 1\n.tran 1u 1m\n.options method=euler\n'), 4, /method=euler is not supported/);
  });

  it('rejects unsupported source functions and bad waveform arguments', () => {
    expectLineError(withCard('V2 b 0 EXP(0 1 1u 1u 2u 1u 5)'), 3, /EXP takes 2 to 6 arguments, got 7/);
    expectLineError(withCard('V2 b 0 PULSE(0 1 0 1u 1u 1u 4u 2.5)'), 3, /pulse count must be a whole number/);
    expectLineError(withCard('V2 b 0 SFFM(0 1 1k 5 100)'), 3, /SFFM is not supported/);
    expectLineError(withCard('V2 b 0 SIN(0)'), 3, /SIN takes 2 to 6 arguments, got 1/);
    expectLineError(withCard('V2 b 0 PWL(0 0 1m)'), 3, /PWL needs time-value pairs, got 3 numbers/);
    expectLineError(withCard('V2 b 0 PWL(0 0 2m 1 1m 0)'), 3, /PWL times must increase/);
    expectLineError(withCard('V2 b 0 PULSE(0 1 -1u)'), 3, /TD must not be negative/);
    expectLineError(withCard('V2 b 0 PULSE(0 1 0 5u 1u 1u 4u)'), 3, /rise time TR is longer than the period/);
    expectLineError(withCard('V2 b 0 PULSE(0 1 0 1u 3u 1u 4u)'), 3, /fall \(TF\) is cut short/);
    expectLineError(withCard('V2 b 0 SIN(0 1) PULSE(0 1)'), 3, /more than one transient function/);
    expectLineError(withCard('V2 b 0 DC 1 junk'), 3, /unexpected 'junk'/);
  });

  it('rejects bad values, missing nodes and unknown parameters', () => {
    expectLineError(withCard('R2 a b abc'), 3, /R value of R2: 'abc' is not a number/, 'SPICE_SYNTAX');
    expectLineError(withCard('R2 a b 0'), 3, /R2: R must be greater than 0/);
    expectLineError(withCard('C2 a b -1u'), 3, /C2: C must be greater than 0/);
    expectLineError(withCard('R2 a'), 3, /missing node 2 of R2/);
    expectLineError(withCard('R2 a b 1k tc1=0.01'), 3, /R2: parameter 'tc1' is not supported/, 'SPICE_UNSUPPORTED');
    expectLineError(withCard('L2 a b 1m foo=1'), 3, /L2: parameter 'foo' is not supported/);
    expectLineError(withCard('E2 a b LAPLACE {v(a)} {1/s}'), 3, /LAPLACE form of a controlled source is not supported/);
    expectLineError(withCard('F2 a b POLY(1) V1 0 1'), 3, /POLY form/);
  });

  it('gives a continuation line its own line number', () => {
    expectLineError(() => readSpice('t\nV1 a 0\n+ PULSE(0 1\n+ 0 1u oops)\nR1 a 0 1\n.tran 1u 1m\n'), 4, /'oops' is not a number/);
  });

  it('checks references to models and elements', () => {
    expectLineError(withCard('D1 a 0 nomodel'), 3, /D1: model 'nomodel' is not defined/, 'UNKNOWN_REFERENCE');
    expectLineError(withCard('D1 a 0 sm', '.model sm SW(RON=1)\n'), 3, /model 'sm' is a SW model, expected D/);
    expectLineError(withCard('S1 a 0 a 0 sm', '.model sm SW(RON=10 ROFF=1)\n'), 5, /\.model sm: ROFF must be greater than RON/);
    expectLineError(withCard('K1 L1 L2 0.9', 'L1 a 0 1m\n'), 3, /coupled inductor of K1 'L2' is not defined/, 'UNKNOWN_REFERENCE');
    expectLineError(withCard('K1 L1 R1 0.9', 'L1 a 0 1m\n'), 3, /'R1' is a R element, expected L/);
    expectLineError(withCard('K1 L1 L1 0.9', 'L1 a 0 1m\n'), 3, /couples L1 with itself/);
    expectLineError(withCard('K1 L1 L2 1.5', 'L1 a 0 1m\nL2 a 0 1m\n'), 3, /coupling factor must be in \(0, 1\]/);
    expectLineError(withCard('F1 0 a R1 2'), 3, /controlling voltage source of F1 'R1' is a R element, expected V/);
    expectLineError(withCard('H1 a 0 Vnone 2'), 3, /'Vnone' is not defined/);
    expectLineError(withCard('W1 a 0 Vnone wm', '.model wm CSW\n'), 3, /'Vnone' is not defined/);
  });

  it('rejects duplicate element names without regard to case', () => {
    expectLineError(withCard('r1 a 0 2'), 4, /element name R1 is already used on line 3/);
  });
});
