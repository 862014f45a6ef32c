// Sign-in with any OpenID Connect provider (openid-client v6): authorization code flow with PKCE,
// state and nonce. The three values travel in a short-lived signed cookie scoped to /auth, so no
// server-side state exists before the callback.
import * as client from 'openid-client';
import type { Request, Response } from 'express';
import type { Config } from '../config.ts';
import { BadRequestError, ServiceUnavailableError } from '../platform/errors.ts';
import type { Logger } from '../platform/logger.ts';
import { readSignedCookie, setSignedCookie } from './session.ts';
import type { OidcIdentity } from './key-store.ts';

const LOGIN_COOKIE = 'mds_oidc';
const LOGIN_MAX_AGE_SECONDS = 600;

type OidcConfig = Pick<Config, 'OIDC_ISSUER' | 'OIDC_CLIENT_ID' | 'OIDC_CLIENT_SECRET' | 'baseUrl'>;

export function oidcConfigured(config: OidcConfig): boolean {
  return config.OIDC_ISSUER !== undefined && config.OIDC_CLIENT_ID !== undefined;
}

interface PendingLogin {
  state: string;
  nonce: string;
  verifier: string;
  expires: number;
}

function isLoopback(url: URL): boolean {
  return ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
}

export class OidcSignIn {
  private readonly config: OidcConfig;
  private readonly secret: string;
  private readonly logger: Logger;
  private discovered: Promise<client.Configuration> | undefined;

  constructor(config: OidcConfig, secret: string, logger: Logger) {
    this.config = config;
    this.secret = secret;
    this.logger = logger;
  }

  get redirectUri(): string {
    return `${this.config.baseUrl}/auth/callback`;
  }

  /** Discovers the provider once; a failure is retried on the next sign-in rather than cached. */
  private configuration(): Promise<client.Configuration> {
    const issuer = new URL(this.config.OIDC_ISSUER!);
    this.discovered ??= client
      .discovery(
        issuer,
        this.config.OIDC_CLIENT_ID!,
        this.config.OIDC_CLIENT_SECRET,
        this.config.OIDC_CLIENT_SECRET === undefined ? client.None() : undefined,
        // Plain HTTP only for a provider on this machine (development, tests); never across a network.
        issuer.protocol === 'http:' && isLoopback(issuer) ? { execute: [client.allowInsecureRequests], timeout: 10 } : { timeout: 10 },
      )
      .catch((error: unknown) => {
        this.discovered = undefined;
        this.logger.warn({ err: (error as Error).message, issuer: issuer.href }, 'OpenID Connect discovery failed');
        throw new ServiceUnavailableError('The sign-in provider cannot be reached right now; please try again in a minute.', 60);
      });
    return this.discovered;
  }

  /** Sends the browser to the provider, remembering state, nonce and the PKCE verifier. */
  async begin(res: Response): Promise<void> {
    const configuration = await this.configuration();
    const verifier = client.randomPKCECodeVerifier();
    const pending: PendingLogin = {
      state: client.randomState(),
      nonce: client.randomNonce(),
      verifier,
      expires: Date.now() + LOGIN_MAX_AGE_SECONDS * 1000,
    };
    const url = client.buildAuthorizationUrl(configuration, {
      redirect_uri: this.redirectUri,
      scope: 'openid email',
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state: pending.state,
      nonce: pending.nonce,
    });
    const encoded = Buffer.from(JSON.stringify(pending)).toString('base64url');
    setSignedCookie(res, this.config, {
      name: LOGIN_COOKIE,
      value: encoded,
      secret: this.secret,
      path: '/auth',
      maxAgeSeconds: LOGIN_MAX_AGE_SECONDS,
    });
    res.redirect(303, url.href);
  }

  /** Completes the code exchange on the callback and returns who signed in. */
  async complete(req: Request, res: Response): Promise<OidcIdentity> {
    const encoded = readSignedCookie(req, LOGIN_COOKIE, this.secret);
    res.clearCookie(LOGIN_COOKIE, { path: '/auth' });
    let pending: PendingLogin | undefined;
    try {
      pending = encoded === undefined ? undefined : (JSON.parse(Buffer.from(encoded, 'base64url').toString('utf8')) as PendingLogin);
    } catch {
      pending = undefined;
    }
    if (pending === undefined || pending.expires < Date.now()) {
      throw new BadRequestError('The sign-in took too long or was started in another browser. Start again from /account.');
    }
    if (typeof req.query.error === 'string') {
      throw new BadRequestError('Sign-in was cancelled or refused by the provider. Start again from /account.');
    }
    const configuration = await this.configuration();
    const currentUrl = new URL(req.originalUrl, this.config.baseUrl);
    let tokens: Awaited<ReturnType<typeof client.authorizationCodeGrant>>;
    try {
      tokens = await client.authorizationCodeGrant(configuration, currentUrl, {
        pkceCodeVerifier: pending.verifier,
        expectedState: pending.state,
        expectedNonce: pending.nonce,
      });
    } catch (error) {
      this.logger.warn({ err: (error as Error).message }, 'OpenID Connect code exchange failed');
      throw new BadRequestError("Sign-in could not be completed (the provider's answer did not check out). Start again from /account.");
    }
    const claims = tokens.claims();
    if (!claims) throw new BadRequestError('The sign-in provider returned no ID token. Start again from /account.');
    let profile: { email?: unknown; email_verified?: unknown } = { email: claims.email, email_verified: claims.email_verified };
    // Many providers put scope-derived claims (email) only in the UserInfo response, not the ID token.
    if (typeof claims.email !== 'string' && configuration.serverMetadata().userinfo_endpoint !== undefined) {
      profile = await client.fetchUserInfo(configuration, tokens.access_token, claims.sub).catch((error: unknown) => {
        this.logger.warn({ err: (error as Error).message }, 'OpenID Connect userinfo request failed; signing in without an email');
        return {};
      });
    }
    return {
      issuer: claims.iss,
      subject: claims.sub,
      email: typeof profile.email === 'string' ? profile.email : undefined,
      emailVerified: profile.email_verified === true,
    };
  }
}
