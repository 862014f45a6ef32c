// Two instances (real processes) as the README's scale-out section runs them: one PostgreSQL
// (DATABASE_URL), one Redis for the rate limits, one HMDA warehouse folder. One budget per client
// across both, refusals spending none of it; a sync by one instance served by the other; a warehouse
// published into the shared folder answered alike by both.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomInt } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KeyStore } from '../../api/access/key-store.ts';
import { createPostgresDatabase } from '../../api/platform/db/postgres.ts';
import { createLogger } from '../../api/platform/logger.ts';
import { datasetDefinitions } from '../../api/sync/registry.ts';
import { createScratchPostgres } from '../support/databases.ts';
import { rawRequest } from '../support/http.ts';
import { connectMcp } from '../support/mcp-client.ts';
import { startServerProcess, type ServerProcess } from '../support/server-process.ts';
import { hasSourceData, partialMirror } from '../support/source-data.ts';
import { extractWarehouse } from './hmda-fixtures.ts';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const DEFAULTS = datasetDefinitions.filter((definition) => definition.syncByDefault !== false).map((definition) => definition.name);
// The conforming limits alone: the first instance syncs part of the mirror (FHA's files left out).
const LIMITS_PATH = '/api/v1/loan-limits?state=CA&county=Los%20Angeles&year=2026&loan_type=conforming';

type Health = {
  limits: Record<string, unknown>;
  datasets: Record<string, { state: string; as_of: string | null; synced_at: string | null }>;
};

