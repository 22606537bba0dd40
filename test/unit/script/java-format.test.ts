// Java's text of numbers (Double.toString, Float.toString, integers) as scripts print them.
import { expect } from 'chai';
import { formatDouble, formatFloat, javaString } from '../../../src/script/java-format.js';

describe('script: Java number formatting', () => {
  const cases: Array<[number, string]> = [
    [0.03, '0.03'], [1e-5, '1.0E-5'], [100, '100.0'], [0, '0.0'], [-0, '-0.0'], [1, '1.0'], [-2.5, '-2.5'],
    [0.001, '0.001'], [0.000999, '9.99E-4'], [1234567, '1234567.0'], [1e7, '1.0E7'], [12345678.9, '1.23456789E7'],
    [1 / 3, '0.3333333333333333'], [0.1 + 0.2, '0.30000000000000004'], [1e21, '1.0E21'], [1.5e-300, '1.5E-300'],
    [NaN, 'NaN'], [Infinity, 'Infinity'], [-Infinity, '-Infinity'], [Number.MAX_VALUE, '1.7976931348623157E308'],
    [Number.MIN_VALUE, '4.9E-324'], [2.5e-3, '0.0025'], [-1e-7, '-1.0E-7'], [9999999.999, '9999999.999'],
  ];
  for (const [value, text] of cases) {
    it(`Double.toString(${value}) is ${text}`, () => expect(formatDouble(value)).to.equal(text));
  }

  it('prints floats with the digits of a float', () => {
    expect(formatFloat(0.1)).to.equal('0.1');
    expect(formatFloat(1 / 3)).to.equal('0.33333334');
    expect(formatFloat(1e10)).to.equal('1.0E10');
  });

  it('prints integers, booleans, null and arrays as Java does', () => {
    expect(javaString(42, 'int')).to.equal('42');
    expect(javaString(-7, 'long')).to.equal('-7');
    expect(javaString(true, 'boolean')).to.equal('true');
    expect(javaString(null, 'String')).to.equal('null');
    expect(javaString([1, 2], 'double[]')).to.match(/^\[D@[0-9a-f]+$/);
    expect(javaString(['a'], 'String[]')).to.match(/^\[Ljava\.lang\.String;@[0-9a-f]+$/);
  });
});
