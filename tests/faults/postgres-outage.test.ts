// PostgreSQL stopped and restarted under traffic, on a throwaway cluster of the test's own: cached
// rates keep being served, writes (creating a key on /account) answer 503 meanwhile and succeed
// after the restart, and no key or account is lost.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresDatabase } from '../../api/platform/db/postgres.ts';
import { runMigrations } from '../../api/platform/db/migrate.ts';
import { createLogger } from '../../api/platform/logger.ts';
import { sign } from 'cookie-signature';
import type { Database } from '../../api/platform/db/database.ts';
import { startServerProcess, type ServerProcess } from '../support/server-process.ts';
import { syncInto } from '../support/synced.ts';
import { hasSourceData } from '../support/source-data.ts';
import { ownPostgresUnavailable, startOwnPostgres, type OwnPostgres } from './own-postgres.ts';

const unavailable = !hasSourceData ? 'the official source files (MDS_SOURCE_DIR) are absent' : ownPostgresUnavailable();
if (unavailable) process.stderr.write(`postgres-outage fault test skipped: ${unavailable}\n`);

const SESSION_SECRET = randomBytes(32).toString('base64url');
const KEY_PATTERN = /mds_[A-Za-z0-9]{8}_[A-Za-z0-9]{32}/;

/** Background traffic: `clients` loops fetching `url` until stopped; every outcome is recorded. */
function traffic(url: string, clients: number) {
  const outcomes: { status: number; at: number }[] = [];
  let running = true;
  const loops = Array.from({ length: clients }, async () => {
    while (running) {
      try {
        const response = await fetch(url);
        await response.arrayBuffer();
        outcomes.push({ status: response.status, at: Date.now() });
      } catch {
        outcomes.push({ status: 0, at: Date.now() });
      }
    }
  });
  return {
    outcomes,
    async stop() {
      running = false;
      await Promise.all(loops);
    },
  };
}

