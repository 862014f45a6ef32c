// Rate limits over HTTP with the memory store: 20/min without a key, 100/min with one, the hourly
// cap, the headers, TRUST_PROXY, unlimited open routes, and failing open when a store is down.
import { randomInt } from 'node:crypto';
import { Writable } from 'node:stream';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createApp } from '../../api/app.ts';
import type { AppDeps } from '../../api/deps.ts';
import { createLogger } from '../../api/platform/logger.ts';
import { pingRoute } from '../support/ping-route.ts';
import { closeServices, createServices } from '../../api/services.ts';
import { buildTestApp, listen, testConfig, type TestApp } from '../support/app.ts';
import { createTestDatabase, type TestDatabase } from '../support/databases.ts';
import { rawRequest, type RawResponse } from '../support/http.ts';

const LIMITS_ON = { RATE_LIMIT_ANON_PER_MINUTE: '20', RATE_LIMIT_KEY_PER_MINUTE: '100', RATE_LIMIT_PER_HOUR: '1000' };

async function burst(count: number, send: () => Promise<RawResponse>): Promise<RawResponse[]> {
  const responses: RawResponse[] = [];
  for (let index = 0; index < count; index += 1) responses.push(await send());
  return responses;
}

describe('rate limits (memory store)', () => {
  let database: TestDatabase;
  const opened: Array<{ app: TestApp; server: Awaited<ReturnType<typeof listen>> }> = [];

  async function start(env: Record<string, string>) {
    const app = await buildTestApp(database.db, { env: { ...LIMITS_ON, ...env }, options: { extraApiRoutes: pingRoute } });
    const server = await listen(app.app);
    opened.push({ app, server });
    return { app, url: server.url };
  }

  beforeAll(async () => {
    database = await createTestDatabase('pglite');
  });
  afterEach(async () => {
    for (const { app, server } of opened.splice(0)) {
      await server.close();
      await app.close();
    }
  });
  afterAll(async () => {
    await database.drop();
  });

  it('answers the 21st anonymous request in a minute 429 with Retry-After, the headers and the error body', async () => {
    const { url } = await start({});
    const responses = await burst(21, () => rawRequest(`${url}/api/v1/test-ping`));
    expect(responses.slice(0, 20).every((response) => response.status === 200)).toBe(true);
    expect(responses[0]!.headers['ratelimit-limit']).toBe('20');
    expect(responses[0]!.headers['ratelimit-remaining']).toBe('19');
    expect(responses[19]!.headers['ratelimit-remaining']).toBe('0');
    const reset = Number(responses[0]!.headers['ratelimit-reset']);
    expect(reset).toBeGreaterThan(0);
    expect(reset).toBeLessThanOrEqual(60);

    const refused = responses[20]!;
    expect(refused.status).toBe(429);
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(refused.headers['ratelimit-limit']).toBe('20');
    expect(refused.headers['ratelimit-remaining']).toBe('0');
    expect(refused.headers['access-control-allow-origin']).toBe('*');
    expect(refused.headers['access-control-expose-headers']).toContain('Retry-After');
    const body = JSON.parse(refused.body);
    expect(body).toEqual({ error: expect.stringMatching(/Rate limit of 20 requests.*retry in \d+ s.*API key/), status: 429 });
  });

  it('serves a client again after its minute when it burst 1,000 requests: refusals do not spend its hour', async () => {
    const { url } = await start({});
    // The memory store reads Date.now(): moving the clock ends the minute without waiting for it.
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const statuses: number[] = [];
      const refusals: RawResponse[] = [];
      for (let sent = 0; sent < 1_000; sent += 25) {
        const batch = await Promise.all(Array.from({ length: 25 }, () => rawRequest(`${url}/api/v1/test-ping`)));
        for (const response of batch) {
          statuses.push(response.status);
          if (response.status === 429) refusals.push(response);
        }
      }
      expect(statuses.filter((status) => status === 200)).toHaveLength(20);
      expect(refusals).toHaveLength(980);
      // Every refusal is the minute's, never "retry in 3536 s".
      expect(
        refusals.every((response) => response.headers['ratelimit-limit'] === '20' && Number(response.headers['retry-after']) <= 60),
      ).toBe(true);

      vi.setSystemTime(Date.now() + 61_000);
      const after = await burst(20, () => rawRequest(`${url}/api/v1/test-ping`));
      expect(after.map((response) => response.status)).toEqual(Array(20).fill(200));
      expect(after[0]!.headers['ratelimit-remaining']).toBe('19');
    } finally {
      vi.useRealTimers();
    }
  });

  it('counts both addresses against one budget', async () => {
    const { url } = await start({});
    await burst(10, () => rawRequest(`${url}/api/v1/test-ping`));
    const onApiHost = await burst(11, () => rawRequest(`${url}/test-ping`, { headers: { Host: 'api.localhost' } }));
    expect(onApiHost.map((response) => response.status).filter((status) => status === 429)).toHaveLength(1);
  });

  it('gives a key 100 requests a minute, apart from the anonymous budget', async () => {
    const { app, url } = await start({});
    const account = await app.deps.services.access.keys.findOrCreateAccountByEmail(`limits-${randomInt(1e9)}@example.org`);
    const { key } = await app.deps.services.access.keys.createKey(account.id);
    const responses = await burst(101, () => rawRequest(`${url}/api/v1/test-ping`, { headers: { 'X-API-Key': key } }));
    expect(responses.slice(0, 100).every((response) => response.status === 200)).toBe(true);
    expect(responses[0]!.headers['ratelimit-limit']).toBe('100');
    expect(responses[100]!.status).toBe(429);
    expect(JSON.parse(responses[100]!.body).error).toContain('this key');
    expect((await rawRequest(`${url}/api/v1/test-ping`)).status).toBe(200);
  });

  it('applies the hourly cap and reports it when it binds', async () => {
    const { url } = await start({ RATE_LIMIT_ANON_PER_MINUTE: '50', RATE_LIMIT_PER_HOUR: '5' });
    const responses = await burst(6, () => rawRequest(`${url}/api/v1/test-ping`));
    expect(responses.map((response) => response.status)).toEqual([200, 200, 200, 200, 200, 429]);
    expect(responses[0]!.headers['ratelimit-limit']).toBe('5');
    expect(Number(responses[5]!.headers['retry-after'])).toBeGreaterThan(60);
  });

  it('sends no limit headers and never refuses when every limit is 0', async () => {
    const { url } = await start({ RATE_LIMIT_ANON_PER_MINUTE: '0', RATE_LIMIT_KEY_PER_MINUTE: '0', RATE_LIMIT_PER_HOUR: '0' });
    const responses = await burst(30, () => rawRequest(`${url}/api/v1/test-ping`));
    expect(responses.every((response) => response.status === 200)).toBe(true);
    expect(responses[0]!.headers['ratelimit-limit']).toBeUndefined();
  });

  it("leaves /healthz, /openapi.json and the site's files unlimited", async () => {
    const { url } = await start({ RATE_LIMIT_ANON_PER_MINUTE: '2' });
    // brand-facts.json is one of the site's files the server makes itself, so this holds without a
    // site build (pages from dist/ go through the same unlimited path: site-build tests serve them).
    for (const path of ['/api/v1/healthz', '/healthz', '/api/v1/openapi.json', '/.well-known/brand-facts.json']) {
      const responses = await burst(5, () => rawRequest(`${url}${path}`));
      expect(
        responses.every((response) => response.status === 200),
        path,
      ).toBe(true);
      expect(responses[0]!.headers['ratelimit-limit'], path).toBeUndefined();
    }
  });

  it('ignores X-Forwarded-For unless TRUST_PROXY is set', async () => {
    const untrusted = await start({ RATE_LIMIT_ANON_PER_MINUTE: '3' });
    const spoofed = await burst(4, () =>
      rawRequest(`${untrusted.url}/api/v1/test-ping`, { headers: { 'X-Forwarded-For': `198.51.100.${randomInt(250)}` } }),
    );
    expect(spoofed[3]!.status).toBe(429);

    const trusted = await start({ RATE_LIMIT_ANON_PER_MINUTE: '3', TRUST_PROXY: 'loopback' });
    const viaProxy = (ip: string) => rawRequest(`${trusted.url}/api/v1/test-ping`, { headers: { 'X-Forwarded-For': ip } });
    const first = await burst(4, () => viaProxy('198.51.100.1'));
    expect(first.map((response) => response.status)).toEqual([200, 200, 200, 429]);
    expect((await viaProxy('198.51.100.2')).status).toBe(200);
  });

  it('does not count a request refused for a bad key, and never answers 429 for it', async () => {
    const { url } = await start({ RATE_LIMIT_ANON_PER_MINUTE: '1' });
    const bad = await burst(3, () => rawRequest(`${url}/api/v1/test-ping`, { headers: { 'X-API-Key': 'wrong' } }));
    expect(bad.every((response) => response.status === 401)).toBe(true);
  });
});

