// tsoa's authenticationModule (tsoa.json): the per-operation check behind @Security('api_key'),
// which also puts the requirement into the OpenAPI description. It applies the same rule as the
// global middleware in auth.ts (which also covers routes outside tsoa), with the keys of the
// service that received the request.
import type { Request as KoaRequest } from 'koa';
import { KeyChecker } from '../http/auth.js';
import { servicesOf } from './context.js';
import { AppError } from '../http/errors.js';

const checkers = new WeakMap<readonly string[], KeyChecker>();

export async function koaAuthentication(request: KoaRequest, securityName: string): Promise<{ apiKey: boolean }> {
  const { config } = servicesOf(request);
  if (securityName !== 'api_key') throw new AppError(500, 'INTERNAL_ERROR', `Unknown security scheme ${securityName}`);
  if (!config.authEnabled) return { apiKey: false };
  let checker = checkers.get(config.apiKeys);
  if (!checker) {
    checker = new KeyChecker(config.apiKeys);
    checkers.set(config.apiKeys, checker);
  }
  const header = request.get('X-API-Key');
  if (!checker.accepts(header || undefined)) {
    throw new AppError(401, 'UNAUTHORIZED', header ? 'The X-API-Key header does not carry a valid API key' : 'This endpoint needs an API key in the X-API-Key header');
  }
  return { apiKey: true };
}
