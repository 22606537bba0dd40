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

/** A tsoa field message as one sentence a person can act on. */
export function readableValidationMessage(message: string): string {
  const allowed = allowedValuesOf(message);
  return allowed ? `must be one of ${allowed.join(', ')}` : message;
}
