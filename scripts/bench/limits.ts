// The cost of keys and rate limits: throughput of GET /api/v1/rates with the limiter's memory store
// against the same route with every limit off (target ≥ 90%), plus the shared PostgreSQL and Redis
// stores. Each variant is its own service process over one scratch PostgreSQL database holding the
// rate datasets synced from the mirror; limits are set high enough that nothing is refused, so
// every request pays the limiter's full cost and still gets its 200.
import path from 'node:path';
import { randomBytes, randomInt } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import pg from 'pg';
import { Redis } from 'ioredis';
import { PROJECT_ROOT } from '../../api/config.ts';
import { freePort, spawnServer, waitForOk } from '../lib/child-server.ts';
import { BENCH_SERVICE_ENV, sourceDir, waitForQuiet } from './service.ts';
import { median, peakRssMb, runLoad, type LoadResult } from './load.ts';
import type { BenchModule, BenchRow } from './types.ts';

const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const ROUTE = '/api/v1/rates';
const HIGH = '1000000000';
const log = (line: string) => process.stderr.write(`bench limits: ${line}\n`);

type Variant = { label: string; env: Record<string, string> };

const OFF: Variant = { label: 'limits off', env: { RATE_LIMIT_ANON_PER_MINUTE: '0', RATE_LIMIT_KEY_PER_MINUTE: '0', RATE_LIMIT_PER_HOUR: '0' } };
const limited = (store: string): Variant => ({
  label: `${store} store`,
  env: { RATE_LIMIT_ANON_PER_MINUTE: HIGH, RATE_LIMIT_KEY_PER_MINUTE: HIGH, RATE_LIMIT_PER_HOUR: HIGH, RATE_LIMIT_STORE: store },
});

async function scratchDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `mds_bench_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: ADMIN_URL });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}

async function syncRates(databaseUrl: string): Promise<void> {
  const { rateDatasets } = await import('../../api/rates/sync/datasets.ts');
  // The datasets a default sync loads (the opt-in ones need a file or the network).
  const names = rateDatasets.filter((definition) => definition.syncByDefault !== false).map((definition) => definition.name);
  log(`syncing ${names.join(', ')} from ${sourceDir()}`);
  const result = spawnSync(process.execPath, [path.join(PROJECT_ROOT, 'scripts', 'sync.ts'), ...names], {
    cwd: PROJECT_ROOT,
    env: { ...process.env, DATABASE_URL: databaseUrl, MDS_SOURCE_DIR: sourceDir(), LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  if (result.status !== 0) log(`sync exited with ${result.status}: rows below may count 503s as errors`);
}

interface RunningVariant {
  variant: Variant;
  url: string;
  pid: number;
  stop: () => Promise<unknown>;
}

async function startVariant(variant: Variant, databaseUrl: string): Promise<RunningVariant> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const server = await spawnServer(path.join(PROJECT_ROOT, 'api', 'main.ts'), {
    env: {
      ...BENCH_SERVICE_ENV,
      ...variant.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      BASE_URL: url,
      DATABASE_URL: databaseUrl,
      REDIS_URL,
      // The load carries a client address of its own, so the bench never shares a budget with anyone.
      TRUST_PROXY: 'loopback',
    },
  });
  await waitForOk(`${url}/healthz`);
  return { variant, url, pid: server.child.pid ?? 0, stop: () => server.stop() };
}

export const run: BenchModule = async (context) => {
  const scratch = await scratchDatabase();
  const clientIp = `192.0.2.${randomInt(1, 255)}`;
  const running: RunningVariant[] = [];
  try {
    await syncRates(scratch.url);
    const variants = [OFF, limited('memory'), limited('postgres'), limited('redis')];
    for (const variant of variants) running.push(await startVariant(variant, scratch.url));
    // Each process refreshes the search index at start; measuring during that work would charge it
    // to whichever variant happened to be doing it.
    for (const entry of running) await waitForQuiet(entry.pid);
    const headers = { 'X-Forwarded-For': clientIp };
    for (const entry of running) await runLoad({ url: `${entry.url}${ROUTE}`, connections: 10, durationSeconds: 1, headers }); // warm-up
    // All four serve at once. Each limited variant is measured right beside a run with limits off
    // (in alternating order, round after round), so drift on a shared machine hits both runs of a
    // pair alike; its ratio is the median of the per-pair ratios.
    const rounds = context.quick ? 2 : 5;
    const durationSeconds = Math.max(3, Math.round(context.seconds / 2));
    const [offEntry, ...limitedEntries] = running as [RunningVariant, ...RunningVariant[]];
    const load = (entry: RunningVariant) => {
      log(`${ROUTE} with ${entry.variant.label}`);
      return runLoad({ url: `${entry.url}${ROUTE}`, connections: 50, durationSeconds, headers });
    };
    const offRuns: LoadResult[] = [];
    const pairs = new Map<RunningVariant, { off: LoadResult; limited: LoadResult }[]>(limitedEntries.map((entry) => [entry, []]));
    for (let round = 1; round <= rounds; round += 1) {
      log(`round ${round}/${rounds}`);
      for (const entry of limitedEntries) {
        const offFirst = round % 2 === 1;
        const first = await load(offFirst ? offEntry : entry);
        const second = await load(offFirst ? entry : offEntry);
        const pair = offFirst ? { off: first, limited: second } : { off: second, limited: first };
        offRuns.push(pair.off);
        pairs.get(entry)!.push(pair);
      }
    }
    const summary = (runs: LoadResult[]) => ({
      requestsPerSecond: runs.reduce((sum, result) => sum + result.requestsPerSecond, 0) / runs.length,
      p50Ms: median(runs.map((result) => result.p50Ms)),
      p99Ms: median(runs.map((result) => result.p99Ms)),
      errors: runs.reduce((sum, result) => sum + result.errors + result.non2xx, 0),
    });
    const rows: BenchRow[] = [
      {
        family: 'limits',
        name: `GET ${ROUTE}, limits off`,
        ...summary(offRuns),
        peakRssMb: peakRssMb(offEntry.pid),
        note: `mean of ${offRuns.length} runs of ${durationSeconds} s, one beside each run with limits on`,
      },
    ];
    for (const entry of limitedEntries) {
      const entryPairs = pairs.get(entry)!;
      const ratios = entryPairs.map((pair) => pair.limited.requestsPerSecond / pair.off.requestsPerSecond);
      const ratio = median(ratios);
      const ratioNote = `median of ${ratios.length} paired ratios (${ratios.map((value) => value.toFixed(2)).join(', ')})`;
      rows.push({
        family: 'limits',
        name: `GET ${ROUTE}, ${entry.variant.label}`,
        ...summary(entryPairs.map((pair) => pair.limited)),
        peakRssMb: peakRssMb(entry.pid),
        baseline: `GET ${ROUTE}, limits off`,
        ratio,
        ...(entry.variant.label === 'memory store'
          ? { target: '>= 0.90 of limits off', met: ratio >= 0.9, note: ratioNote }
          : { note: `${ratioNote}; shared store, one client, so every request updates the same counters` }),
      });
    }
    return rows;
  } finally {
    await Promise.all(running.map((entry) => entry.stop()));
    await scratch.drop().catch(() => undefined);
    const redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });
    try {
      await redis.connect();
      const keys = await redis.keys(`mds:*ip:${clientIp}`);
      if (keys.length > 0) await redis.del(...keys);
    } catch {
      // Redis gone: nothing of ours to clean up there.
    } finally {
      redis.disconnect();
    }
  }
};
