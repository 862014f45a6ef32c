// The cross-cutting HTTP behaviour every API route shares: error bodies, CORS, caching, request ids,
// both addresses, and the OpenAPI document.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Validator } from '@seriousme/openapi-schema-validator';
import { buildTestApp, listen, type TestApp } from '../support/app.ts';
import { createTestDatabase, type TestDatabase } from '../support/databases.ts';
import { rawRequest } from '../support/http.ts';
import { z } from 'zod';

describe('HTTP platform', () => {
  let database: TestDatabase;
  let testApp: TestApp;
  let server: Awaited<ReturnType<typeof listen>>;
  const apiHost = (path: string) => rawRequest(`${server.url}${path}`, { headers: { Host: 'api.localhost:3000' } });

  beforeAll(async () => {
    database = await createTestDatabase('pglite');
    testApp = await buildTestApp(database.db, {
      options: {
        extraApiRoutes: (registry) =>
          registry.route(
            {
              method: 'get',
              path: '/test-fault',
              operationId: 'testFault',
              summary: 'Throws',
              tags: ['Test'],
              responses: { 200: { description: 'never', schema: z.object({}) } },
            },
            () => {
              throw new Error('connection to 10.0.0.5 failed: password authentication for "admin"');
            },
          ),
      },
    });
    server = await listen(testApp.app);
  });
  afterAll(async () => {
    await server.close();
    await testApp.close();
    await database.drop();
  });

  it('answers /healthz with status, version and datasets', async () => {
    const response = await fetch(`${server.url}/healthz`);
    expect(response.status).toBe(200);
    const body = (await response.json()) as Record<string, unknown>;
    // Nothing is loaded in a fresh database: the service is starting, not "ok".
    expect(body).toMatchObject({ status: 'starting', version: expect.any(String), datasets: {} });
  });

  it('answers an unknown API path 404 with the error body', async () => {
    const response = await fetch(`${server.url}/api/v1/nope`);
    expect(response.status).toBe(404);
    const body = await response.json();
    expect(body).toEqual({ error: expect.stringContaining('/nope'), status: 404 });
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('answers a fault 500 with the same shape and no internals', async () => {
    const response = await fetch(`${server.url}/api/v1/test-fault`);
    expect(response.status).toBe(500);
    const text = await response.text();
    expect(JSON.parse(text)).toEqual({ error: expect.any(String), status: 500 });
    expect(text).not.toMatch(/10\.0\.0\.5|password|at |\.ts/);
  });

  it('answers a preflight 204 with the four CORS headers of the API conventions', async () => {
    for (const path of ['/api/v1/healthz', '/api/v1/anything']) {
      const response = await fetch(`${server.url}${path}`, { method: 'OPTIONS' });
      expect(response.status).toBe(204);
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
      expect(response.headers.get('access-control-allow-methods')).toBe('GET, OPTIONS');
      expect(response.headers.get('access-control-allow-headers')).toBe('Content-Type, Authorization');
      expect(response.headers.get('access-control-max-age')).toBe('86400');
    }
  });

  it('answers a wrong method 405 with Allow', async () => {
    const response = await fetch(`${server.url}/api/v1/healthz`, { method: 'DELETE' });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toContain('GET');
    expect(((await response.json()) as { status: number }).status).toBe(405);
  });

  it('puts a request id on every response and keeps a sane incoming one', async () => {
    const generated = await fetch(`${server.url}/api/v1/healthz`);
    expect(generated.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const echoed = await fetch(`${server.url}/api/v1/healthz`, { headers: { 'X-Request-Id': 'trace-123' } });
    expect(echoed.headers.get('x-request-id')).toBe('trace-123');
    const hostile = await fetch(`${server.url}/api/v1/healthz`, { headers: { 'X-Request-Id': 'a b<script>' } });
    expect(hostile.headers.get('x-request-id')).not.toContain('<');
  });

  it('serves the API host without the prefix, byte-identical to /api/v1', async () => {
    const prefixed = await fetch(`${server.url}/api/v1/openapi.json`);
    const unprefixed = await apiHost('/openapi.json');
    expect(unprefixed.status).toBe(200);
    expect(unprefixed.body).toBe(await prefixed.text());
    const missing = await apiHost('/nope');
    expect(missing.status).toBe(404);
    expect(JSON.parse(missing.body).status).toBe(404);
    const siteOnApiHost = await apiHost('/');
    expect(siteOnApiHost.status).toBe(404);
  });

  it('lets data GETs be cached up to an hour and revalidated with ETag', async () => {
    const first = await fetch(`${server.url}/api/v1/openapi.json`);
    expect(first.headers.get('cache-control')).toMatch(/max-age=(\d+)/);
    const maxAge = Number(/max-age=(\d+)/.exec(first.headers.get('cache-control') ?? '')?.[1]);
    expect(maxAge).toBeGreaterThan(0);
    expect(maxAge).toBeLessThanOrEqual(3600);
    const etag = first.headers.get('etag');
    expect(etag).toBeTruthy();
    const second = await rawRequest(`${server.url}/api/v1/openapi.json`, { headers: { 'If-None-Match': etag ?? '' } });
    expect(second.status).toBe(304);
    expect(second.body).toBe('');
  });

  it('refuses malformed and oversized JSON bodies with a 4xx error body', async () => {
    const malformed = await fetch(`${server.url}/api/v1/ask`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{"message": ',
    });
    expect(malformed.status).toBe(400);
    expect(malformed.headers.get('access-control-allow-origin')).toBe('*');
    expect(await malformed.json()).toEqual({ error: 'The request body is not valid JSON.', status: 400 });
    const oversized = await fetch(`${server.url}/api/v1/ask`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ message: 'x'.repeat(200_000) }),
    });
    expect(oversized.status).toBe(413);
    // Only routes that take a body parse one: elsewhere a body changes nothing, the method is wrong.
    const bodyOnGetRoute = await fetch(`${server.url}/api/v1/healthz`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{"message": ',
    });
    expect(bodyOnGetRoute.status).toBe(405);
  });

  it('publishes a valid OpenAPI 3.1 document', async () => {
    const document = (await (await fetch(`${server.url}/api/v1/openapi.json`)).json()) as {
      openapi: string;
      paths: Record<string, unknown>;
    };
    expect(document.openapi).toBe('3.1.0');
    const validator = new Validator();
    const result = await validator.validate(document as unknown as Parameters<typeof validator.validate>[0]);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(Object.keys(document.paths)).toContain('/healthz');
  });
});
