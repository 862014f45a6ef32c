// The cost of keys and rate limits: throughput of GET /api/v1/rates with the limiter's memory store
// against the same route with every limit off (target ≥ 90%), plus the shared PostgreSQL and Redis
// stores. Each variant runs as service processes of its own (PROCESSES) over one scratch PostgreSQL
// database holding the rate datasets synced from the mirror; limits are set high enough that
// nothing is refused, so every request pays the limiter's full cost and still gets its 200. A
// limited process and a limits-off one are loaded side by side on one CPU (pinSideBySide).
import http from 'node:http';
import path from 'node:path';
import { randomBytes, randomInt } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import pg from 'pg';
import { Redis } from 'ioredis';
import { PROJECT_ROOT } from '../../api/config.ts';
import { freePort, spawnServer, waitForOk } from '../lib/child-server.ts';
import { pinSideBySide, unpin } from '../lib/cpu-affinity.ts';
import { BENCH_SERVICE_ENV, sourceDir, waitForQuiet } from './service.ts';
import { cpuMicros, median, peakRssMb, runLoad, runPair, type LoadResult } from './load.ts';
import type { BenchModule, BenchRow } from './types.ts';

const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const ROUTE = '/api/v1/rates';
const HIGH = '1000000000';
const log = (line: string) => process.stderr.write(`bench limits: ${line}\n`);

type Variant = { label: string; env: Record<string, string> };

const OFF: Variant = {
  label: 'limits off',
  env: { RATE_LIMIT_ANON_PER_MINUTE: '0', RATE_LIMIT_KEY_PER_MINUTE: '0', RATE_LIMIT_PER_HOUR: '0' },
};
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

/**
 * Processes started per variant. A process keeps a speed of its own for its whole life, up to ~10%
 * off its twin's (same code, same data), so one pair of processes can show a cost that is not there.
 */
const PROCESSES: Record<string, number> = { 'limits off': 3, 'memory store': 3, 'postgres store': 1, 'redis store': 1 };

/**
 * The memory store's own work on one request — counting it in both limits and setting its three
 * headers — timed in a loop in this process, in µs: the part of the limited runs' cost that is the
 * limiter's, free of the per-process noise of the side-by-side runs.
 */
async function limiterWorkMicros(): Promise<number> {
  const { createLimiter } = await import('../../api/access/limiter.ts');
  const quiet = { warn: () => undefined } as unknown as Parameters<typeof createLimiter>[2];
  const limiter = await createLimiter(
    {
      RATE_LIMIT_ANON_PER_MINUTE: 1e9,
      RATE_LIMIT_KEY_PER_MINUTE: 1e9,
      RATE_LIMIT_PER_HOUR: 1e9,
      RATE_LIMIT_STORE: 'memory',
      REDIS_URL: REDIS_URL,
      DATABASE_URL: undefined,
    },
    'pglite',
    quiet,
  );
  const identity = { kind: 'anonymous' as const, ip: '192.0.2.1' };
  const request = { method: 'GET', httpVersionMajor: 1, httpVersionMinor: 1, headers: {} } as http.IncomingMessage;
  const loop = (count: boolean, iterations: number) => {
    const started = process.hrtime.bigint();
    for (let index = 0; index < iterations; index += 1) {
      const response = new http.ServerResponse(request);
      if (!count) continue;
      const decision = limiter.consumeNow(identity)!;
      for (const name in decision.headers) response.setHeader(name, decision.headers[name]!);
    }
    return Number(process.hrtime.bigint() - started) / iterations / 1_000;
  };
  // The fastest of several rounds: the loop's own floor, with a response object made either way.
  const rounds = Array.from({ length: 5 }, () => loop(true, 200_000) - loop(false, 200_000));
  await limiter.close();
  return Math.max(0, Math.min(...rounds));
}