describe.skipIf(unavailable !== undefined)('PostgreSQL stopped and restarted under traffic', () => {
  let cluster: OwnPostgres;
  let db: Database;
  let server: ServerProcess;
  let cookie: string;
  let csrf: string;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mds-fault-pg-'));

  beforeAll(async () => {
    cluster = await startOwnPostgres();
    db = createPostgresDatabase(cluster.url, createLogger('silent'));
    await runMigrations(db);
    const report = await syncInto(db, ['pmms', 'optimal_blue']);
    expect(report.results.every((result) => result.status === 'ok')).toBe(true);
    // A signed-in account: a session row and its signed cookie, as /auth/callback would leave them.
    const { rows } = await db.query<{ id: string }>(
      "INSERT INTO accounts (email, oidc_issuer, oidc_subject) VALUES ('ada@example.org', 'http://127.0.0.1:9/issuer', 'ada') RETURNING id::text AS id",
    );
    const sessionId = randomBytes(32).toString('base64url');
    csrf = randomBytes(24).toString('base64url');
    await db.query("INSERT INTO sessions (id_hash, account_id, csrf_token, expires_at) VALUES ($1, $2, $3, now() + interval '1 day')", [
      createHash('sha256').update(sessionId).digest('hex'),
      rows[0]!.id,
      csrf,
    ]);
    cookie = `mds_session=${sign(sessionId, SESSION_SECRET)}`;
    server = await startServerProcess({
      DATABASE_URL: cluster.url,
      DATA_DIR: dataDir,
      LOG_LEVEL: 'info',
      SESSION_SECRET,
      // Configured so /account offers its forms; the issuer is never contacted by these requests.
      OIDC_ISSUER: 'http://127.0.0.1:9/issuer',
      OIDC_CLIENT_ID: 'mds-test',
      OIDC_CLIENT_SECRET: 'not-a-secret',
      RATE_LIMIT_ANON_PER_MINUTE: '0',
      RATE_LIMIT_KEY_PER_MINUTE: '0',
      RATE_LIMIT_PER_HOUR: '0',
    });
  });

  afterAll(async () => {
    await server?.stop('SIGKILL');
    await db?.close().catch(() => undefined);
    cluster?.destroy();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const createKey = (name: string) =>
    fetch(`${server.url}/account/keys`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Cookie: cookie },
      body: new URLSearchParams({ _csrf: csrf, name }).toString(),
      redirect: 'manual',
    });

  it('keeps serving cached rates, answers writes 503 while down, and loses nothing', async () => {
    const before = await createKey('before the outage');
    expect(before.status).toBe(201);
    const keyBefore = KEY_PATTERN.exec(await before.text())?.[0];
    expect(keyBefore).toBeDefined();
    const rates = await fetch(`${server.url}/api/v1/rates`);
    expect(rates.status).toBe(200);
    const ratesBody = await rates.text();

    const load = traffic(`${server.url}/api/v1/rates`, 8);
    try {
      // The traffic is under way (as many responses as clients) before the outage.
      const underWay = Date.now() + 30_000;
      while (load.outcomes.length < 8 && Date.now() < underWay) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(load.outcomes.length).toBeGreaterThanOrEqual(8);
      const stoppedAt = Date.now();
      cluster.stop();

      // Reads from the in-memory cache still work, with the same figures.
      const cached = await fetch(`${server.url}/api/v1/rates`);
      expect(cached.status).toBe(200);
      expect(await cached.text()).toBe(ratesBody);
      // A write answers 503 with Retry-After (not a 500, not a hang).
      const during = await createKey('during the outage');
      expect(during.status).toBe(503);
      expect(during.headers.get('retry-after')).toMatch(/^\d+$/);
      const duringBody = await during.text();
      expect(duringBody).not.toMatch(/ECONNREFUSED|\.ts:\d|at [\w.]+ \(/);
      // A keyed request cannot be checked against the database: 503, never anonymous, never 500.
      const keyed = await fetch(`${server.url}/api/v1/rates`, { headers: { 'X-API-Key': keyBefore! } });
      expect(keyed.status).toBe(503);
      await keyed.arrayBuffer();
      // Stay down a while so the datasets check and the pool both notice.
      await new Promise((resolve) => setTimeout(resolve, 6_000));
      const stillCached = await fetch(`${server.url}/api/v1/rates`);
      expect(stillCached.status).toBe(200);
      await stillCached.arrayBuffer();

      cluster.start();
      const restartedAt = Date.now();
      // Writes succeed again once the pool reconnects (the first tries may meet dead connections).
      let after: Response | undefined;
      let keyAfter: string | undefined;
      while (Date.now() - restartedAt < 20_000) {
        after = await createKey('after the outage');
        if (after.status === 201) {
          keyAfter = KEY_PATTERN.exec(await after.text())?.[0];
          break;
        }
        expect(after.status).toBe(503);
        await after.arrayBuffer();
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
      expect(after?.status).toBe(201);
      expect(keyAfter).toBeDefined();

      await new Promise((resolve) => setTimeout(resolve, 300));
      await load.stop();
      // The anonymous traffic never saw an error: every response, before, during and after, was a 200.
      const statuses = new Map<number, number>();
      for (const outcome of load.outcomes) statuses.set(outcome.status, (statuses.get(outcome.status) ?? 0) + 1);
      expect(Object.fromEntries(statuses)).toEqual({ 200: load.outcomes.length });
      expect(load.outcomes.filter((outcome) => outcome.at > stoppedAt && outcome.at < restartedAt).length).toBeGreaterThan(10);

      // Nothing lost: both keys work, and the database holds exactly the account and its two keys.
      for (const key of [keyBefore!, keyAfter!]) {
        const response = await fetch(`${server.url}/api/v1/rates`, { headers: { 'X-API-Key': key } });
        expect(response.status).toBe(200);
        await response.arrayBuffer();
      }
      const keys = await db.query<{ name: string; revoked_at: Date | null }>('SELECT name, revoked_at FROM api_keys ORDER BY id');
      expect(keys.rows.map((row) => row.name)).toEqual(['before the outage', 'after the outage']);
      expect(keys.rows.every((row) => row.revoked_at === null)).toBe(true);
      const accounts = await db.query<{ count: string }>('SELECT count(*)::text AS count FROM accounts');
      expect(accounts.rows[0]?.count).toBe('1');
    } catch (error) {
      // The server's own log is what explains a failure here (e.g. a crash while the database is down).
      throw new Error(`${(error as Error).message}\n--- server log (tail) ---\n${server.output().slice(-8_000)}`, { cause: error });
    } finally {
      await load.stop();
    }
  }, 90_000);
});
