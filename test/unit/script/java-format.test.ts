// Java's text of numbers (Double.toString, Float.toString, integers) as scripts print them, through
// the engine's Java (the same code prints for Java blocks).
import { expect } from 'chai';
import { runScript } from './run-script.js';

describe('script: Java number formatting', () => {
  const cases: Array<[string, string]> = [
    ['0.03', '0.03'], ['1e-5', '1.0E-5'], ['100.0', '100.0'], ['0.0', '0.0'], ['-0.0', '-0.0'], ['1.0', '1.0'], ['-2.5', '-2.5'],
    ['0.001', '0.001'], ['0.000999', '9.99E-4'], ['1234567.0', '1234567.0'], ['1e7', '1.0E7'], ['12345678.9', '1.23456789E7'],
    ['1.0 / 3', '0.3333333333333333'], ['0.1 + 0.2', '0.30000000000000004'], ['1e21', '1.0E21'], ['1.5e-300', '1.5E-300'],
    ['Double.NaN', 'NaN'], ['1.0 / 0', 'Infinity'], ['-1.0 / 0', '-Infinity'], ['Double.MAX_VALUE', '1.7976931348623157E308'],
    ['Double.MIN_VALUE', '4.9E-324'], ['2.5e-3', '0.0025'], ['-1e-7', '-1.0E-7'], ['9999999.999', '9999999.999'],
  ];
  it('prints doubles as Double.toString', async () => {
    const out = await runScript(cases.map(([expression]) => `print(${expression});`).join('\n'));
    expect(out.trimEnd().split('\n')).to.deep.equal(cases.map(([, text]) => text));
  });

  it('prints floats with the digits of a float', async () => {
    expect(await runScript('print(0.1f); print(1f / 3); print(1e10f);')).to.equal('0.1\n0.33333334\n1.0E10\n');
  });

  it('prints integers, booleans and null as Java does', async () => {
    expect(await runScript('print(42); long l = -7; print(l); print(true); String s = null; print(s); print(\'c\');')).to.equal('42\n-7\ntrue\nnull\nc\n');
  });
});