export const run: BenchModule = async (context) => {
  const scratch = await scratchDatabase();
  const clientIp = `192.0.2.${randomInt(1, 255)}`;
  const running: RunningVariant[] = [];
  try {
    await syncRates(scratch.url);
    const variants = [OFF, limited('memory'), limited('postgres'), limited('redis')];
    const copies = variants.flatMap((variant) => Array.from({ length: PROCESSES[variant.label] ?? 1 }, () => variant));
    const started = await Promise.allSettled(copies.map((variant) => startVariant(variant, scratch.url)));
    for (const result of started) if (result.status === 'fulfilled') running.push(result.value);
    const failed = started.find((result) => result.status === 'rejected');
    if (failed) throw (failed as PromiseRejectedResult).reason;
    // Each process refreshes the search index at start; measuring during that work would charge it
    // to whichever variant happened to be doing it.
    for (const entry of running) await waitForQuiet(entry.pid);
    const headers = { 'X-Forwarded-For': clientIp };
    const load = (entry: RunningVariant, durationSeconds: number) =>
      runLoad({ url: `${entry.url}${ROUTE}`, connections: 50, durationSeconds, headers });
    // V8 keeps optimising a process for tens of thousands of requests.
    for (const entry of running) await load(entry, context.quick ? 2 : 4);
    const pinned = pinSideBySide(running.map((entry) => entry.pid));
    log(pinned ? 'services pinned to CPU 0, load generator to the others' : 'CPUs not pinned: pairs run one after the other');
    // Every limited process is paired with every process with limits off, round after round; a
    // variant's ratio is the median of its paired ratios.
    const rounds = context.quick ? 1 : 2;
    const durationSeconds = 3;
    const offEntries = running.filter((entry) => entry.variant === OFF);
    const offCpuBefore = offEntries.map((entry) => cpuMicros(entry.pid) ?? Number.NaN);
    const offRuns: LoadResult[] = [];
    const pairs = new Map<Variant, { off: LoadResult; limited: LoadResult }[]>(variants.slice(1).map((variant) => [variant, []]));
    for (let round = 1; round <= rounds; round += 1) {
      for (const entry of running.filter((candidate) => candidate.variant !== OFF)) {
        for (const offEntry of offEntries) {
          log(`round ${round}/${rounds}: ${entry.variant.label} (pid ${entry.pid}) beside limits off (pid ${offEntry.pid})`);
          const [off, limitedRun] = await runPair(
            pinned,
            () => load(offEntry, durationSeconds),
            () => load(entry, durationSeconds),
          );
          offRuns.push(off);
          pairs.get(entry.variant)!.push({ off, limited: limitedRun });
        }
      }
    }
    const offCpu = offEntries.reduce((sum, entry, index) => sum + (cpuMicros(entry.pid) ?? Number.NaN) - offCpuBefore[index]!, 0);
    const offMicrosPerRequest = offCpu / offRuns.reduce((sum, result) => sum + result.total, 0);
    const workMicros = await limiterWorkMicros();
    const summary = (runs: LoadResult[]) => ({
      requestsPerSecond: runs.reduce((sum, result) => sum + result.requestsPerSecond, 0) / runs.length,
      p50Ms: median(runs.map((result) => result.p50Ms)),
      p99Ms: median(runs.map((result) => result.p99Ms)),
      errors: runs.reduce((sum, result) => sum + result.errors + result.non2xx, 0),
    });
    const peakRss = (variant: Variant) =>
      Math.max(...running.filter((entry) => entry.variant === variant).map((entry) => peakRssMb(entry.pid) ?? 0));
    const rows: BenchRow[] = [
      {
        family: 'limits',
        name: `GET ${ROUTE}, limits off`,
        ...summary(offRuns),
        peakRssMb: peakRss(OFF),
        note: `mean of ${offRuns.length} runs of ${durationSeconds} s over ${offEntries.length} processes, each ${pinned ? 'at the same time as' : 'next to'} a run with limits on${pinned ? ', the pair sharing one CPU' : ''}`,
      },
    ];
    for (const [variant, variantPairs] of pairs) {
      const ratios = variantPairs.map((pair) => pair.limited.requestsPerSecond / pair.off.requestsPerSecond);
      const ratio = median(ratios);
      const spread = `${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)}`;
      const ratioNote = `median of ${ratios.length} paired ratios (range ${spread}) over ${PROCESSES[variant.label] ?? 1}×${offEntries.length} processes`;
      rows.push({
        family: 'limits',
        name: `GET ${ROUTE}, ${variant.label}`,
        ...summary(variantPairs.map((pair) => pair.limited)),
        peakRssMb: peakRss(variant),
        baseline: `GET ${ROUTE}, limits off`,
        ratio,
        ...(variant.label === 'memory store'
          ? { target: '>= 0.90 of limits off', met: ratio >= 0.9, note: ratioNote }
          : { note: `${ratioNote}; shared store, one client, so every request updates the same counters` }),
      });
    }
    rows.push({
      family: 'limits',
      name: 'memory store: counting one request and setting its headers, alone (a loop in the bench process)',
      note: `${workMicros.toFixed(2)} µs a request${Number.isFinite(offMicrosPerRequest) ? `, against ${offMicrosPerRequest.toFixed(0)} µs of CPU a request with limits off in the runs above (${((workMicros / offMicrosPerRequest) * 100).toFixed(1)}%)` : ''}`,
    });
    return rows;
  } finally {
    unpin(running.map((entry) => entry.pid));
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
