// The access service, built once per process: the key store, the authenticator and the rate
// limiter. REST (through `accessMiddleware`), MCP and /ask share this one instance, so a key's budget
// is one budget whichever face it calls.
import type { Request } from 'express';
import type { Database } from '../platform/db/database.ts';
import type { Logger } from '../platform/logger.ts';
import type { Clock } from '../platform/clock.ts';
import { KeyStore } from './key-store.ts';
import { createAuthenticator, extractApiKey, type Identity, type KeyPolicy } from './identity.ts';
import { clientBucket, createLimiter, type LimitConfig, type LimitDecision, type Limiter } from './limiter.ts';
import { TooManyRequestsError, UnauthorizedError } from '../platform/errors.ts';

export interface AccessService {
  keys: KeyStore;
  limiter: Limiter;
  /** See Authenticator.identifyWithoutLookup: the identity when no key was sent, else undefined. */
  identifyWithoutLookup(req: Request): Identity | undefined;
  /** See Authenticator.authenticate: throws UnauthorizedError for a bad key or a required one. */
  authenticate(req: Request): Promise<Identity>;
  /** Counts one request (or `points`: an MCP batch's calls) against the identity's budgets and returns the headers to send. */
  consume(identity: Identity, points?: number): Promise<LimitDecision>;
  close(): Promise<void>;
}

/** The settings access reads: the key policy (whether a key is required, where to get one) and the rate limits with their store. */
export type AccessSettings = KeyPolicy & LimitConfig;

/** The access settings out of the whole configuration, field by field, so the service is handed those alone. */
export function accessSettings(config: AccessSettings): AccessSettings {
  return {
    REQUIRE_API_KEY: config.REQUIRE_API_KEY,
    baseUrl: config.baseUrl,
    OIDC_ISSUER: config.OIDC_ISSUER,
    SUPPORT_CONTACT: config.SUPPORT_CONTACT,
    RATE_LIMIT_ANON_PER_MINUTE: config.RATE_LIMIT_ANON_PER_MINUTE,
    RATE_LIMIT_KEY_PER_MINUTE: config.RATE_LIMIT_KEY_PER_MINUTE,
    RATE_LIMIT_PER_HOUR: config.RATE_LIMIT_PER_HOUR,
    RATE_LIMIT_STORE: config.RATE_LIMIT_STORE,
    REDIS_URL: config.REDIS_URL,
    DATABASE_URL: config.DATABASE_URL,
  };
}

export async function createAccessService({
  db,
  clock,
  logger,
  ...settings
}: { db: Database; clock: Clock; logger: Logger } & AccessSettings): Promise<AccessService> {
  const keys = new KeyStore(db, clock);
  const authenticator = createAuthenticator(keys, settings);
  const limiter = await createLimiter(settings, db.kind, logger);
  return {
    keys,
    limiter,
    // The authenticator's own function (it reads no `this`): no wrapper on every request's path.
    identifyWithoutLookup: authenticator.identifyWithoutLookup,
    async authenticate(req) {
      if (extractApiKey(req) === undefined) return authenticator.authenticate(req);
      // A key is looked up only when its address has not failed too often (./key-guesses.ts).
      const bucket = clientBucket(req.ip ?? req.socket.remoteAddress ?? 'unknown');
      const wait = await limiter.keyGuesses.waitFor(bucket);
      if (wait > 0)
        throw new TooManyRequestsError(`Too many invalid API keys were sent from your address; retry in ${wait} s with a valid key.`, wait);
      try {
        return await authenticator.authenticate(req);
      } catch (error) {
        if (error instanceof UnauthorizedError) await limiter.keyGuesses.failed(bucket);
        throw error;
      }
    },
    consume: (identity, points) => limiter.consume(identity, points),
    close: () => limiter.close(),
  };
}
