// Two server processes sharing one rate-limit store together allow exactly the limit: PostgreSQL
// (RATE_LIMIT_STORE=postgres) and Redis (RATE_LIMIT_STORE=redis).
import { randomInt } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScratchPostgres } from '../support/databases.ts';
import { startServerProcess, type ServerProcess } from '../support/server-process.ts';
import { rawRequest } from '../support/http.ts';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const LIMIT = 20;

/** A limited API route of the running service (a data route when one is registered). */
async function limitedPath(url: string): Promise<string> {
  const document = (await (await fetch(`${url}/api/v1/openapi.json`)).json()) as { paths: Record<string, unknown> };
  const paths = Object.keys(document.paths).filter((path) => !['/healthz', '/openapi.json'].includes(path) && !path.includes('{'));
  const chosen = paths.includes('/rates') ? '/rates' : paths.find((path) => path !== '/ask');
  if (chosen === undefined) throw new Error('no limited GET route registered');
  return `/api/v1${chosen}`;
}

async function countAdmitted(
  servers: ServerProcess[],
  path: string,
  total: number,
  clientIp: string,
): Promise<{ admitted: number; refused: number }> {
  // Fired concurrently at both processes: the store's atomic counters must still add up exactly.
  const responses = await Promise.all(
    Array.from({ length: total }, (_, index) =>
      rawRequest(`${servers[index % servers.length]!.url}${path}`, { headers: { 'X-Forwarded-For': clientIp } }),
    ),
  );
  const refused = responses.filter((response) => response.status === 429).length;
  return { admitted: total - refused, refused };
}

describe.each(['postgres', 'redis'] as const)('two server processes sharing the %s store', (store) => {
  let scratch: Awaited<ReturnType<typeof createScratchPostgres>>;
  const servers: ServerProcess[] = [];

  beforeAll(async () => {
    scratch = await createScratchPostgres();
    const env = {
      DATABASE_URL: scratch.url,
      RATE_LIMIT_STORE: store,
      REDIS_URL,
      RATE_LIMIT_ANON_PER_MINUTE: String(LIMIT),
      RATE_LIMIT_KEY_PER_MINUTE: '100',
      RATE_LIMIT_PER_HOUR: '1000',
      // Each test run uses its own client address, so runs sharing one Redis never share a budget.
      TRUST_PROXY: 'loopback',
      LOG_LEVEL: 'info',
      // vitest puts BASE_URL=/ into process.env (Vite's base), which the children would inherit.
      BASE_URL: 'http://localhost:3000',
    };
    // One after the other: the first applies the migrations.
    servers.push(await startServerProcess(env));
    servers.push(await startServerProcess(env));
  }, 120_000);

  afterAll(async () => {
    await Promise.all(servers.map((server) => server.stop()));
    await scratch.drop();
  });

  it(`admits exactly ${LIMIT} anonymous requests a minute between them`, async () => {
    const path = await limitedPath(servers[0]!.url);
    const clientIp = `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;
    try {
      const { admitted, refused } = await countAdmitted(servers, path, LIMIT + 10, clientIp);
      expect(admitted).toBe(LIMIT);
      expect(refused).toBe(10);
      for (const server of servers) expect(server.output()).not.toContain('rate-limit store unavailable');
    } finally {
      if (store === 'redis') {
        const redis = new Redis(REDIS_URL);
        const keys = await redis.keys(`mds:*ip:${clientIp}`);
        if (keys.length > 0) await redis.del(...keys);
        redis.disconnect();
      }
    }
  });
});
