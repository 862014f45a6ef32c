// The front door's kept answers (api/platform/http/answer-lane.ts, api/front-door.ts): a public
// API answer is answered again without its handler, byte for byte as the full path sent it, with
// its own request id, rate limit and access-log line; anything keyed, conditional, expired or
// after a dataset change takes the full path.
import http from 'node:http';
import { Writable } from 'node:stream';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createApp } from '../../api/app.ts';
import type { AppDeps } from '../../api/deps.ts';
import type { ApiRegistry } from '../../api/platform/http/api-registry.ts';
import { AnswerLane } from '../../api/platform/http/answer-lane.ts';
import { createLogger } from '../../api/platform/logger.ts';
import { closeServices, createServices } from '../../api/services.ts';
import { listen, testConfig } from '../support/app.ts';
import { createTestDatabase, type TestDatabase } from '../support/databases.ts';

interface Answer {
  status: number;
  /** Header names and values as sent (casing and order), without Date and X-Request-Id. */
  headers: string[];
  requestId: string;
  retryAfter?: string;
  remaining?: string;
  body: string;
}

function get(url: string, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const raw = response.rawHeaders;
          const kept: string[] = [];
          for (let index = 0; index < raw.length; index += 2) {
            const name = raw[index]!.toLowerCase();
            if (name !== 'date' && name !== 'x-request-id') kept.push(`${raw[index]}: ${raw[index + 1]}`);
          }
          resolve({
            status: response.statusCode ?? 0,
            headers: kept,
            requestId: String(response.headers['x-request-id']),
            retryAfter: response.headers['retry-after'] as string | undefined,
            remaining: response.headers['ratelimit-remaining'] as string | undefined,
            body: Buffer.concat(chunks).toString('utf8'),
          });
        });
      })
      .on('error', reject);
  });
}

/**
 * A public data route whose handler counts its calls, so a test sees which answers it made; the
 * answer itself stays the same, and so does its ETag.
 */
function countingRoute(calls: { count: number }) {
  return (registry: ApiRegistry) => {
    registry.route(
      {
        method: 'get',
        path: '/test-counted',
        operationId: 'testCounted',
        summary: 'A public answer that counts its handler calls',
        tags: ['Test'],
        query: z.object({ n: z.coerce.number().int().optional() }),
        responses: { 200: { description: 'the parameter', schema: z.object({ n: z.number().optional() }) } },
      },
      ({ query }) => {
        calls.count += 1;
        return { n: query.n };
      },
    );
  };
}

