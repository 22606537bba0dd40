// .param expressions: operators, precedence, functions, parameters in any order, errors with lines.
import { expect } from 'chai';
import { evaluateExpression, ParameterTable } from '../../../../src/formats/spice/expressions.js';
import { deck, element, expectLineError } from './helpers.js';

const at = { line: 7 };
const evaluate = (text: string, params: Record<string, number> = {}) => evaluateExpression(text, (n) => params[n], at);

describe('spice expressions', () => {
  it('evaluates operators with SPICE precedence', () => {
    expect(evaluate('1 + 2 * 3')).to.equal(7);
    expect(evaluate('(1 + 2) * 3')).to.equal(9);
    expect(evaluate('2 ^ 3 ^ 2')).to.equal(512);
    expect(evaluate('2 ** 3')).to.equal(8);
    expect(evaluate('-2 ^ 2')).to.equal(-4);
    expect(evaluate('2 ^ -1')).to.equal(0.5);
    expect(evaluate('10 / 4 - -1')).to.equal(3.5);
    expect(evaluate('+3')).to.equal(3);
    expect(evaluate('1k * 2m')).to.be.closeTo(2, 1e-12);
    expect(evaluate('1meg / 1u')).to.be.closeTo(1e12, 1);
  });

  it('knows pi and the functions', () => {
    expect(evaluate('pi')).to.equal(Math.PI);
    expect(evaluate('sqrt(16) + abs(-2)')).to.equal(6);
    expect(evaluate('exp(ln(5))')).to.be.closeTo(5, 1e-12);
    expect(evaluate('log(exp(2))')).to.be.closeTo(2, 1e-12);
    expect(evaluate('log10(1000)')).to.be.closeTo(3, 1e-12);
    expect(evaluate('sin(pi/2) + cos(0)')).to.be.closeTo(2, 1e-12);
    expect(evaluate('max(2, 3) + min(2, 3) + pow(2, 10)')).to.equal(1029);
    expect(evaluate('2 * R1 + c', { r1: 5, c: 1 })).to.equal(11);
  });

  it('resolves parameters defined later and case-insensitively', () => {
    const table = new ParameterTable();
    table.define('B', 'A * 2', { line: 2 });
    table.define('a', '1k', { line: 3 });
    table.define('c', 'sqrt(b) + A', { line: 4 });
    expect(table.all()).to.deep.equal({ b: 2000, a: 1000, c: Math.sqrt(2000) + 1000 });
  });

  it('reports errors with the line of the expression', () => {
    expectLineError(() => evaluate('1 +'), 7, /unexpected end/, 'SPICE_SYNTAX');
    expectLineError(() => evaluate('(1 + 2'), 7, /expected '\)'/);
    expectLineError(() => evaluate('1 2'), 7, /unexpected text/);
    expectLineError(() => evaluate('foo(1)'), 7, /unknown function 'foo'/);
    expectLineError(() => evaluate('max(1)'), 7, /takes at least 2 arguments/);
    expectLineError(() => evaluate('x + 1'), 7, /undefined parameter 'x'/, 'UNKNOWN_PARAMETER');
    expectLineError(() => evaluate('1 / 0'), 7, /finite/);
    expectLineError(() => evaluate('1 # 2'), 7, /unexpected '#'/);
    const table = new ParameterTable();
    table.define('a', 'b + 1', { line: 3 });
    table.define('b', 'a + 1', { line: 4 });
    expectLineError(() => table.get('a'), 3, /defined in terms of itself/);
  });

  it('reads .param cards into parameters and keeps {name} as a reference', () => {
    const { netlist } = deck(['.param rload = 2k  vin={12*2}, gain=\'rload / 1k\'', '.PARAM Cap=1u tau = {rload*cap}', 'V1 in 0 {vin}', 'R1 in out {RLOAD}', 'C1 out 0 {cap * 2}', 'E1 x 0 out 0 gain', 'R2 x 0 tau'].join('\n'));
    expect(netlist.parameters).to.deep.equal({ rload: 2000, vin: 24, gain: 2, cap: 1e-6, tau: 2e-3 });
    expect(element(netlist, 'V1').params).to.deep.equal({ waveform: 'dc', value: '$vin' });
    expect(element(netlist, 'R1').params).to.deep.equal({ R: '$rload' });
    expect(element(netlist, 'C1').params!.C).to.equal(2e-6);
    expect(element(netlist, 'E1').params!.gain).to.equal('$gain');
    expect(element(netlist, 'R2').params!.R).to.equal('$tau');
  });

  it('reports .param errors with the line', () => {
    expectLineError(() => deck('R1 a 0 1\n.param = 3'), 3, /expected name=value/);
    expectLineError(() => deck('R1 a 0 1\n.param x ='), 3, /missing value/);
    expectLineError(() => deck('R1 a 0 {y}\n.param x=1'), 2, /undefined parameter 'y'/);
  });
});

