// Java's conversions of values to text, as `"" + x` and `System.out.println(x)` produce them:
// doubles as Double.toString (`0.03`, `100.0`, `1.0E-5`, `1.2345E7`, `NaN`, `Infinity`), integers
// in decimal, booleans as `true`/`false`, null as `null`, arrays as Java's `[D@...` identity text.
import type { TypeName } from './types.js';

/**
 * Double.toString: the shortest digits that read back as the same double (what JavaScript also
 * chooses), laid out the Java way: plain decimal with at least one fractional digit for
 * 10^-3 <= |x| < 10^7, otherwise `d.dddE±n` with at least one fractional digit.
 */
export function formatDouble(x: number): string {
  if (Number.isNaN(x)) return 'NaN';
  if (x === Infinity) return 'Infinity';
  if (x === -Infinity) return '-Infinity';
  if (x === 0) return Object.is(x, -0) ? '-0.0' : '0.0';
  const sign = x < 0 ? '-' : '';
  const abs = Math.abs(x);
  // Java writes at least two significant digits and then picks the closest: for subnormal numbers
  // (too coarse for the one-digit form to be the closest) that is toPrecision(2).
  const shortest = abs.toExponential();
  const [mantissa, exp] = (abs < 2.2250738585072014e-308 && !shortest.includes('.') ? abs.toExponential(1) : shortest).split('e');
  const digits = mantissa.replace('.', '');
  const exponent = Number(exp);
  if (abs >= 1e-3 && abs < 1e7) {
    if (exponent >= 0) {
      const intPart = digits.slice(0, exponent + 1).padEnd(exponent + 1, '0');
      const frac = digits.slice(exponent + 1);
      return `${sign}${intPart}.${frac === '' ? '0' : frac}`;
    }
    return `${sign}0.${'0'.repeat(-exponent - 1)}${digits}`;
  }
  const frac = digits.slice(1);
  return `${sign}${digits[0]}.${frac === '' ? '0' : frac}E${exponent}`;
}

/** Float.toString of a float value (GeckoSCRIPT's getSignalData returns float[]): shortest float digits. */
export function formatFloat(x: number): string {
  const f = Math.fround(x);
  if (!Number.isFinite(f) || f === 0) return formatDouble(f);
  for (let precision = 1; precision <= 9; precision++) {
    const candidate = Number(f.toPrecision(precision));
    if (Math.fround(candidate) === f) return formatDouble(candidate);
  }
  return formatDouble(f);
}

let identity = 0x1b6d3586;
const identities = new WeakMap<object, string>();

/** Java prints arrays by type and identity hash (`[D@1b6d3586`): stable per array here. */
function arrayText(value: object, type: TypeName): string {
  let hash = identities.get(value);
  if (!hash) {
    identity = (identity * 1103515245 + 12345) >>> 0;
    hash = identity.toString(16);
    identities.set(value, hash);
  }
  const element = type.slice(0, -2);
  const code = { int: 'I', long: 'J', double: 'D', float: 'F', boolean: 'Z' }[element] ?? `L${element === 'String' ? 'java.lang.String' : element};`;
  return `[${code}@${hash}`;
}

/** The text of a value of static type `type`, as Java's string conversion gives it. */
export function javaString(value: unknown, type: TypeName): string {
  if (value === null || value === undefined) return 'null';
  switch (type) {
    case 'double':
      return formatDouble(value as number);
    case 'float':
      return formatFloat(value as number);
    case 'int':
    case 'long':
      return String(value);
    default:
  }
  if (type.endsWith('[]')) return arrayText(value as object, type);
  if (typeof value === 'number') return formatDouble(value);
  return String(value);
}
