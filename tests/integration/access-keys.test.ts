// API keys end to end over HTTP, on both databases: the four ways of sending a key on both
// addresses, 401 for a bad or revoked key whatever the setting, REQUIRE_API_KEY, the 3-key cap,
// hashed storage, last-used times, and keys never reaching the logs.
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../api/app.ts';
import type { AppDeps } from '../../api/deps.ts';
import { createLogger } from '../../api/platform/logger.ts';
import { ConflictError, NotFoundError } from '../../api/platform/errors.ts';
import { closeServices, createServices } from '../../api/services.ts';
import type { ApiRegistry } from '../../api/platform/http/api-registry.ts';
import { buildTestApp, listen, testConfig, type TestApp } from '../support/app.ts';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../support/databases.ts';
import { rawRequest } from '../support/http.ts';
import { z } from 'zod';

/** A cheap data route that echoes who the caller is, so tests need no synced dataset. */
function whoAmIRoute(registry: ApiRegistry): void {
  registry.route(
    {
      method: 'get',
      path: '/test-whoami',
      operationId: 'testWhoAmI',
      summary: 'Echoes the caller identity',
      tags: ['Test'],
      cache: 'none',
      responses: { 200: { description: 'identity', schema: z.object({ kind: z.string() }) } },
    },
    ({ req }) => ({ kind: req.identity?.kind ?? 'none' }),
  );
}

describe.each(databaseKinds)('API keys on %s', (kind) => {
  let database: TestDatabase;
  let testApp: TestApp;
  let server: Awaited<ReturnType<typeof listen>>;
  let accountId: string;
  let key: string;

  const main = (path: string, headers: Record<string, string> = {}) => rawRequest(`${server.url}/api/v1${path}`, { headers });
  const apiHost = (path: string, headers: Record<string, string> = {}) =>
    rawRequest(`${server.url}${path}`, { headers: { Host: 'api.localhost:3000', ...headers } });

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    testApp = await buildTestApp(database.db, { options: { extraApiRoutes: whoAmIRoute } });
    server = await listen(testApp.app);
    const keys = testApp.deps.services.access.keys;
    accountId = (await keys.findOrCreateAccountByEmail('ada@example.org')).id;
    key = (await keys.createKey(accountId, 'laptop')).key;
  });
  afterAll(async () => {
    await server.close();
    await testApp.close();
    await database.drop();
  });

  it('accepts the key in each of the four forms on both addresses', async () => {
    const forms: Array<[string, Record<string, string>]> = [
      ['/test-whoami', { 'X-API-Key': key }],
      ['/test-whoami', { Authorization: `Bearer ${key}` }],
      [`/test-whoami?api_key=${key}`, {}],
      [`/test-whoami?secret=${key}`, {}],
    ];
    for (const [path, headers] of forms) {
      for (const request of [main, apiHost]) {
        const response = await request(path, headers);
        expect(response.status, `${path} ${JSON.stringify(Object.keys(headers))}`).toBe(200);
        expect(JSON.parse(response.body)).toEqual({ kind: 'key' });
      }
    }
  });

  it('serves callers without a key as anonymous by default', async () => {
    const response = await main('/test-whoami');
    expect(response.status).toBe(200);
    expect(JSON.parse(response.body)).toEqual({ kind: 'anonymous' });
  });

  it('answers 401 with how to get a key for an unknown or malformed key, never falling back to anonymous', async () => {
    const forged = `mds_${key.slice(4, 12)}_${'A'.repeat(32)}`;
    for (const bad of [forged, 'not-a-key', '']) {
      for (const request of [main, apiHost]) {
        const response = await request('/test-whoami', { 'X-API-Key': bad });
        expect(response.status).toBe(401);
        const body = JSON.parse(response.body);
        expect(body).toEqual({ error: expect.stringContaining('not valid'), status: 401 });
        expect(body.error).toContain('http://localhost:3000/account');
        expect(response.headers['www-authenticate']).toContain('Bearer');
      }
    }
  });

  it('refuses a revoked key on the very next request', async () => {
    const keys = testApp.deps.services.access.keys;
    const doomed = await keys.createKey(accountId, 'doomed');
    expect((await main('/test-whoami', { 'X-API-Key': doomed.key })).status).toBe(200);
    await keys.revokeKey(doomed.record.prefix, accountId);
    const response = await main('/test-whoami', { 'X-API-Key': doomed.key });
    expect(response.status).toBe(401);
    expect(JSON.parse(response.body).error).toContain('revoked');
  });

  it('keeps /healthz and /openapi.json open even with a bad key', async () => {
    expect((await main('/healthz', { 'X-API-Key': 'bad' })).status).toBe(200);
    expect((await apiHost('/openapi.json', { 'X-API-Key': 'bad' })).status).toBe(200);
  });

  it('stores only a hash and the prefix, and records the last use', async () => {
    const { rows } = await database.db.query<{ prefix: string; key_hash: string; last_used_at: unknown }>(
      'SELECT prefix, key_hash, last_used_at FROM api_keys WHERE prefix = $1',
      [key.slice(4, 12)],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]!.key_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(rows)).not.toContain(key.slice(13));
    expect(rows[0]!.last_used_at).not.toBeNull();
  });

  it('allows 3 active keys per account and refuses a 4th with a clear conflict', async () => {
    const keys = testApp.deps.services.access.keys;
    const other = await keys.findOrCreateAccountByEmail('grace@example.org');
    const created = [];
    for (let index = 0; index < 3; index += 1) created.push(await keys.createKey(other.id, `k${index}`));
    const refusal = keys.createKey(other.id, 'fourth');
    await expect(refusal).rejects.toBeInstanceOf(ConflictError);
    await expect(refusal).rejects.toThrow(/already has 3 active keys.*Revoke one/);
    await keys.revokeKey(created[0]!.record.prefix);
    await expect(keys.createKey(other.id, 'replacement')).resolves.toMatchObject({ record: { status: 'active' } });
    expect((await keys.listKeys(other.id)).map((record) => record.status)).toEqual(['revoked', 'active', 'active', 'active']);
  });

  it("does not let one account revoke another account's key", async () => {
    const keys = testApp.deps.services.access.keys;
    const stranger = await keys.findOrCreateAccountByEmail('mallory@example.org');
    await expect(keys.revokeKey(key.slice(0, 12), stranger.id)).rejects.toBeInstanceOf(NotFoundError);
    expect((await main('/test-whoami', { 'X-API-Key': key })).status).toBe(200);
  });

  it('holds to the 3-key cap under concurrent creation', async () => {
    const keys = testApp.deps.services.access.keys;
    const racer = await keys.findOrCreateAccountByEmail('racer@example.org');
    const outcomes = await Promise.allSettled(Array.from({ length: 6 }, () => keys.createKey(racer.id)));
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(3);
    expect((await keys.listKeys(racer.id)).filter((record) => record.status === 'active')).toHaveLength(3);
  });
});

