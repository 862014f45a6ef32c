// Accounts and their API keys in the database: create (at most 3 active per account), list, revoke,
// and verify a presented key. Used by the /account page, the `npm run keys` support path and the
// authentication of every API request, so all three apply the same rules.
import type { Clock } from '../platform/clock.ts';
import type { Database } from '../platform/db/database.ts';
import { BadRequestError, ConflictError, NotFoundError } from '../platform/errors.ts';
import { displayPrefix, generateKey, keyMatchesHash, keyPrefixOf, parsePrefix } from './key-format.ts';

export const MAX_ACTIVE_KEYS = 3;
const MAX_NAME_LENGTH = 60;
/** last_used_at is written at most this often per key, so a busy key costs no write per request. */
const LAST_USED_RESOLUTION_MS = 60_000;
const EMAIL_PATTERN = /^[^\s@]{1,64}@[^\s@]{1,255}$/;

export interface Account {
  id: string;
  email: string | null;
}

export interface KeyRecord {
  prefix: string;
  name: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
  status: 'active' | 'revoked';
}

export type KeyCheck = { valid: true; keyId: string; accountId: string } | { valid: false; reason: 'unknown' | 'revoked' };

interface KeyRow {
  id: string;
  account_id: string;
  prefix: string;
  key_hash: string;
  name: string;
  created_at: Date | string;
  last_used_at: Date | string | null;
  revoked_at: Date | string | null;
}

const toDate = (value: Date | string | null): Date | null => (value === null ? null : new Date(value));

function toRecord(row: KeyRow): KeyRecord {
  return {
    prefix: displayPrefix(row.prefix),
    name: row.name,
    createdAt: new Date(row.created_at),
    lastUsedAt: toDate(row.last_used_at),
    revokedAt: toDate(row.revoked_at),
    status: row.revoked_at === null ? 'active' : 'revoked',
  };
}

export function normaliseEmail(email: string): string {
  const trimmed = email.trim();
  if (!EMAIL_PATTERN.test(trimmed)) throw new BadRequestError(`"${email}" is not an email address; give one like name@example.org.`);
  return trimmed;
}

export function normaliseKeyName(name: string | undefined): string {
  const trimmed = (name ?? '').replace(/\s+/g, ' ').trim();
  if (trimmed.length > MAX_NAME_LENGTH) throw new BadRequestError(`A key name may have at most ${MAX_NAME_LENGTH} characters.`);
  return trimmed;
}

export interface OidcIdentity {
  issuer: string;
  subject: string;
  email: string | undefined;
  emailVerified: boolean;
}

export class KeyStore {
  private readonly db: Database;
  private readonly clock: Clock;
  private readonly lastTouched = new Map<string, number>();

  constructor(db: Database, clock: Clock) {
    this.db = db;
    this.clock = clock;
  }

  async findAccountByEmail(email: string): Promise<Account | undefined> {
    const { rows } = await this.db.query<Account>('SELECT id::text AS id, email FROM accounts WHERE lower(email) = lower($1)', [
      normaliseEmail(email),
    ]);
    return rows[0];
  }

  /** The operator's path: an account is identified by its email address. */
  async findOrCreateAccountByEmail(email: string): Promise<Account> {
    const address = normaliseEmail(email);
    const { rows } = await this.db.query<Account>(
      `INSERT INTO accounts (email) VALUES ($1)
       ON CONFLICT (lower(email)) WHERE email IS NOT NULL DO UPDATE SET email = accounts.email
       RETURNING id::text AS id, email`,
      [address],
    );
    return rows[0]!;
  }

  /**
   * The sign-in path: an account is identified by (issuer, subject). A verified email joins an
   * account the operator created for that address; an unverified one is never trusted to do so.
   */
  async findOrCreateOidcAccount(identity: OidcIdentity): Promise<Account> {
    return this.db.transaction(async (tx) => {
      const existing = await tx.query<Account>('SELECT id::text AS id, email FROM accounts WHERE oidc_issuer = $1 AND oidc_subject = $2', [
        identity.issuer,
        identity.subject,
      ]);
      if (existing.rows[0]) return existing.rows[0];
      const email = identity.email !== undefined && EMAIL_PATTERN.test(identity.email) ? identity.email : undefined;
      if (email !== undefined && identity.emailVerified) {
        const linked = await tx.query<Account>(
          `UPDATE accounts SET oidc_issuer = $1, oidc_subject = $2
           WHERE lower(email) = lower($3) AND oidc_subject IS NULL RETURNING id::text AS id, email`,
          [identity.issuer, identity.subject, email],
        );
        if (linked.rows[0]) return linked.rows[0];
      }
      const taken =
        email === undefined ? true : (await tx.query('SELECT 1 FROM accounts WHERE lower(email) = lower($1)', [email])).rows.length > 0;
      const created = await tx.query<Account>(
        'INSERT INTO accounts (email, oidc_issuer, oidc_subject) VALUES ($1, $2, $3) RETURNING id::text AS id, email',
        [identity.emailVerified && !taken ? email : null, identity.issuer, identity.subject],
      );
      return created.rows[0]!;
    });
  }

