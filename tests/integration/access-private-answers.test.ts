// What caches are told about answers to keyed requests: a shared cache must never keep a key
// holder's answer for another client. With REQUIRE_API_KEY=true every data answer is private; with
// keys optional, a keyed answer is private and a keyless one stays public.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { privateCacheControl } from '../../api/access/private-answers.ts';
import { buildTestApp, listen, type TestApp } from '../support/app.ts';
import { createTestDatabase, type TestDatabase } from '../support/databases.ts';

describe.each([
  { requireKey: 'true', anonymous: 401 },
  { requireKey: 'false', anonymous: 200 },
])('answers with REQUIRE_API_KEY=$requireKey', ({ requireKey, anonymous }) => {
  let database: TestDatabase;
  let testApp: TestApp;
  let server: Awaited<ReturnType<typeof listen>>;
  let key: string;

  beforeAll(async () => {
    database = await createTestDatabase('pglite');
    testApp = await buildTestApp(database.db, { env: { REQUIRE_API_KEY: requireKey } });
    server = await listen(testApp.app);
    const account = await testApp.deps.services.access.keys.findOrCreateAccountByEmail('private-answers@example.org');
    ({ key } = await testApp.deps.services.access.keys.createKey(account.id, 'private answers test'));
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    await testApp?.close();
    await database?.drop();
  });

  it.each(['header', 'bearer', 'query'])('marks a data answer to a key sent as %s private', async (form) => {
    const url = new URL(`${server.url}/api/v1/glossary?term=APR`);
    const headers: Record<string, string> = {};
    if (form === 'header') headers['X-API-Key'] = key;
    if (form === 'bearer') headers.Authorization = `Bearer ${key}`;
    if (form === 'query') url.searchParams.set('api_key', key);
    const response = await fetch(url, { headers });
    expect(response.status).toBe(200);
    const cacheControl = response.headers.get('cache-control') ?? '';
    expect(cacheControl).toMatch(/^private\b/);
    expect(cacheControl).not.toMatch(/public/);
  });

  it('leaves a keyless answer public only when keys are optional', async () => {
    const response = await fetch(`${server.url}/api/v1/glossary?term=APR`);
    expect(response.status).toBe(anonymous);
    expect(response.headers.get('cache-control')).toBe(anonymous === 200 ? 'public, max-age=3600, stale-while-revalidate=60' : 'no-store');
  });
});

describe('privateCacheControl', () => {
  it('turns public into private and keeps every other directive', () => {
    expect(privateCacheControl('public, max-age=3600, stale-while-revalidate=60')).toBe('private, max-age=3600, stale-while-revalidate=60');
    expect(privateCacheControl('no-store')).toBe('no-store');
  });
});
