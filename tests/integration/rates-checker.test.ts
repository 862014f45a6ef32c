// The CFPB Rate Checker adapter as a default dataset, against a local fake of the endpoint that answers
// in the real response shape (`{data: {"<rate>": <lenders>}, timestamp, request}`, as the fixtures in
// tests/fixtures/rates): a bare sync loads the conventional 30-year cells of every state, spaced out,
// retried when the publisher is busy, resumed after a partial run, failing clearly when it is
// unreachable, and skipped (never failed) with MDS_SOURCE_DIR. Histogram counts are made up per cell.
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../api/config.ts';
import { createLogger } from '../../api/platform/logger.ts';
import { DetailedRateRecordSchema, STATE_CODES } from '../../api/rates/contract.ts';
import { createRateCheckerDataset, type RateCheckerOptions } from '../../api/rates/sync/rate-checker.ts';
import { datasetDefinitions } from '../../api/sync/registry.ts';
import { planSync, runSync } from '../../api/sync/runner.ts';
import { buildTestApp, listen } from '../support/app.ts';
import { createTestDatabase, type TestDatabase } from '../support/databases.ts';
import { hasSourceData, SOURCE_DIR } from '../support/source-data.ts';
import { syncInto } from '../support/synced.ts';

const DAY = '2026-11-20';
const clock = () => new Date(`${DAY}T15:00:00Z`);

/** A histogram per cell that differs by state and tier, in the endpoint's shape. */
function answer(url: URL): Record<string, unknown> {
  const state = url.searchParams.get('state') ?? '';
  const minfico = Number(url.searchParams.get('minfico'));
  const shift = (STATE_CODES.indexOf(state as never) % 8) * 0.125 + (850 - minfico) / 200;
  const rate = (offset: number) => (6 + shift + offset).toFixed(3);
  return {
    data: { [rate(-0.125)]: 2 + (minfico % 3), [rate(0)]: 7, [rate(0.125)]: 3 },
    timestamp: `${DAY}T04:00:00Z`,
    request: Object.fromEntries(url.searchParams),
  };
}

/** The test's own reading of a histogram: the rate most lenders offer, lowest on a tie. */
function modeOf(body: { data: Record<string, number> }): number {
  const [best] = Object.entries(body.data).sort(([rateA, a], [rateB, b]) => b - a || Number(rateA) - Number(rateB));
  return Number(best?.[0]);
}

type Behaviour = (url: URL, attempt: number) => { status: number; body?: unknown; headers?: Record<string, string> } | undefined;

