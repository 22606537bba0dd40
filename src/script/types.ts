// Static types of the scripting language (Java's rules for the types scripts use): int, long,
// double, float, boolean, String and arrays of them. Types are checked when a script is compiled,
// so that `1 / 2` is integer division and `"" + 1.0` prints `1.0`, exactly as in Java.

/** `int`, `long`, `double`, `float`, `boolean`, `String`, `void`, `null`, `Object`, arrays `double[]`. */
export type TypeName = string;

const ALIASES: Record<string, TypeName> = { short: 'int', byte: 'int', char: 'String' };

/** Maps `short`/`byte` to int; arrays keep their dimensions. */
export function normalizeType(type: TypeName): TypeName {
  const base = type.replace(/(\[\])+$/, '');
  return (ALIASES[base] ?? base) + type.slice(base.length);
}

export const isArray = (t: TypeName): boolean => t.endsWith('[]');
export const elementType = (t: TypeName): TypeName => t.slice(0, -2);
export const isNumeric = (t: TypeName): boolean => t === 'int' || t === 'long' || t === 'double' || t === 'float';
export const isIntegral = (t: TypeName): boolean => t === 'int' || t === 'long';

/** Binary numeric promotion: double if either is floating, long if either is long, else int. */
export function promote(a: TypeName, b: TypeName): TypeName {
  if (a === 'double' || b === 'double') return 'double';
  if (a === 'float' || b === 'float') return 'float';
  if (a === 'long' || b === 'long') return 'long';
  return 'int';
}

const WIDENS: Record<string, string[]> = { int: ['long', 'float', 'double'], long: ['float', 'double'], float: ['double'] };

/** Assignment conversion: identity, widening of numbers, null to String and arrays, anything to Object. */
export function assignable(from: TypeName, to: TypeName): boolean {
  if (from === to || to === 'Object') return true;
  if (from === 'null') return to === 'String' || isArray(to);
  if (WIDENS[from]?.includes(to)) return true;
  // float[] results (getSignalData) may be read as double[] (the values are doubles here).
  return from === 'float[]' && to === 'double[]';
}

/** The initial value of a field or array element of the type (Java's defaults). */
export function defaultValue(type: TypeName): unknown {
  if (isNumeric(type)) return 0;
  if (type === 'boolean') return false;
  return null;
}

/** Java's narrowing of a double to int: toward zero, saturating, NaN to 0. */
export function doubleToInt(x: number): number {
  if (Number.isNaN(x)) return 0;
  if (x >= 2147483647) return 2147483647;
  if (x <= -2147483648) return -2147483648;
  return Math.trunc(x);
}

export function doubleToLong(x: number): number {
  if (Number.isNaN(x)) return 0;
  return Math.trunc(x);
}

/** Converts a value of numeric type `from` to numeric type `to` (casts, compound assignments). */
export function convertNumber(x: number, from: TypeName, to: TypeName): number {
  if (to === 'int') return from === 'int' ? x : from === 'long' ? Number(BigInt.asIntN(32, BigInt(x))) : doubleToInt(x);
  if (to === 'long') return from === 'double' || from === 'float' ? doubleToLong(x) : x;
  if (to === 'float') return Math.fround(x);
  return x;
}
