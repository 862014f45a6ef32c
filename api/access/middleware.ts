// The Express middleware every API route runs (registered with `registry.use` in app.ts), and that
// MCP and /ask mount too: authenticate, then count the request, then set the RateLimit-* headers or
// answer 429. An answer to a keyed request is kept out of shared caches (./private-answers.ts).
// /healthz and /openapi.json stay open: monitors and client generators must always reach them, and
// they touch no data.
import type { ServerResponse } from 'node:http';
import type { Request, RequestHandler, Response } from 'express';
import type { UsesServices } from '../domain-services.ts';
import { TooManyRequestsError } from '../platform/errors.ts';
import type { Identity } from './identity.ts';
import type { LimitDecision } from './limiter.ts';
import { keepAnswerPrivate } from './private-answers.ts';

/** Admission reads the access service (keys, sessions, counts) and nothing else. */
type AccessDeps = UsesServices<'access'>;

const OPEN_ROUTES = new Set(['/healthz', '/openapi.json']);

/**
 * Authenticates and rate-limits one request; sets the headers; throws 401 or 429 errors. `count` is
 * the requests it stands for (an MCP batch stands for each call in it), counted all or none.
 */
export async function admitRequest(
  deps: AccessDeps,
  req: Request,
  res: Response,
  { count = 1 }: { count?: number } = {},
): Promise<Identity> {
  const access = deps.services.access;
  // A caller without a key needs no look-up (nor the key-guess guard that comes with one).
  const identity = access.identifyWithoutLookup(req) ?? (await access.authenticate(req));
  req.identity = identity;
  if (identity.kind === 'key') keepAnswerPrivate(res);
  if (count > 0 && access.limiter.active) applyDecision(res, identity, await access.consume(identity, count));
  return identity;
}

/** Sets the RateLimit-* headers (kept by the error handler on a 429 too); throws the 429 on a refusal. */
function applyDecision(res: ServerResponse, identity: Identity, decision: LimitDecision): void {
  for (const name in decision.headers) res.setHeader(name, decision.headers[name]!);
  if (decision.allowed) return;
  const who = identity.kind === 'key' ? 'this key' : 'requests without a key from your address';
  const more = identity.kind === 'key' ? '' : ' A free API key raises the limit; see /account.';
  throw new TooManyRequestsError(
    `Rate limit of ${decision.headers['RateLimit-Limit']} requests reached for ${who}; retry in ${decision.retryAfterSeconds} s.${more}`,
    decision.retryAfterSeconds,
  );
}

export function accessMiddleware(deps: AccessDeps): RequestHandler {
  const access = deps.services.access;
  return (req, res, next) => {
    const routePath = (req.route as { path?: unknown } | undefined)?.path;
    if (typeof routePath === 'string' && OPEN_ROUTES.has(routePath)) {
      next();
      return;
    }
    // Most requests carry no key: their identity needs no look-up, and with limits off nothing is
    // awaited at all. Every promise saved here is a measurable share of a request served from memory.
    let identity: Identity | undefined;
    try {
      identity = access.identifyWithoutLookup(req);
    } catch (error) {
      next(error);
      return;
    }
    if (identity === undefined) {
      admitRequest(deps, req, res).then(() => next(), next);
      return;
    }
    req.identity = identity;
    const anonymous = identity;
    countWithoutKey(
      deps,
      () => anonymous,
      res,
      () => next(),
      next,
    );
  };
}

/**
 * Counts a request from a caller without a key against the limits: sets the RateLimit-* headers and
 * calls `admitted`, or calls `refused` with the 429. The memory store decides at once; the shared
 * stores are awaited. The middleware above uses it, and so does the front door for the kept
 * answers Express never sees (api/front-door.ts); the identity is asked for only when limits are on.
 */
export function countWithoutKey(
  deps: AccessDeps,
  identityOf: () => Identity,
  res: ServerResponse,
  admitted: () => void,
  refused: (error: unknown) => void,
): void {
  const limiter = deps.services.access.limiter;
  if (!limiter.active) {
    admitted();
    return;
  }
  const identity = identityOf();
  const admit = (decision: LimitDecision) => {
    try {
      applyDecision(res, identity, decision);
    } catch (error) {
      refused(error);
      return;
    }
    admitted();
  };
  const decision = limiter.consumeNow(identity);
  if (decision !== undefined) admit(decision);
  else deps.services.access.consume(identity).then(admit, refused);
}
