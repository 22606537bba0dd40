// The part of Java's standard library scripts use: java.lang.Math (also callable without `Math.`,
// as `import static java.lang.Math.*;` allows), Integer/Double/String conversions, System time.
import { ScriptError } from './errors.js';
import { formatDouble, javaString } from './java-format.js';
import type { Builtin, Builtins, Signature } from './runtime.js';
import { doubleToInt, doubleToLong } from './types.js';

export const CONSTANTS: Record<string, number> = {
  'Math.PI': Math.PI,
  'Math.E': Math.E,
  'Double.MAX_VALUE': Number.MAX_VALUE,
  'Double.MIN_VALUE': Number.MIN_VALUE,
  'Double.POSITIVE_INFINITY': Infinity,
  'Double.NEGATIVE_INFINITY': -Infinity,
  'Double.NaN': NaN,
};

const d = (n: number): Signature => ({ params: Array<string>(n).fill('double'), returns: 'double' });
const num = (f: (...x: number[]) => number) => (args: unknown[]): number => f(...(args as number[]));

const DOUBLE_FUNCTIONS: Record<string, (...x: number[]) => number> = {
  sqrt: Math.sqrt, cbrt: Math.cbrt, exp: Math.exp, log: Math.log, log10: Math.log10, sin: Math.sin, cos: Math.cos,
  tan: Math.tan, asin: Math.asin, acos: Math.acos, atan: Math.atan, sinh: Math.sinh, cosh: Math.cosh, tanh: Math.tanh,
  floor: Math.floor, ceil: Math.ceil, signum: Math.sign, expm1: Math.expm1, log1p: Math.log1p,
  toRadians: (x) => (x * Math.PI) / 180, toDegrees: (x) => (x * 180) / Math.PI,
  rint: (x) => {
    const r = Math.round(x);
    return Math.abs(x % 1) === 0.5 && r % 2 !== 0 ? r - 1 : r;
  },
};
const DOUBLE2_FUNCTIONS: Record<string, (a: number, b: number) => number> = {
  pow: Math.pow, atan2: Math.atan2, hypot: Math.hypot, IEEEremainder: (a, b) => a - b * Math.round(a / b),
};

function builtin(name: string, signatures: Signature[], call: Builtin['call']): Builtin {
  return { name, signatures, call };
}

function parse(text: string, what: string, integer: boolean): number {
  const t = text.trim();
  const ok = integer ? /^[+-]?\d+$/.test(t) : /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?[dDfF]?$|^[+-]?(NaN|Infinity)$/.test(t);
  if (!ok) throw new ScriptError('runtime', `NumberFormatException: For input string: "${text}" (${what})`);
  const value = Number(t.replace(/[dDfF]$/, ''));
  if (integer && (value > 2147483647 || value < -2147483648)) throw new ScriptError('runtime', `NumberFormatException: For input string: "${text}" (out of int range)`);
  return value;
}

export function javaLibrary(): Builtins {
  const list: Builtin[] = [];
  for (const [name, f] of Object.entries(DOUBLE_FUNCTIONS)) list.push(builtin(`Math.${name}`, [d(1)], num(f)));
  for (const [name, f] of Object.entries(DOUBLE2_FUNCTIONS)) list.push(builtin(`Math.${name}`, [d(2)], num(f)));
  const overloaded = (name: string, f: (...x: number[]) => number, n: number): Builtin =>
    builtin(`Math.${name}`, [
      { params: Array<string>(n).fill('int'), returns: 'int' },
      { params: Array<string>(n).fill('long'), returns: 'long' },
      d(n),
    ], (args) => {
      const r = f(...(args as number[]));
      return Object.is(r, -0) ? 0 : r;
    });
  list.push(overloaded('abs', (x) => (x === -2147483648 ? x : Math.abs(x)), 1), overloaded('max', Math.max, 2), overloaded('min', Math.min, 2));
  list.push(builtin('Math.round', [{ params: ['double'], returns: 'long' }], (a) => doubleToLong(Math.floor((a[0] as number) + 0.5))));
  list.push(builtin('Math.random', [{ params: [], returns: 'double' }], () => Math.random()));
  list.push(builtin('Integer.parseInt', [{ params: ['String'], returns: 'int' }], (a) => parse(a[0] as string, 'Integer.parseInt', true)));
  list.push(builtin('Double.parseDouble', [{ params: ['String'], returns: 'double' }], (a) => parse(a[0] as string, 'Double.parseDouble', false)));
  list.push(builtin('Double.toString', [{ params: ['double'], returns: 'String' }], (a) => formatDouble(a[0] as number)));
  list.push(builtin('Double.isNaN', [{ params: ['double'], returns: 'boolean' }], (a) => Number.isNaN(a[0])));
  list.push(builtin('Integer.toString', [{ params: ['int'], returns: 'String' }], (a) => String(a[0])));
  list.push(builtin('String.valueOf', [{ params: ['Object'], returns: 'String' }], (a, types) => javaString(a[0], types[0])));
  list.push(builtin('System.currentTimeMillis', [{ params: [], returns: 'long' }], () => Date.now()));
  list.push(builtin('System.nanoTime', [{ params: [], returns: 'long' }], () => doubleToLong(performance.now() * 1e6)));
  list.push(builtin('Math.floorDiv', [{ params: ['int', 'int'], returns: 'int' }], (a) => {
    if (a[1] === 0) throw new ScriptError('runtime', 'ArithmeticException: / by zero');
    return doubleToInt(Math.floor((a[0] as number) / (a[1] as number)));
  }));
  return new Map(list.map((b) => [b.name, b]));
}
