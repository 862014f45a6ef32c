// The access service, built once per process: the key store, the authenticator and the rate
// limiter. REST (through `accessMiddleware`), MCP and /ask share this one instance, so a key's budget
// is one budget whichever face it calls.
import type { Request } from 'express';
import type { CoreDeps } from '../deps.ts';
import { KeyStore } from './key-store.ts';
import { createAuthenticator, type Identity } from './identity.ts';
import { createLimiter, type LimitDecision, type Limiter } from './limiter.ts';

export interface AccessService {
  keys: KeyStore;
  limiter: Limiter;
  /** See Authenticator.identifyWithoutLookup: the identity when no key was sent, else undefined. */
  identifyWithoutLookup(req: Request): Identity | undefined;
  /** See Authenticator.authenticate: throws UnauthorizedError for a bad key or a required one. */
  authenticate(req: Request): Promise<Identity>;
  /** Counts one request against the identity's budgets and returns the headers to send. */
  consume(identity: Identity): Promise<LimitDecision>;
  close(): Promise<void>;
}

export async function createAccessService(core: CoreDeps): Promise<AccessService> {
  const keys = new KeyStore(core.db, core.clock);
  const authenticator = createAuthenticator(keys, core.config);
  const limiter = await createLimiter(core.config, core.db.kind, core.logger);
  return {
    keys,
    limiter,
    identifyWithoutLookup: (req) => authenticator.identifyWithoutLookup(req),
    authenticate: (req) => authenticator.authenticate(req),
    consume: (identity) => limiter.consume(identity),
    close: () => limiter.close(),
  };
}