describe('a rate-limit store that is down', () => {
  it('lets requests through with a warning instead of failing them', async () => {
    const database = await createTestDatabase('pglite');
    let output = '';
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        output += chunk.toString();
        done();
      },
    });
    // Nothing listens on port 1: every Redis command fails at once.
    const config = testConfig({ ...LIMITS_ON, LOG_LEVEL: 'warn', RATE_LIMIT_STORE: 'redis', REDIS_URL: 'redis://127.0.0.1:1' });
    const core = { config, db: database.db, logger: createLogger('warn', sink), clock: () => new Date() };
    const services = await createServices(core);
    const deps: AppDeps = { ...core, services };
    const server = await listen(createApp(deps, { extraApiRoutes: pingRoute }).handler);
    try {
      const responses = await burst(25, () => rawRequest(`${server.url}/api/v1/test-ping`));
      expect(responses.every((response) => response.status === 200)).toBe(true);
      expect(output).toContain('rate-limit store unavailable');
    } finally {
      await server.close();
      await closeServices(services);
      await database.drop();
    }
  });

  it('falls back to the memory store, and says why, when postgres is asked for with the embedded database', async () => {
    const database = await createTestDatabase('pglite');
    let output = '';
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        output += chunk.toString();
        done();
      },
    });
    const config = testConfig({ ...LIMITS_ON, RATE_LIMIT_STORE: 'postgres' });
    const services = await createServices({ config, db: database.db, logger: createLogger('warn', sink), clock: () => new Date() });
    try {
      expect(services.access.limiter.store).toBe('memory');
      expect(output).toContain('RATE_LIMIT_STORE=postgres needs DATABASE_URL');
    } finally {
      await closeServices(services);
      await database.drop();
    }
  });
});