  /** Creates a key and returns it in full: the only time it is ever available. */
  async createKey(accountId: string, name?: string): Promise<{ key: string; record: KeyRecord }> {
    const label = normaliseKeyName(name);
    return this.db.transaction(async (tx) => {
      // Serialises concurrent creations for one account, so two requests cannot both pass the count.
      await tx.query('SELECT id FROM accounts WHERE id = $1 FOR UPDATE', [accountId]);
      const { rows } = await tx.query<{ active: number }>(
        'SELECT count(*)::int AS active FROM api_keys WHERE account_id = $1 AND revoked_at IS NULL',
        [accountId],
      );
      if ((rows[0]?.active ?? 0) >= MAX_ACTIVE_KEYS) {
        throw new ConflictError(`This account already has ${MAX_ACTIVE_KEYS} active keys, the most allowed. Revoke one to create another.`);
      }
      for (let attempt = 0; attempt < 5; attempt += 1) {
        const generated = generateKey();
        const inserted = await tx.query<KeyRow>(
          `INSERT INTO api_keys (account_id, prefix, key_hash, name, created_at) VALUES ($1, $2, $3, $4, $5)
           ON CONFLICT (prefix) DO NOTHING
           RETURNING id::text AS id, account_id::text AS account_id, prefix, key_hash, name, created_at, last_used_at, revoked_at`,
          [accountId, generated.prefix, generated.hash, label, this.clock()],
        );
        const row = inserted.rows[0];
        if (row) return { key: generated.key, record: toRecord(row) };
      }
      throw new Error('Could not draw a unique key prefix.');
    });
  }

  async listKeys(accountId: string): Promise<KeyRecord[]> {
    const { rows } = await this.db.query<KeyRow>(
      `SELECT id::text AS id, account_id::text AS account_id, prefix, key_hash, name, created_at, last_used_at, revoked_at
       FROM api_keys WHERE account_id = $1 ORDER BY created_at, id`,
      [accountId],
    );
    return rows.map(toRecord);
  }

  /**
   * Revokes the key with this prefix (`mds_Ab12Cd34` or `Ab12Cd34`). With `accountId`, only that
   * account's key: another account's prefix reads as not found. Revoking twice is harmless.
   */
  async revokeKey(prefixInput: string, accountId?: string): Promise<KeyRecord> {
    const prefix = parsePrefix(prefixInput);
    if (prefix === undefined) throw new BadRequestError(`"${prefixInput}" is not a key prefix; it looks like mds_Ab12Cd34.`);
    const { rows } = await this.db.query<KeyRow>(
      `UPDATE api_keys SET revoked_at = COALESCE(revoked_at, $3)
       WHERE prefix = $1 AND ($2::bigint IS NULL OR account_id = $2::bigint)
       RETURNING id::text AS id, account_id::text AS account_id, prefix, key_hash, name, created_at, last_used_at, revoked_at`,
      [prefix, accountId ?? null, this.clock()],
    );
    const row = rows[0];
    if (!row) throw new NotFoundError(`No key with prefix ${displayPrefix(prefix)}${accountId === undefined ? '' : ' on this account'}.`);
    return toRecord(row);
  }

  /** Checks a presented key against the database on every call: revocation applies at once. */
  async verify(key: string): Promise<KeyCheck> {
    const prefix = keyPrefixOf(key);
    if (prefix === undefined) return { valid: false, reason: 'unknown' };
    const { rows } = await this.db.query<Pick<KeyRow, 'id' | 'account_id' | 'key_hash' | 'revoked_at'>>(
      'SELECT id::text AS id, account_id::text AS account_id, key_hash, revoked_at FROM api_keys WHERE prefix = $1',
      [prefix],
    );
    const row = rows[0];
    if (!row || !keyMatchesHash(key, row.key_hash)) return { valid: false, reason: 'unknown' };
    if (row.revoked_at !== null) return { valid: false, reason: 'revoked' };
    this.touch(row.id);
    return { valid: true, keyId: row.id, accountId: row.account_id };
  }

  /** Records use at most once a minute per key and never delays or fails the request. */
  private touch(keyId: string): void {
    const now = this.clock().getTime();
    if (now - (this.lastTouched.get(keyId) ?? 0) < LAST_USED_RESOLUTION_MS) return;
    this.lastTouched.set(keyId, now);
    if (this.lastTouched.size > 10_000) this.lastTouched.clear();
    this.db
      .query(
        `UPDATE api_keys SET last_used_at = $2
         WHERE id = $1 AND (last_used_at IS NULL OR last_used_at < $2::timestamptz - interval '1 minute')`,
        [keyId, new Date(now)],
      )
      .catch(() => undefined);
  }
}
