// Who is calling: the key from any of its four places (X-API-Key, Authorization: Bearer, ?api_key,
// ?secret; docs/access.md), checked against the database.
// REST (via the middleware), MCP and /ask all call `authenticate`, so the rules are one.
import type { Request } from 'express';
import type { Config } from '../config.ts';
import { UnauthorizedError } from '../platform/errors.ts';
import type { KeyStore } from './key-store.ts';

export type Identity = { kind: 'anonymous'; ip: string } | { kind: 'key'; keyId: string; accountId: string; ip: string };

declare module 'express-serve-static-core' {
  interface Request {
    /** Set by the access middleware on API routes. */
    identity?: Identity;
  }
}

function single(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (Array.isArray(value) && typeof value[0] === 'string') return value[0];
  return undefined;
}

/**
 * The key a request carries, in the order `X-API-Key`, `Authorization: Bearer`, `api_key=`,
 * `secret=`; undefined when none is present. An empty value counts as present (and invalid).
 */
export function extractApiKey(req: Pick<Request, 'headers' | 'query' | 'url'>): string | undefined {
  const header = single(req.headers['x-api-key']);
  if (header !== undefined) return header.trim();
  const authorization = single(req.headers.authorization);
  if (authorization !== undefined) {
    const match = /^Bearer\s+(.*)$/i.exec(authorization.trim());
    if (match) return (match[1] ?? '').trim();
  }
  // Express parses the query string on every read of req.query: skip it when there is none.
  if (!req.url.includes('?')) return undefined;
  const query = req.query as Record<string, unknown>;
  for (const name of ['api_key', 'secret']) {
    const value = single(query[name]);
    if (value !== undefined) return value.trim();
  }
  return undefined;
}

/** What a 401 says: how to get a key, so the caller can fix it. */
export function howToGetAKey(config: Pick<Config, 'baseUrl' | 'OIDC_ISSUER' | 'SUPPORT_CONTACT'>): string {
  const support = config.SUPPORT_CONTACT ?? 'the operator of this service';
  const get =
    config.OIDC_ISSUER === undefined
      ? `Ask ${support} for a free key (see ${config.baseUrl}/account).`
      : `Get a free key by signing in at ${config.baseUrl}/account, or ask ${support}.`;
  return `${get} Send it as the X-API-Key header, Authorization: Bearer, or the api_key or secret query parameter.`;
}

export interface Authenticator {
  /**
   * The caller's identity when it needs no database look-up (no key sent), else undefined. Throws
   * UnauthorizedError when keys are required and none was sent.
   */
  identifyWithoutLookup(req: Request): Identity | undefined;
  /**
   * The caller's identity. Throws UnauthorizedError when a key is present but unknown or revoked
   * (never a silent fall-back to anonymous), and when keys are required and none was sent.
   */
  authenticate(req: Request): Promise<Identity>;
}

/** The settings the authenticator reads: whether a key is required, and where to get one (a 401's advice). */
export type KeyPolicy = Pick<Config, 'REQUIRE_API_KEY' | 'baseUrl' | 'OIDC_ISSUER' | 'SUPPORT_CONTACT'>;

export function createAuthenticator(store: KeyStore, config: KeyPolicy): Authenticator {
  const clientIp = (req: Request) => req.ip ?? req.socket.remoteAddress ?? 'unknown';
  /** A caller without a key: anonymous, unless keys are required. */
  const anonymous = (req: Request): Identity => {
    if (config.REQUIRE_API_KEY) throw new UnauthorizedError(`This service requires an API key. ${howToGetAKey(config)}`);
    return { kind: 'anonymous', ip: clientIp(req) };
  };
  return {
    identifyWithoutLookup: (req) => (extractApiKey(req) === undefined ? anonymous(req) : undefined),
    async authenticate(req) {
      const key = extractApiKey(req);
      if (key === undefined) return anonymous(req);
      const check = await store.verify(key);
      if (!check.valid) {
        const problem = check.reason === 'revoked' ? 'The API key has been revoked.' : 'The API key is not valid.';
        throw new UnauthorizedError(`${problem} ${howToGetAKey(config)}`);
      }
      return { kind: 'key', keyId: check.keyId, accountId: check.accountId, ip: clientIp(req) };
    },
  };
}
