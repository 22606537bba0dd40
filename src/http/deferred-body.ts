// Body parsing (koa-body: JSON, urlencoded, text, multipart through formidable) loaded when it is
// first needed instead of when the service starts. koa-body and what it pulls in (zod, formidable,
// co-body) are ≈ 0.15 s of module loading, a third of a service's start-up, and only a request
// with a body needs them: the returned middleware passes every other request straight on, loads
// koa-body on the first POST, PUT or PATCH (koa-body's default parsed methods) and from then on is
// koa-body itself. `preload()` starts the loading early (a service calls it once it listens), so
// that the first upload does not wait for it. Same options, same parsing, same errors as calling
// koaBody(options) directly.
import type { Context, Middleware, Next } from 'koa';
import type { KoaBodyMiddlewareOptions } from 'koa-body';

/** The methods koa-body parses by default (its `parsedMethods`); the others never carry a body for it. */
const PARSED_METHODS = new Set(['POST', 'PUT', 'PATCH']);

export interface DeferredBodyParser {
  middleware: Middleware;
  /** Starts loading koa-body now; resolves once it is ready (or rejects when it cannot load). */
  preload(): Promise<void>;
}

export function deferredKoaBody(options: Partial<KoaBodyMiddlewareOptions>): DeferredBodyParser {
  if (options.parsedMethods) throw new RangeError('deferredKoaBody parses POST, PUT and PATCH only (koa-body\'s default); parsedMethods cannot be changed');
  let loading: Promise<Middleware> | undefined;
  const load = (): Promise<Middleware> => {
    loading ??= import('koa-body').then(({ koaBody }) => koaBody(options) as Middleware);
    return loading;
  };
  const middleware = async function parseBody(ctx: Context, next: Next): Promise<void> {
    if (!PARSED_METHODS.has(ctx.method.toUpperCase())) return next();
    const parse = await load();
    return parse(ctx, next) as Promise<void>;
  };
  return { middleware, preload: () => load().then(() => undefined) };
}
