// The /account page and the sign-in routes (/auth/login, /auth/callback, /auth/logout), mounted on
// the main host by registerSiteRoutes. Each decides what /account shows and has the Astro page
// (site/pages/account.astro) draw it. Forms are protected by the session's synchronizer CSRF token;
// every answer is no-store, since it shows account data or a key.
import express, { type Express, type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import type { AppDeps } from '../deps.ts';
import { ForbiddenError, HttpError } from '../platform/errors.ts';
import { ACCOUNT_CSP, type AccountView } from './account-view.ts';
import type { SsrHandler } from '../publications/render-capture.ts';
import { OidcSignIn, oidcConfigured } from './oidc.ts';
import { SessionStore, csrfTokenMatches, loadSessionSecret, type Session } from './session.ts';

interface SignIn {
  sessions: SessionStore;
  oidc: OidcSignIn | undefined;
}

/** Draws /account (site/pages/account.astro) with what it should show; without a built site, says so. */
function pageRenderer(deps: AppDeps, pages: SsrHandler | undefined) {
  return (req: Request, res: Response, next: NextFunction, status: number, view: AccountView): void => {
    res.set({
      'Cache-Control': 'no-store',
      'Content-Security-Policy': ACCOUNT_CSP,
      'X-Frame-Options': 'DENY',
      'Referrer-Policy': 'same-origin',
      'X-Content-Type-Options': 'nosniff',
    });
    if (!pages) {
      res.status(503).type('text/plain').send('The site is not built, so /account cannot be shown: run npm run build, then restart.');
      return;
    }
    // The page answers every form post and sign-in step: Astro sees a GET of /account, with the view in its locals.
    req.url = '/account';
    req.method = 'GET';
    void pages(req, res, next, { deps, account: { status, view } });
  };
}

export function registerAccessRoutes(app: Express, deps: AppDeps, pages?: SsrHandler): void {
  const show = pageRenderer(deps, pages);
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
    (handler: (req: Request, res: Response, next: NextFunction) => Promise<void>): RequestHandler =>
    (req, res, next) => {
      handler(req, res, next).catch((error: unknown) => {
        if (error instanceof HttpError && !res.headersSent) {
          res.set(error.headers);
          show(req, res, next, error.status, { kind: 'error', message: error.message });
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

  type KeysView = Extract<AccountView, { kind: 'keys' }>;
  const renderAccount = async (
    req: Request,
    res: Response,
    next: NextFunction,
    session: Session,
    extra: Partial<KeysView> = {},
    status = 200,
  ) => {
    const keys = await deps.services.access.keys.listKeys(session.accountId);
    show(req, res, next, status, { kind: 'keys', email: session.email, csrfToken: session.csrfToken, keys, ...extra });
  };

  app.get(
    '/account',
    page(async (req, res, next) => {
      // Without a provider nobody can sign in, so there is no session to look for (nor secret to load).
      if (!oidcConfigured(deps.config)) return show(req, res, next, 200, { kind: 'support', contact: deps.config.SUPPORT_CONTACT ?? null });
      const session = await getSignIn().sessions.read(req);
      if (session) return renderAccount(req, res, next, session);
      show(req, res, next, 200, { kind: 'sign-in' });
    }),
  );

  app.post(
    '/account/keys',
    form,
    page(async (req, res, next) => {
      const session = await postedSession(req);
      if (!session) return res.redirect(303, '/account');
      const name = (req.body as Record<string, unknown>).name;
      try {
        const created = await deps.services.access.keys.createKey(session.accountId, typeof name === 'string' ? name : undefined);
        deps.logger.info({ accountId: session.accountId, prefix: created.record.prefix }, 'api key created');
        await renderAccount(req, res, next, session, { newKey: { key: created.key, prefix: created.record.prefix } }, 201);
      } catch (error) {
        if (!(error instanceof HttpError) || error.status >= 500) throw error;
        await renderAccount(req, res, next, session, { message: { text: error.message, error: true } }, error.status);
      }
    }),
  );

  app.post(
    '/account/keys/revoke',
    form,
    page(async (req, res, next) => {
      const session = await postedSession(req);
      if (!session) return res.redirect(303, '/account');
      const prefix = (req.body as Record<string, unknown>).prefix;
      const revoked = await deps.services.access.keys.revokeKey(typeof prefix === 'string' ? prefix : '', session.accountId);
      deps.logger.info({ accountId: session.accountId, prefix: revoked.prefix }, 'api key revoked');
      await renderAccount(req, res, next, session, {
        message: { text: `Key ${revoked.prefix}… is revoked; it no longer works.`, error: false },
      });
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
