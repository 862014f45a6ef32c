// Sign-in sessions: a random id in an HMAC-signed, HttpOnly, SameSite=Lax cookie (read by `cookie`,
// signed by `cookie-signature`, the libraries Express uses); the database keeps the id's hash, the
// account, a CSRF token and an expiry. The secret comes from SESSION_SECRET or is generated once and
// kept under DATA_DIR, so sessions survive restarts.
import fs from 'node:fs';
import path from 'node:path';
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { parseCookie } from 'cookie';
import { sign, unsign } from 'cookie-signature';
import type { Request, Response } from 'express';
import type { Config } from '../config.ts';
import type { Clock } from '../platform/clock.ts';
import type { Database } from '../platform/db/database.ts';
import { DAY_MS } from '../platform/dates.ts';

export const SESSION_COOKIE = 'mds_session';
const SESSION_DAYS = 7;

/** SESSION_SECRET, or a secret generated on first use and kept in DATA_DIR/session-secret (0600). */
export function loadSessionSecret(config: Pick<Config, 'SESSION_SECRET' | 'dataDir'>): string {
  if (config.SESSION_SECRET !== undefined) return config.SESSION_SECRET;
  const file = path.join(config.dataDir, 'session-secret');
  try {
    return fs.readFileSync(file, 'utf8').trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  fs.mkdirSync(config.dataDir, { recursive: true });
  const secret = randomBytes(32).toString('base64url');
  try {
    fs.writeFileSync(file, secret, { mode: 0o600, flag: 'wx' });
    return secret;
  } catch (error) {
    // Another instance sharing the folder wrote it first: use theirs.
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return fs.readFileSync(file, 'utf8').trim();
    throw error;
  }
}

/** The value of the request's cookie `name` if `secret` signed it; undefined when absent or not ours. */
export function readSignedCookie(req: Pick<Request, 'headers'>, name: string, secret: string): string | undefined {
  const signed = parseCookie(req.headers.cookie ?? '')[name];
  const value = signed === undefined ? false : unsign(signed, secret);
  return value === false ? undefined : value;
}

/** Sets cookie `name` to `value` signed with `secret` (HMAC-SHA256): HttpOnly, SameSite=Lax, Secure behind https. */
export function setSignedCookie(
  res: Response,
  config: Pick<Config, 'baseUrl'>,
  cookie: { name: string; value: string; secret: string; path: string; maxAgeSeconds: number },
): void {
  res.cookie(cookie.name, sign(cookie.value, cookie.secret), {
    httpOnly: true,
    sameSite: 'lax',
    secure: config.baseUrl.startsWith('https:'),
    path: cookie.path,
    maxAge: cookie.maxAgeSeconds * 1000,
  });
}

export interface Session {
  accountId: string;
  email: string | null;
  csrfToken: string;
}

const hashId = (id: string) => createHash('sha256').update(id).digest('hex');

export class SessionStore {
  private readonly db: Database;
  private readonly clock: Clock;
  private readonly secret: string;
  private readonly config: Pick<Config, 'baseUrl'>;

  constructor(db: Database, clock: Clock, secret: string, config: Pick<Config, 'baseUrl'>) {
    this.db = db;
    this.clock = clock;
    this.secret = secret;
    this.config = config;
  }

  /** Starts a session for the account and sets its cookie (a fresh id: no session fixation). */
  async start(res: Response, accountId: string): Promise<void> {
    const id = randomBytes(32).toString('base64url');
    const expires = new Date(this.clock().getTime() + SESSION_DAYS * DAY_MS);
    await this.db.query('DELETE FROM sessions WHERE expires_at < $1', [this.clock()]);
    await this.db.query('INSERT INTO sessions (id_hash, account_id, csrf_token, expires_at) VALUES ($1, $2, $3, $4)', [
      hashId(id),
      accountId,
      randomBytes(24).toString('base64url'),
      expires,
    ]);
    setSignedCookie(res, this.config, {
      name: SESSION_COOKIE,
      value: id,
      secret: this.secret,
      path: '/',
      maxAgeSeconds: SESSION_DAYS * 86_400,
    });
  }

  /** The request's live session, or undefined (no cookie, bad signature, unknown or expired). */
  async read(req: Request): Promise<Session | undefined> {
    const id = readSignedCookie(req, SESSION_COOKIE, this.secret);
    if (id === undefined) return undefined;
    const { rows } = await this.db.query<{ account_id: string; email: string | null; csrf_token: string }>(
      `SELECT s.account_id::text AS account_id, a.email, s.csrf_token
       FROM sessions s JOIN accounts a ON a.id = s.account_id
       WHERE s.id_hash = $1 AND s.expires_at > $2`,
      [hashId(id), this.clock()],
    );
    const row = rows[0];
    return row ? { accountId: row.account_id, email: row.email, csrfToken: row.csrf_token } : undefined;
  }

  async end(req: Request, res: Response): Promise<void> {
    const id = readSignedCookie(req, SESSION_COOKIE, this.secret);
    if (id !== undefined) await this.db.query('DELETE FROM sessions WHERE id_hash = $1', [hashId(id)]);
    res.clearCookie(SESSION_COOKIE, { path: '/', httpOnly: true, sameSite: 'lax', secure: this.config.baseUrl.startsWith('https:') });
  }
}

/** Constant-time check of a submitted CSRF token against the session's (synchronizer token). */
export function csrfTokenMatches(session: Session, submitted: unknown): boolean {
  if (typeof submitted !== 'string') return false;
  const expected = Buffer.from(session.csrfToken);
  const given = Buffer.from(submitted);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