describe('spice expressions: functions and logic', () => {
  const value = (text: string, params: Record<string, number> = {}) => evaluateExpression(text, (n) => params[n], { line: 1 });
  it('evaluates the usual functions, comparisons, logic and the conditional forms', () => {
    expect(value('max(1, 5, 3) + min(2, -1)')).to.equal(4);
    expect(value('if(a > 2, 10, 20)', { a: 3 })).to.equal(10);
    expect(value('a >= 2 && a < 3 ? 1 : 0', { a: 3 })).to.equal(0);
    expect(value('!(a == 3) || a != 3', { a: 3 })).to.equal(0);
    expect(value('limit(7, 0, 5) + limit(-7, 5, 0)')).to.equal(5);
    expect(value('pwrs(-4, 0.5) + pwr(-4, 0.5) + pow(2, 10)')).to.equal(1024);
    expect(value('abs(-2) * sqrt(16) + floor(2.7) + ceil(0.2) + sgn(-3) + u(1) + uramp(-2)')).to.equal(11);
    expect(value('exp(log(5))')).to.be.closeTo(5, 1e-12);
    expect(value('2**3**2')).to.equal(512);
  });
});

describe('spice .param cards with comparisons', () => {
  it('keeps >=, <=, != and == written without braces as operators', () => {
    const { netlist } = deck('.param a=3 b = a >= 2 c=if(a == 3, 1, 2) d = 2 * a + 1, e=a != 3\nR1 x 0 1');
    expect(netlist.parameters).to.deep.equal({ a: 3, b: 1, c: 1, d: 7, e: 0 });
  });
});

describe('spice .func user functions', () => {
  it('inlines calls in .param values, card values and behavioural sources', () => {
    const { netlist } = deck([
      '.func half(x) {x/2}', ".func clamp(x, lo, hi) = 'min(max(x, lo), hi)'", '.func twice(x) {2*half(x)*2}',
      '.param a={half(10)} b={clamp(7, 0, 5)}', 'R1 x 0 {twice(3)}', 'B1 y 0 V={clamp(v(x), 0, half(a))}', 'R2 y 0 1',
    ].join('\n'));
    expect(netlist.parameters).to.deep.equal({ a: 5, b: 5 });
    expect(element(netlist, 'R1').params).to.deep.equal({ R: 6 });
    const limits = netlist.blocks!.filter((b) => b.name.startsWith('B1.')).map((b) => b.type);
    expect(limits).to.include.members(['VOLT', 'MIN', 'MAX']);
    expectLineError(() => deck('.func f(x) {f(x)}\n.param a={f(1)}\nR1 x 0 1'), 2, /calls nested more than 20 deep/);
    expectLineError(() => deck('.func f(x, y) {x+y}\n.param a={f(1)}\nR1 x 0 1'), 2, /f\(\) takes 2 arguments, a call gives 1/);
  });
});