describe('kept public answers', () => {
  let database: TestDatabase;
  const closers: Array<() => Promise<void>> = [];

  async function start(env: Record<string, string> = {}) {
    let log = '';
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        log += chunk.toString();
        done();
      },
    });
    const config = testConfig({ LOG_LEVEL: 'info', ...env });
    const core = { config, db: database.db, logger: createLogger('info', sink), clock: () => new Date() };
    const services = await createServices(core);
    const deps: AppDeps = { ...core, services };
    const calls = { count: 0 };
    const server = await listen(createApp(deps, { extraApiRoutes: countingRoute(calls) }).handler);
    closers.push(async () => {
      await server.close();
      await closeServices(services);
    });
    return { url: server.url, deps, calls, accessLines: () => log.split('\n').filter((line) => line.includes('"msg":"request"')) };
  }

  beforeAll(async () => {
    database = await createTestDatabase('pglite');
  });
  afterEach(async () => {
    for (const close of closers.splice(0)) await close();
  });
  afterAll(async () => {
    await database.drop();
  });

  it('answers a repeated public GET from the kept answer, exactly as the first, with its own request id and log line', async () => {
    const { url, calls, accessLines } = await start();
    const first = await get(`${url}/api/v1/test-counted?n=7`);
    const second = await get(`${url}/api/v1/test-counted?n=7`);
    expect(first.status).toBe(200);
    expect(JSON.parse(first.body)).toEqual({ n: 7 });
    expect(calls.count).toBe(1);
    expect(second.body).toBe(first.body);
    expect(second.headers).toEqual(first.headers);
    expect(second.headers).toContain('Cache-Control: public, max-age=3600, stale-while-revalidate=60');
    expect(second.headers).toContain('Access-Control-Allow-Origin: *');
    expect(second.requestId).not.toBe(first.requestId);
    expect((await get(`${url}/api/v1/test-counted?n=7`, { 'X-Request-Id': 'trace-42' })).requestId).toBe('trace-42');
    // Another query string is another answer.
    expect(JSON.parse((await get(`${url}/api/v1/test-counted?n=8`)).body)).toEqual({ n: 8 });
    expect(calls.count).toBe(2);
    // Each line is written once its response has gone: asked every 10 ms until the four are there (at most 5 s).
    const logged = Date.now() + 5_000;
    while (accessLines().length < 4 && Date.now() < logged) await new Promise((resolve) => setTimeout(resolve, 10));
    const lines = accessLines();
    expect(lines).toHaveLength(4);
    expect(lines.filter((line) => line.includes('"url":"/api/v1/test-counted?n=7"') && line.includes('"status":200'))).toHaveLength(3);
  });

  it('sends keyed, conditional, expired and post-sync requests through the full path', async () => {
    const { url, deps, calls } = await start();
    const first = await get(`${url}/api/v1/test-counted`);
    expect(calls.count).toBe(1);
    // A key (valid or not) is always checked: this one is not valid.
    expect((await get(`${url}/api/v1/test-counted`, { 'X-API-Key': 'mds_not_a_key' })).status).toBe(401);
    expect((await get(`${url}/api/v1/test-counted`, { Authorization: 'Bearer mds_not_a_key' })).status).toBe(401);
    const etag = first.headers.find((line) => line.startsWith('ETag: '))!.slice(6);
    expect((await get(`${url}/api/v1/test-counted`, { 'If-None-Match': etag })).status).toBe(304);
    expect(calls.count).toBe(2);
    await get(`${url}/api/v1/test-counted`);
    expect(calls.count).toBe(2);
    deps.services.datasets.invalidate();
    await get(`${url}/api/v1/test-counted`);
    expect(calls.count).toBe(3);
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    await get(`${url}/api/v1/test-counted`);
    expect(calls.count).toBe(4);
  });

  it('keeps the API host and the prefixed path apart', async () => {
    const { url, calls } = await start({ API_HOST: 'api.localhost' });
    expect((await get(`${url}/test-counted`, { Host: 'api.localhost' })).status).toBe(200);
    expect((await get(`${url}/test-counted`, { Host: 'api.localhost' })).status).toBe(200);
    expect(calls.count).toBe(1);
    // The same path on the site's host is no API resource, kept answer or not.
    expect((await get(`${url}/test-counted`)).status).toBe(404);
    expect((await get(`${url}/api/v1/test-counted`, { Host: 'api.localhost' })).status).toBe(404);
  });

  it('counts kept answers against the rate limit and refuses with the 429 body', async () => {
    const { url, calls } = await start({ RATE_LIMIT_ANON_PER_MINUTE: '3', RATE_LIMIT_PER_HOUR: '100' });
    const answers: Answer[] = [];
    for (let index = 0; index < 5; index += 1) answers.push(await get(`${url}/api/v1/test-counted`));
    expect(calls.count).toBe(1);
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 429, 429]);
    expect(answers.slice(0, 3).map((answer) => answer.remaining)).toEqual(['2', '1', '0']);
    const refused = answers[3]!;
    expect(JSON.parse(refused.body)).toMatchObject({ status: 429, error: expect.stringContaining('Rate limit of 3 requests') });
    expect(Number(refused.retryAfter)).toBeGreaterThan(0);
    expect(refused.headers).toContain('Access-Control-Allow-Origin: *');
    expect(refused.headers).toContain('Cache-Control: no-store');
  });

  it('keeps nothing when every caller needs a key', async () => {
    const { url, calls } = await start({ REQUIRE_API_KEY: 'true' });
    expect((await get(`${url}/api/v1/test-counted`)).status).toBe(401);
    expect((await get(`${url}/api/v1/test-counted`)).status).toBe(401);
    expect(calls.count).toBe(0);
  });
});

describe('AnswerLane bounds', () => {
  function fakeExchange(url: string, body: string) {
    const req = { method: 'GET', url, headers: { host: 'example.org' } } as unknown as http.IncomingMessage;
    const names = ['Content-Type', 'X-Request-Id', 'RateLimit-Remaining'];
    const res = {
      statusCode: 200,
      getRawHeaderNames: () => names,
      getHeader: (name: string) => `${name} value`,
    } as unknown as http.ServerResponse;
    return { req, res, body };
  }

  it('drops the oldest answers past the byte bound, skips large bodies, forgets per-request headers and expires', () => {
    let now = 0;
    const lane = new AnswerLane({ ttlMs: 1_000, maxBodyBytes: 100, maxTotalBytes: 250, now: () => now });
    for (const name of ['a', 'b', 'c']) {
      const { req, res, body } = fakeExchange(`/api/v1/${name}`, 'x'.repeat(100));
      lane.keep(req, req.url!, res, body);
    }
    expect(lane.size).toBe(2);
    expect(lane.lookup(fakeExchange('/api/v1/a', '').req)).toBeUndefined();
    const kept = lane.lookup(fakeExchange('/api/v1/c', '').req);
    expect(kept?.headers).toEqual(['Content-Type', 'Content-Type value']);
    const large = fakeExchange('/api/v1/large', 'x'.repeat(101));
    lane.keep(large.req, large.req.url!, large.res, large.body);
    expect(lane.lookup(large.req)).toBeUndefined();
    now = 1_000;
    expect(lane.lookup(fakeExchange('/api/v1/c', '').req)).toBeUndefined();
    expect(lane.size).toBe(1);
  });
});