const randomIp = () => `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;

describe.skipIf(!hasSourceData)('two instances sharing PostgreSQL, Redis and the HMDA warehouse', () => {
  let scratch: Awaited<ReturnType<typeof createScratchPostgres>>;
  const hmdaDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mds-scale-hmda-'));
  // The first instance's sync reads the counties and the conforming limits (what the second is
  // asked for), not every file of the mirror: the other datasets settle as missing.
  let mirror = '';
  const dataDirs: string[] = [];
  const servers: ServerProcess[] = [];
  const clients: string[] = [];

  const start = (name: string, env: Record<string, string>) => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `mds-scale-${name}-`));
    dataDirs.push(dataDir);
    return startServerProcess(
      {
        DATABASE_URL: scratch.url,
        RATE_LIMIT_STORE: 'redis',
        REDIS_URL,
        HMDA_DIR: hmdaDir,
        DATA_DIR: dataDir,
        SESSION_SECRET: 'scale-out-test-secret-shared-by-both-instances',
        MDS_SOURCE_DIR: mirror,
        RATE_LIMIT_ANON_PER_MINUTE: '20',
        RATE_LIMIT_KEY_PER_MINUTE: '100',
        RATE_LIMIT_PER_HOUR: '1000',
        // Each request names its client, so this run never shares a budget with another.
        TRUST_PROXY: 'loopback',
        ...env,
      },
      120_000,
    );
  };

  beforeAll(async () => {
    mirror = partialMirror(['geo', 'loan_limits/fhfa_conforming']);
    scratch = await createScratchPostgres();
    // The first syncs what is missing at start-up; the second never syncs by itself.
    servers.push(await start('first', { SYNC_ON_START: 'true' }));
    servers.push(await start('second', { SYNC_ON_START: 'false' }));
  }, 240_000);

  afterAll(async () => {
    await Promise.all(servers.map((server) => server.stop()));
    await scratch?.drop();
    for (const dir of [hmdaDir, ...dataDirs, ...(mirror ? [mirror] : [])]) fs.rmSync(dir, { recursive: true, force: true });
    const redis = new Redis(REDIS_URL);
    for (const ip of clients) {
      const keys = await redis.keys(`mds:*ip:${ip}`);
      if (keys.length > 0) await redis.del(...keys);
    }
    redis.disconnect();
  });

  const health = async (server: ServerProcess) => (await (await fetch(`${server.url}/healthz`)).json()) as Health;

  it("serves on the second instance what the first one's sync loaded", async () => {
    const deadline = Date.now() + 180_000;
    let first = await health(servers[0]!);
    // Settled: loaded, failed, or missing (a file the mirror does not hold, e.g. the FFIEC's APOR table).
    while (!DEFAULTS.every((name) => ['loaded', 'failed', 'missing'].includes(first.datasets[name]?.state ?? ''))) {
      if (Date.now() > deadline) throw new Error(`the first instance's sync did not finish:\n${JSON.stringify(first.datasets)}`);
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      first = await health(servers[0]!);
    }
    expect(first.datasets.loan_limits_conforming?.state).toBe('loaded');
    // The second reads the same records (its own reads are cached for at most 5 s): asked until they
    // agree, for no longer than that.
    const cachedUntil = Date.now() + 5_500;
    let second = await health(servers[1]!);
    while (JSON.stringify(second.datasets) !== JSON.stringify(first.datasets) && Date.now() < cachedUntil) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      second = await health(servers[1]!);
    }
    expect(second.datasets).toEqual(first.datasets);
    expect(servers[1]!.output()).not.toMatch(/background sync started/);

    const ip = randomIp();
    clients.push(ip);
    const [fromFirst, fromSecond] = await Promise.all(
      servers.map((server) => rawRequest(`${server.url}${LIMITS_PATH}`, { headers: { 'X-Forwarded-For': ip } })),
    );
    expect(fromSecond!.status).toBe(200);
    expect(JSON.parse(fromSecond!.body)).toEqual(JSON.parse(fromFirst!.body));
    expect(JSON.parse(fromSecond!.body).counties[0].conforming.limits['1']).toBe(1_249_125);
  }, 240_000);

  // Runs after the first instance's sync (the test above), so neither process is busy loading.
  it('gives a client one budget across both, and its refusals spend none of it', async () => {
    const ip = randomIp();
    clients.push(ip);
    const statuses: number[] = [];
    for (let sent = 0; sent < 400; sent += 20) {
      const batch = await Promise.all(
        Array.from({ length: 20 }, (_, index) =>
          rawRequest(`${servers[index % 2]!.url}/api/v1/escrow?state=CA&closing_month=4`, { headers: { 'X-Forwarded-For': ip } }),
        ),
      );
      statuses.push(...batch.map((response) => response.status));
    }
    expect(statuses.filter((status) => status === 429)).toHaveLength(380);
    expect(statuses.filter((status) => status !== 429)).toHaveLength(20);
    // The shared counters hold what was served, not what was asked: 20 in the minute and the hour.
    const redis = new Redis(REDIS_URL);
    try {
      expect(await redis.get(`mds:anon:minute:ip:${ip}`)).toBe('20');
      expect(await redis.get(`mds:hour:ip:${ip}`)).toBe('20');
    } finally {
      redis.disconnect();
    }
    for (const server of servers) expect((await health(server)).limits).toEqual({ store: 'redis', state: 'ok' });
  }, 60_000);

  it('answers HMDA alike on both from the one warehouse folder', async () => {
    await extractWarehouse(hmdaDir);
    const db = createPostgresDatabase(scratch.url, createLogger('silent'));
    let key: string;
    try {
      const keys = new KeyStore(db, () => new Date());
      const account = await keys.findOrCreateAccountByEmail(`scale-${randomInt(1e9)}@example.org`);
      ({ key } = await keys.createKey(account.id));
    } finally {
      await db.close();
    }
    const answers = [];
    for (const server of servers) {
      const mcp = await connectMcp(server.url, { 'X-API-Key': key });
      try {
        const result = await mcp.callTool({ name: 'query_hmda', arguments: { preset: 'approvals', year: 2022, state: 'CO' } });
        expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
        answers.push((result.structuredContent as { rows: unknown[] }).rows);
      } finally {
        await mcp.close();
      }
    }
    expect(answers[0]!.length).toBeGreaterThan(0);
    expect(answers[1]).toEqual(answers[0]);
  }, 120_000);
});
