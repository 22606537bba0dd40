// Paging query parameters shared by the list endpoints: limit (default 100, 1–1000) and offset (≥ 0).
import { validationError } from './errors.js';

export function paging(limit: number | undefined, offset: number | undefined): { limit: number; offset: number } {
  const l = limit ?? 100;
  const o = offset ?? 0;
  if (!Number.isInteger(l) || l < 1 || l > 1000) throw validationError(`limit must be an integer from 1 to 1000, got ${limit}`, [{ field: 'limit', message: 'must be an integer from 1 to 1000' }]);
  if (!Number.isInteger(o) || o < 0) throw validationError(`offset must be a non-negative integer, got ${offset}`, [{ field: 'offset', message: 'must be a non-negative integer' }]);
  return { limit: l, offset: o };
}
