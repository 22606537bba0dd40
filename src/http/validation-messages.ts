// tsoa's validation messages made readable for people: a union of string literals (an enum such as
// solverType) reports one "should be one of the following; ['x']" per member inside a JSON dump;
// both services show it as the list of allowed values instead.

/** The allowed values named by a tsoa enum/union message, or undefined for other messages. */
export function allowedValuesOf(message: string): string[] | undefined {
  const lists = [...message.matchAll(/should be one of the following; \[([^\]]*)\]/g)];
  if (lists.length === 0) return undefined;
  const values = lists.flatMap((m) => m[1].split(',').map((v) => v.trim().replace(/^'(.*)'$/, '$1')));
  return [...new Set(values)];
}

/** What tsoa's messages for a value of the wrong type expected. */
const EXPECTED: Record<string, string> = {
  'invalid float number': 'a number',
  'invalid double number': 'a number',
  'invalid integer number': 'an integer',
  'invalid long number': 'an integer',
  'invalid string value': 'a string',
  'invalid boolean value': 'true or false',
  'invalid array': 'an array',
};

/** A value as a message quotes it: JSON, cut after 40 characters. */
function quoted(value: unknown): string {
  const text = value === undefined ? 'nothing' : JSON.stringify(value) ?? String(value);
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}

/** A tsoa field message as one sentence a person can act on (`value`: the value at fault, if known). */
export function readableValidationMessage(message: string, value?: unknown): string {
  const allowed = allowedValuesOf(message);
  if (allowed) return `must be one of ${allowed.join(', ')}`;
  const expected = EXPECTED[message];
  return expected ? `must be ${expected}, got ${quoted(value)}` : message;
}
