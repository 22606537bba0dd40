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

/** Whether the value holds a number plain JSON would change (NaN, ±Infinity written as null, -0 as 0). */
function needsTags(value: unknown): boolean {
  if (typeof value === 'number') return !Number.isFinite(value) || Object.is(value, -0);
  if (value === null || typeof value !== 'object') return false;
  if (Array.isArray(value)) return value.some(needsTags);
  for (const key in value) {
    if (needsTags((value as Record<string, unknown>)[key])) return true;
  }
  return false;
}

/**
 * JSON text of `value` with NaN, ±Infinity and -0 kept. Values without such numbers (nearly all)
 * are written by plain JSON.stringify: a replacer function would be called for every key.
 */
export function stringifyExact(value: unknown): string {
  return needsTags(value) ? JSON.stringify(value, replacer) : JSON.stringify(value);
}

/** Parses stringifyExact's text (throws SyntaxError on text that is not JSON); plain JSON.parse
 *  unless the text holds a tag. */
export function parseExact(text: string): unknown {
  return text.includes('"$num"') ? JSON.parse(text, reviver) : JSON.parse(text);
}
