// JSON in which the numbers JSON cannot spell (NaN, ±Infinity, -0) are written as
// {"$num": "NaN"} and so on, so that a document of numbers round-trips exactly. Used by the
// metadata document of result files and by the result summaries kept in the store.

const SPECIAL: Record<string, number> = { NaN: NaN, Infinity: Infinity, '-Infinity': -Infinity, '-0': -0 };

function replacer(_key: string, value: unknown): unknown {
  if (typeof value !== 'number') return value;
  if (Number.isNaN(value)) return { $num: 'NaN' };
  if (value === Infinity) return { $num: 'Infinity' };
  if (value === -Infinity) return { $num: '-Infinity' };
  if (Object.is(value, -0)) return { $num: '-0' };
  return value;
}

function reviver(_key: string, value: unknown): unknown {
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const keys = Object.keys(value);
    const tag = (value as Record<string, unknown>).$num;
    if (keys.length === 1 && typeof tag === 'string' && Object.hasOwn(SPECIAL, tag)) return SPECIAL[tag];
  }
  return value;
}

/** JSON text of `value` with NaN, ±Infinity and -0 kept. */
export function stringifyExact(value: unknown): string {
  return JSON.stringify(value, replacer);
}

/** Parses stringifyExact's text (throws SyntaxError on text that is not JSON). */
export function parseExact(text: string): unknown {
  return JSON.parse(text, reviver);
}
