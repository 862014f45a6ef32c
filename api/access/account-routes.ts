// The /account page and the sign-in routes (/auth/login, /auth/callback, /auth/logout), mounted on
// the main host by registerSiteRoutes. Forms are protected by the session's synchronizer CSRF token;
// every answer is no-store, since it shows account data or a key.
import express, { type Express, type Request, type RequestHandler, type Response } from 'express';
import type { AppDeps } from '../deps.ts';
import { ForbiddenError, HttpError } from '../platform/http/errors.ts';
import { ACCOUNT_CSP, accountPage, errorPage, signInPage, supportPage, type AccountView } from './account-page.ts';
import { OidcSignIn, oidcConfigured } from './oidc.ts';
import { SessionStore, csrfTokenMatches, loadSessionSecret, type Session } from './session.ts';

interface SignIn {
  sessions: SessionStore;
  oidc: OidcSignIn | undefined;
}

function send(res: Response, status: number, html: string): void {
  res.status(status);
  res.set({
    'Content-Type': 'text/html; charset=utf-8',
    'Cache-Control': 'no-store',
    'Content-Security-Policy': ACCOUNT_CSP,
    'X-Frame-Options': 'DENY',
    'Referrer-Policy': 'same-origin',
    'X-Content-Type-Options': 'nosniff',
  });
  res.send(html);
}

export function registerAccessRoutes(app: Express, deps: AppDeps): void {
  // Built on first use: the secret may be generated into DATA_DIR, which a bare app build must not do.
  let signIn: SignIn | undefined;
  const getSignIn = (): SignIn => {
    if (signIn) return signIn;
    const secret = loadSessionSecret(deps.config);
    signIn = {
      sessions: new SessionStore(deps.db, deps.clock, secret, deps.config),
      oidc: oidcConfigured(deps.config) ? new OidcSignIn(deps.config, secret, deps.logger) : undefined,
    };
    return signIn;
  };
  const form = express.urlencoded({ extended: false, limit: '4kb', parameterLimit: 10 });

  /** Runs a page handler; expected errors become an HTML page with their status. */
  const page =
    (handler: (req: Request, res: Response) => Promise<void>): RequestHandler =>
    (req, res, next) => {
      handler(req, res).catch((error: unknown) => {
        if (error instanceof HttpError && !res.headersSent) {
          res.set(error.headers);
          send(res, error.status, errorPage(error.status, error.message));
        } else next(error);
      });
    };

  /** The signed-in session of a form post, after checking its CSRF token. */
  const postedSession = async (req: Request): Promise<Session | undefined> => {
    if (!oidcConfigured(deps.config)) return undefined;
    const session = await getSignIn().sessions.read(req);
    if (!session) return undefined;
    if (!csrfTokenMatches(session, (req.body as Record<string, unknown> | undefined)?._csrf)) {
      throw new ForbiddenError('The form expired or did not come from this site. Reload /account and try again.');
    }
    return session;
  };

  const renderAccount = async (res: Response, session: Session, extra: Partial<AccountView> = {}, status = 200) => {
    const keys = await deps.services.access.keys.listKeys(session.accountId);
    send(res, status, accountPage(deps.config, { email: session.email, csrfToken: session.csrfToken, keys, ...extra }));
  };

  app.get(
    '/account',
    page(async (req, res) => {
      // Without a provider nobody can sign in, so there is no session to look for (nor secret to load).
      if (!oidcConfigured(deps.config)) return send(res, 200, supportPage(deps.config));
      const session = await getSignIn().sessions.read(req);
      if (session) return renderAccount(res, session);
      send(res, 200, signInPage(deps.config));
    }),
  );

  app.post(
    '/account/keys',
    form,
    page(async (req, res) => {
      const session = await postedSession(req);
      if (!session) return res.redirect(303, '/account');
      const name = (req.body as Record<string, unknown>).name;
      try {
        const created = await deps.services.access.keys.createKey(session.accountId, typeof name === 'string' ? name : undefined);
        deps.logger.info({ accountId: session.accountId, prefix: created.record.prefix }, 'api key created');
        await renderAccount(res, session, { newKey: { key: created.key, prefix: created.record.prefix } }, 201);
      } catch (error) {
        if (!(error instanceof HttpError) || error.status >= 500) throw error;
        await renderAccount(res, session, { message: { text: error.message, error: true } }, error.status);
      }
    }),
  );

  app.post(
    '/account/keys/revoke',
    form,
    page(async (req, res) => {
      const session = await postedSession(req);
      if (!session) return res.redirect(303, '/account');
      const prefix = (req.body as Record<string, unknown>).prefix;
      const revoked = await deps.services.access.keys.revokeKey(typeof prefix === 'string' ? prefix : '', session.accountId);
      deps.logger.info({ accountId: session.accountId, prefix: revoked.prefix }, 'api key revoked');
      await renderAccount(res, session, { message: { text: `Key ${revoked.prefix}… is revoked; it no longer works.`, error: false } });
    }),
  );

  app.get(
    '/auth/login',
    page(async (_req, res) => {
      const { oidc } = getSignIn();
      if (!oidc) return res.redirect(303, '/account');
      await oidc.begin(res);
    }),
  );

  app.get(
    '/auth/callback',
    page(async (req, res) => {
      const { oidc, sessions } = getSignIn();
      if (!oidc) return res.redirect(303, '/account');
      const identity = await oidc.complete(req, res);
      const account = await deps.services.access.keys.findOrCreateOidcAccount(identity);
      await sessions.start(res, account.id);
      deps.logger.info({ accountId: account.id }, 'signed in');
      res.setHeader('Cache-Control', 'no-store');
      res.redirect(303, '/account');
    }),
  );

  app.post(
    '/auth/logout',
    form,
    page(async (req, res) => {
      const session = await postedSession(req);
      if (session) await getSignIn().sessions.end(req, res);
      res.redirect(303, '/account');
    }),
  );
}
