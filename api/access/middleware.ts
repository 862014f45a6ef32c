// The Express middleware every API route runs (registered with `registry.use` in app.ts), and that
// MCP and /ask mount too: authenticate, then count the request, then set the RateLimit-* headers or
// answer 429. /healthz and /openapi.json stay open: monitors and client generators must always reach
// them, and they touch no data.
import type { Request, RequestHandler, Response } from 'express';
import type { AppDeps } from '../deps.ts';
import { TooManyRequestsError } from '../platform/http/errors.ts';
import type { Identity } from './identity.ts';

const OPEN_ROUTES = new Set(['/healthz', '/openapi.json']);
const EXPOSED_HEADERS = 'RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, Retry-After, X-Request-Id';

/**
 * Authenticates and rate-limits one request; sets the headers; throws 401 or 429 errors. With
 * `count: false` it only authenticates (MCP counts tool calls, not its handshake messages).
 */
export async function admitRequest(deps: AppDeps, req: Request, res: Response, { count = true }: { count?: boolean } = {}): Promise<Identity> {
  const access = deps.services.access;
  const identity = await access.authenticate(req);
  req.identity = identity;
  if (!count || !access.limiter.active) return identity;
  const decision = await access.consume(identity);
  setLimitHeaders(res, decision.headers); // kept by the error handler on a 429 too
  if (!decision.allowed) {
    const who = identity.kind === 'key' ? 'this key' : 'requests without a key from your address';
    const more = identity.kind === 'key' ? '' : ' A free API key raises the limit; see /account.';
    throw new TooManyRequestsError(
      `Rate limit of ${decision.headers['RateLimit-Limit']} requests reached for ${who}; retry in ${decision.retryAfterSeconds} s.${more}`,
      decision.retryAfterSeconds,
    );
  }
  return identity;
}

function setLimitHeaders(res: Response, headers: Record<string, string>): void {
  // Browsers may read the limit headers cross-origin.
  res.setHeader('Access-Control-Expose-Headers', EXPOSED_HEADERS);
  for (const name in headers) res.setHeader(name, headers[name]!);
}

export function accessMiddleware(deps: AppDeps): RequestHandler {
  const access = deps.services.access;
  return (req, res, next) => {
    const routePath = (req.route as { path?: unknown } | undefined)?.path;
    if (typeof routePath === 'string' && OPEN_ROUTES.has(routePath)) {
      next();
      return;
    }
    // With every limit off and no key to look up there is nothing to wait for: admit at once,
    // without the promise round trips (a measurable share of a request served from memory).
    if (!access.limiter.active) {
      let identity: Identity | undefined;
      try {
        identity = access.identifyWithoutLookup(req);
      } catch (error) {
        next(error);
        return;
      }
      if (identity) {
        req.identity = identity;
        next();
        return;
      }
    }
    admitRequest(deps, req, res).then(() => next(), next);
  };
}
