// The values of a swept parameter as typed in the sweep form: a list or an evenly spaced range.

/** "1, 2, 5" or "start:stop:count" (count values evenly spaced). Throws with what was expected. */
export function parseValues(text: string, field: string): number[] {
  const range = /^\s*([^:]+):([^:]+):(\d+)\s*$/.exec(text);
  if (range) {
    const [a, b, n] = [Number(range[1]), Number(range[2]), Number(range[3])];
    if (!Number.isFinite(a) || !Number.isFinite(b) || n < 1) throw new Error(`${field}: expected start:stop:count with numbers`);
    return Array.from({ length: n }, (_, i) => (n === 1 ? a : a + ((b - a) * i) / (n - 1)));
  }
  const values = text.split(/[\s,;]+/).filter(Boolean).map(Number);
  if (values.length === 0 || values.some((v) => !Number.isFinite(v))) throw new Error(`${field}: expected numbers separated by commas, or start:stop:count`);
  return values;
}