async function fakeRateChecker(): Promise<{ url: string; requests: URL[]; behave(fn: Behaviour | undefined): void; close(): Promise<void> }> {
  const requests: URL[] = [];
  const attempts = new Map<string, number>();
  let behaviour: Behaviour | undefined;
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    requests.push(url);
    const attempt = (attempts.get(url.search) ?? 0) + 1;
    attempts.set(url.search, attempt);
    const special = behaviour?.(url, attempt);
    const status = special?.status ?? 200;
    res.writeHead(status, { 'content-type': 'application/json', ...special?.headers });
    res.end(JSON.stringify(special?.body ?? (status === 200 ? answer(url) : { detail: 'try later' })));
  });
  // Idle keep-alive sockets stay open between tests: a socket the server closes just as the client
  // reuses it would be retried (rightly), and the tests count requests.
  server.keepAliveTimeout = 300_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/oah-api/rates/rate-checker`,
    requests,
    behave: (fn) => {
      behaviour = fn;
      attempts.clear();
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe.skipIf(!hasSourceData)('CFPB Rate Checker as a default dataset', () => {
  let fake: Awaited<ReturnType<typeof fakeRateChecker>>;
  let database: TestDatabase;
  let cacheDir: string;
  const noWait = { minIntervalMs: 0, sleep: async () => {} };
  const checker = (options: RateCheckerOptions = {}) => createRateCheckerDataset({ baseUrl: fake.url, cacheDir, ...noWait, ...options });
  const run = (options: RateCheckerOptions, dataset: Record<string, string> = {}, env: Record<string, string> = {}) =>
    runSync(database.db, [checker(options)], {
      options: dataset, logger: createLogger('silent'), clock, config: loadConfig({ LOG_LEVEL: 'silent', ...env }),
    });
  const details = async () => {
    const { rows } = await database.db.query<{ details: unknown }>("SELECT details FROM datasets WHERE name = 'rate_checker'");
    const value = rows[0]?.details;
    return (typeof value === 'string' ? JSON.parse(value) : value) as Record<string, unknown> | undefined;
  };

  beforeAll(async () => {
    fake = await fakeRateChecker();
  });
  afterAll(async () => {
    await fake.close();
  });
  beforeEach(async () => {
    database = await createTestDatabase('pglite');
    cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mds-rate-checker-'));
    fake.requests.length = 0;
    fake.behave(undefined);
  });
  afterEach(async () => {
    await database.drop();
    fs.rmSync(cacheDir, { recursive: true, force: true });
  });

  it('is part of a bare sync, and skipped (not failed) with MDS_SOURCE_DIR, asking nothing', async () => {
    expect(planSync(datasetDefinitions).map((definition) => definition.name)).toContain('rate_checker');
    const report = await run({}, {}, { MDS_SOURCE_DIR: SOURCE_DIR });
    expect(report.ok).toBe(true);
    expect(report.results).toEqual([expect.objectContaining({ name: 'rate_checker', status: 'skipped', message: expect.stringMatching(/MDS_SOURCE_DIR is set and the CFPB Rate Checker is an online service/) })]);
    expect(fake.requests).toHaveLength(0);
    expect(await details()).toBeUndefined();
  });

  it('loads the conventional 30-year cells of every state and serves each state its own mode', async () => {
    const report = await run({ concurrency: 4 });
    expect(report.results[0]).toMatchObject({ status: 'ok', rows: 510, changed: 510, asOf: DAY });
    expect(fake.requests).toHaveLength(510);
    expect(new Set(fake.requests.map((url) => `${url.searchParams.get('loan_type')}/${url.searchParams.get('loan_term')}`))).toEqual(new Set(['CONF/30']));
    expect(await details()).toMatchObject({ cells: 510, answered: 510, with_offers: 510, failed: 0, requests: 510, from_earlier_run_today: 0 });

    // Served by GET /rates for each state's cell, ahead of the national figures.
    await syncInto(database.db, ['pmms', 'optimal_blue']);
    const app = await buildTestApp(database.db, { clock });
    const server = await listen(app.app);
    try {
      for (const [state, fico, ltv] of [['WY', 3, 2], ['CA', 1, 1], ['NY', 5, 1], ['DC', 2, 2]] as const) {
        const asked = fake.requests.find((url) => url.searchParams.get('state') === state && Number(url.searchParams.get('minfico')) === [0, 780, 740, 720, 700, 680][fico] &&
          url.searchParams.get('loan_amount') === (ltv === 1 ? '300000' : '380000'));
        const histogram = answer(asked as URL) as { data: Record<string, number> };
        const offers = Object.values(histogram.data).reduce((sum, count) => sum + count, 0);
        const body = DetailedRateRecordSchema.parse(await (await fetch(`${server.url}/api/v1/rates?state=${state}&fico=${fico}&ltv=${ltv}`)).json());
        expect(body).toMatchObject({ rate: modeOf(histogram), rate_30yr: modeOf(histogram), last_updated: DAY, source: `CFPB Rate Checker (most common of ${offers} lender offers)` });
        // The national survey of 2026-10-08 beside a quote of 2026-11-20: said so.
        expect(body.stale.map((figure) => figure.field)).toEqual(['survey_rate', 'national_average_rate', 'index_a_rate']);
        expect(body.disclaimer).toMatch(/the national survey \(Freddie Mac PMMS 30-year\) is from 2026-10-08, 43 days before the newest figure here \(2026-11-20\)/);
      }
    } finally {
      await server.close();
      await app.close();
    }
  });

  it('spaces its requests out across workers, on one shared schedule', async () => {
    // The clock stands still: each request must then wait one more interval than the one before it.
    const waits: number[] = [];
    let attempts = 0;
    const counting = ((input: string | URL, init?: RequestInit) => {
      attempts += 1;
      return fetch(input, init);
    }) as typeof fetch;
    const report = await run(
      { concurrency: 3, minIntervalMs: 250, retryBaseMs: 1, now: () => 1_000_000, sleep: async (ms) => void waits.push(ms), fetch: counting },
      { states: 'CO,UT' },
    );
    expect(report.results[0]?.status).toBe('ok');
    expect(fake.requests).toHaveLength(20);
    // Every attempt (a retried one too) takes the next slot; retry backoffs here are 1-8 ms.
    const slots = waits.filter((ms) => ms >= 250).sort((a, b) => a - b);
    expect(slots).toEqual(Array.from({ length: attempts - 1 }, (_, index) => (index + 1) * 250));
  });

  it('retries a busy publisher (429, 503) with backoff and Retry-After, then loads every cell', async () => {
    const waits: number[] = [];
    fake.behave((url, attempt) => {
      const fico = url.searchParams.get('minfico');
      if (fico === '720' && url.searchParams.get('loan_amount') === '300000' && attempt <= 2) return { status: 503, headers: { 'retry-after': '3' } };
      if (fico === '700' && url.searchParams.get('loan_amount') === '380000' && attempt === 1) return { status: 429 };
      return undefined;
    });
    const report = await run({ retryBaseMs: 500, sleep: async (ms) => void waits.push(ms) }, { states: 'CO' });
    expect(report.results[0]).toMatchObject({ status: 'ok', rows: 10 });
    expect(fake.requests).toHaveLength(13);
    expect(waits.sort((a, b) => a - b)).toEqual([500, 3_000, 3_000]);
  });

  it('resumes after a run that stopped half-way: answers kept for the day are not asked again', async () => {
    fake.behave((url) => (url.searchParams.get('state') === 'CO' ? undefined : { status: 500 }));
    const first = await run({ retries: 0 }, { states: 'CO,WY,UT' });
    expect(first.results[0]?.status).toBe('failed');
    expect(first.results[0]?.message).toMatch(/only 10 of 30 cells answered \(first failure: (WY|UT)-conventional-30-fico\d-ltv\d: answered HTTP 500\)\. The answers received are kept for today/);
    expect(await details()).toBeUndefined();

    fake.behave(undefined);
    fake.requests.length = 0;
    const second = await run({ retries: 0 }, { states: 'CO,WY,UT' });
    expect(second.results[0]).toMatchObject({ status: 'ok', rows: 30, changed: 30 });
    expect(fake.requests.map((url) => url.searchParams.get('state')).sort()).toEqual([...Array(10).fill('UT'), ...Array(10).fill('WY')]);
    expect(await details()).toMatchObject({ answered: 30, from_earlier_run_today: 10, requests: 20 });

    fake.requests.length = 0;
    const third = await run({ retries: 0 }, { states: 'CO,WY,UT' });
    expect(third.results[0]).toMatchObject({ status: 'ok', changed: 0 });
    expect(fake.requests).toHaveLength(0);
  });

  it('loads what answered when some cells fail for good, listing them', async () => {
    fake.behave((url) => (url.searchParams.get('state') === 'WY' ? { status: 404, body: { detail: 'Not found' } } : undefined));
    const report = await run({}, { states: 'CO,WY' });
    expect(report.results[0]).toMatchObject({ status: 'ok', rows: 10 });
    const recorded = await details();
    expect(recorded).toMatchObject({ cells: 20, answered: 10, failed: 10 });
    expect(fake.requests).toHaveLength(20); // a 404 is not retried
    expect(recorded?.failures).toContain('WY-conventional-30-fico1-ltv1: answered HTTP 404');
  });

  it('fails fast and clearly when the publisher cannot be reached at all', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    let calls = 0;
    const counting = ((input: string | URL, init?: RequestInit) => {
      calls += 1;
      return fetch(input, init);
    }) as typeof fetch;
    const report = await run({ baseUrl: `http://127.0.0.1:${port}/oah-api/rates/rate-checker`, retries: 1, fetch: counting });
    expect(report.results[0]?.status).toBe('failed');
    expect(report.results[0]?.message).toMatch(/the CFPB Rate Checker is unreachable \(no answer: fetch failed after 2 tries\); no cell answered\./);
    expect(calls).toBeLessThan(20); // gave up, instead of 510 cells × 2 tries
  });
});
