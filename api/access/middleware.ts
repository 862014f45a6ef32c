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
  if (!count) return identity;
  const decision = await access.consume(identity);
  // Browsers may read the limit headers cross-origin.
  res.setHeader('Access-Control-Expose-Headers', EXPOSED_HEADERS);
  res.set(decision.headers); // kept by the error handler on a 429 too
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

export function accessMiddleware(deps: AppDeps): RequestHandler {
  return (req, res, next) => {
    const routePath = (req.route as { path?: unknown } | undefined)?.path;
    if (typeof routePath === 'string' && OPEN_ROUTES.has(routePath)) {
      next();
      return;
    }
    admitRequest(deps, req, res).then(() => next(), next);
  };
}