describe('REQUIRE_API_KEY=true', () => {
  let database: TestDatabase;
  let testApp: TestApp;
  let server: Awaited<ReturnType<typeof listen>>;

  beforeAll(async () => {
    database = await createTestDatabase('pglite');
    testApp = await buildTestApp(database.db, {
      env: { REQUIRE_API_KEY: 'true', SUPPORT_CONTACT: 'keys@mds.example' },
      options: { extraApiRoutes: whoAmIRoute },
    });
    server = await listen(testApp.app);
  });
  afterAll(async () => {
    await server.close();
    await testApp.close();
    await database.drop();
  });

  it('answers 401 without a key on both addresses, saying how to get one', async () => {
    const variants: Array<[string, Record<string, string>]> = [
      ['/api/v1/test-whoami', {}],
      ['/test-whoami', { Host: 'api.localhost' }],
    ];
    for (const [path, headers] of variants) {
      const response = await rawRequest(`${server.url}${path}`, { headers });
      expect(response.status).toBe(401);
      const body = JSON.parse(response.body);
      expect(body.status).toBe(401);
      expect(body.error).toMatch(/requires an API key.*keys@mds\.example/);
    }
  });

  it('serves a request with a valid key', async () => {
    const keys = testApp.deps.services.access.keys;
    const account = await keys.findOrCreateAccountByEmail('ada@example.org');
    const { key } = await keys.createKey(account.id);
    const response = await rawRequest(`${server.url}/api/v1/test-whoami?secret=${key}`);
    expect(response.status).toBe(200);
  });
});

describe('logs', () => {
  it('never contain the key, whichever way it was sent', async () => {
    const database = await createTestDatabase('pglite');
    let output = '';
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        output += chunk.toString();
        done();
      },
    });
    const config = testConfig({ LOG_LEVEL: 'info' });
    const core = { config, db: database.db, logger: createLogger('info', sink), clock: () => new Date() };
    const services = await createServices(core);
    const deps: AppDeps = { ...core, services };
    const { handler } = createApp(deps, { extraApiRoutes: whoAmIRoute });
    const server = await listen(handler);
    try {
      const account = await services.access.keys.findOrCreateAccountByEmail('ada@example.org');
      const { key } = await services.access.keys.createKey(account.id);
      const secretPart = key.slice(13);
      await rawRequest(`${server.url}/api/v1/test-whoami?api_key=${key}`);
      await rawRequest(`${server.url}/api/v1/test-whoami?secret=${key}&x=1`);
      await rawRequest(`${server.url}/api/v1/test-whoami`, { headers: { 'X-API-Key': key } });
      await rawRequest(`${server.url}/api/v1/test-whoami`, { headers: { Authorization: `Bearer ${key}` } });
      await rawRequest(`${server.url}/test-whoami?api_key=${key}x`, { headers: { Host: 'api.localhost' } });
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(output).toContain('"msg":"request"');
      expect(output).toContain('api_key=[REDACTED]');
      expect(output).toContain('secret=[REDACTED]');
      expect(output).not.toContain(secretPart);
    } finally {
      await server.close();
      await closeServices(services);
      await database.drop();
    }
  });
});
