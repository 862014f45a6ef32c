// What every face says when a dataset is missing, and that they all say the same: never loaded,
// loading now (since when), last load failed (when, and why in one sentence about the publisher's
// file). The failure is real: a sync of a corrupted copy of Census's county list. REST, MCP, /ask
// and the loan-limits page must show the sentence this test builds from the `sync_runs` row it
// reads itself; /healthz shows the state, when and why, and the operator's command, which no public
// answer may carry.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countiesDataset } from '../../api/loan-limits/counties.ts';
import { runSync } from '../../api/sync/runner.ts';
import { loadConfig } from '../../api/config.ts';
import { loadSsrHandler } from '../../api/server.ts';
import { inWords } from '../../site/views/freshness.ts';
import { createLogger } from '../../api/platform/logger.ts';
import { buildTestApp, listen, testConfig, type TestApp } from '../support/app.ts';
import { createTestDatabase, type TestDatabase } from '../support/databases.ts';
import { connectMcp, resultText } from '../support/mcp-client.ts';
import { postAsk, readAskStream } from '../support/sse.ts';
import { ensureSiteBuiltForTests } from '../support/site-build.ts';
import { SOURCE_DIR, hasSourceData } from '../support/source-data.ts';
import { syncInto } from '../support/synced.ts';

const CENSUS_PAGE = 'https://www.census.gov/library/reference/code-lists/ansi.html';
const LIMITS_PATH = '/api/v1/loan-limits?state=CA&county=Los%20Angeles';
const QUESTION = 'What is the conforming loan limit in Los Angeles County, California?';

/** "2026-03-02 at 06:31 UTC", written here rather than taken from the service. */
const moment = (value: Date | string) => {
  const iso = new Date(value).toISOString();
  return `${iso.slice(0, 10)} at ${iso.slice(11, 16)} UTC`;
};

const decodeHtml = (html: string) =>
  html
    .replace(/&#39;|&#x27;|&apos;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>');

/** A copy of the mirror's county list with one FIPS code broken, next to the real loan-limit files. */
function corruptedMirror(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mds-corrupt-'));
  const lines = fs.readFileSync(path.join(SOURCE_DIR, 'geo', 'county_FIPS.csv'), 'utf8').split('\n');
  expect(lines[200]).toMatch(/^[A-Z]{2},\d{2},\d{3},/);
  lines[200] = lines[200]!.replace(/,\d{5}(\r?)$/, ',0X001$1'); // line 201 of the file
  fs.mkdirSync(path.join(dir, 'geo'));
  fs.writeFileSync(path.join(dir, 'geo', 'county_FIPS.csv'), lines.join('\n'));
  fs.symlinkSync(path.join(SOURCE_DIR, 'loan_limits'), path.join(dir, 'loan_limits'));
  return dir;
}

describe.skipIf(!hasSourceData)('the words for a missing dataset, on every face', () => {
  let database: TestDatabase;
  let app: TestApp;
  let server: Awaited<ReturnType<typeof listen>>;
  let mirror: string;

  beforeAll(async () => {
    await ensureSiteBuiltForTests();
    // PostgreSQL: the "loading" case reads while another connection's load transaction is open.
    database = await createTestDatabase('postgres');
    const ssrHandler = await loadSsrHandler(testConfig());
    expect(ssrHandler, 'the built site has its on-demand pages').toBeDefined();
    app = await buildTestApp(database.db, { options: { ssrHandler } });
    server = await listen(app.app);
    mirror = corruptedMirror();
  }, 600_000);

  afterAll(async () => {
    await server?.close();
    await app?.close();
    await database?.drop();
    if (mirror) fs.rmSync(mirror, { recursive: true, force: true });
  });

  const fresh = () => app.deps.services.datasets.invalidate();

  /**
   * The sentence on REST, MCP, /ask and the page; each face's own wrapping around it is allowed. The
   * page names the publisher's series in words where the API names the dataset ("the counties dataset").
   */
  async function everyFaceSays(sentence: string, status: number): Promise<void> {
    const rest = await fetch(`${server.url}${LIMITS_PATH}`);
    expect(rest.status).toBe(status);
    const body = (await rest.json()) as { error: string; status: number };
    expect(body).toEqual({ error: sentence, status });

    const mcp = await connectMcp(server.url);
    try {
      const result = await mcp.callTool({ name: 'get_loan_limits', arguments: { state: 'CA', county: 'Los Angeles' } });
      expect(result.isError).toBe(true);
      expect(resultText(result)).toBe(sentence);
    } finally {
      await mcp.close();
    }

    const { answer } = await readAskStream(await postAsk(server.url, { message: QUESTION }));
    expect(answer).toContain(sentence);

    const page = await fetch(`${server.url}/loan-limits?state=CA&county=Los+Angeles`);
    expect(page.status).toBe(status);
    const html = decodeHtml(await page.text());
    expect(html).toContain(inWords(sentence));
    expect(html).not.toMatch(/The \w+ dataset/);

    for (const text of [JSON.stringify(body), answer, html]) {
      expect(text).not.toMatch(/npm run|county_FIPS|\/tmp\/|mds-corrupt/);
    }
  }

  it('says a dataset was never loaded', async () => {
    fresh();
    await everyFaceSays('The counties dataset is not loaded yet: this service has never loaded it.', 503);
    const health = (await (await fetch(`${server.url}/healthz`)).json()) as { datasets: Record<string, Record<string, unknown>> };
    expect(health.datasets.counties).toMatchObject({
      state: 'never_loaded',
      as_of: null,
      synced_at: null,
      hint: expect.stringContaining('npm run sync -- counties'),
    });
  }, 120_000);

  it('says it is loading now, since when, while a sync loads it', async () => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let loading!: () => void;
    const started = new Promise<void>((resolve) => (loading = resolve));
    // The real county load, held until the test has looked.
    const held = {
      ...countiesDataset,
      load: async (...args: Parameters<typeof countiesDataset.load>) => {
        loading();
        await released;
        return countiesDataset.load(...args);
      },
    };
    const config = loadConfig({ LOG_LEVEL: 'silent', NODE_ENV: 'test', MDS_SOURCE_DIR: SOURCE_DIR });
    const sync = runSync(database.db, [held], { names: ['counties'], logger: createLogger('silent'), config });
    try {
      await started;
      const { rows } = await database.db.query<{ started_at: Date }>(
        "SELECT started_at FROM sync_runs WHERE dataset = 'counties' AND status = 'running'",
      );
      expect(rows).toHaveLength(1);
      fresh();
      const sentence = `The counties dataset is not loaded yet: it is loading now (since ${moment(rows[0]!.started_at)}); retry in a minute.`;
      const rest = await fetch(`${server.url}${LIMITS_PATH}`);
      expect(rest.status).toBe(503);
      expect(rest.headers.get('retry-after')).toBe('60');
      expect(await rest.json()).toEqual({ error: sentence, status: 503 });
      const mcp = await connectMcp(server.url);
      try {
        expect(resultText(await mcp.callTool({ name: 'get_loan_limits', arguments: { state: 'CA' } }))).toBe(sentence);
      } finally {
        await mcp.close();
      }
      const health = (await (await fetch(`${server.url}/healthz`)).json()) as { datasets: Record<string, Record<string, unknown>> };
      expect(health.datasets.counties).toMatchObject({ state: 'loading', loading_since: new Date(rows[0]!.started_at).toISOString() });
    } finally {
      release();
    }
    expect((await sync).results.map((result) => result.status)).toEqual(['ok']);
    // Back to never loaded for the next test: drop what the held load wrote.
    await database.db.query("DELETE FROM datasets WHERE name = 'counties'");
    await database.db.query('DELETE FROM sync_runs');
  }, 120_000);

  it('says the last load failed, when, and why, after a sync of a corrupted county file', async () => {
    const report = await syncInto(database.db, ['counties', 'loan_limits_conforming'], { sourceDir: mirror });
    expect(report.results.map((result) => [result.name, result.status])).toEqual([
      ['counties', 'failed'],
      ['loan_limits_conforming', 'skipped'],
    ]);
    // The operator's detail names the file and line; the reader's sentence names the publisher's page.
    expect(report.results[0]!.message).toMatch(/county_FIPS\.csv:201: county FIPS/);
    const { rows } = await database.db.query<{ finished_at: Date }>(
      "SELECT finished_at FROM sync_runs WHERE dataset = 'counties' AND status = 'failed'",
    );
    expect(rows).toHaveLength(1);
    const when = rows[0]!.finished_at;
    const reason = `The publisher's file (${CENSUS_PAGE}) is not in the format this service reads; the publisher may have changed it.`;
    fresh();
    await everyFaceSays(`The counties dataset is not available: its last load failed on ${moment(when)}. ${reason}`, 503);

    const rest = await fetch(`${server.url}${LIMITS_PATH}`);
    expect(rest.headers.get('retry-after')).toBe('3600');
    const health = (await (await fetch(`${server.url}/healthz`)).json()) as { datasets: Record<string, Record<string, unknown>> };
    expect(health.datasets.counties).toMatchObject({
      state: 'failed',
      as_of: null,
      last_failure: { at: new Date(when).toISOString(), reason },
      hint: expect.stringContaining('npm run sync -- counties'),
    });
    expect(health.datasets.loan_limits_conforming).toMatchObject({
      state: 'failed',
      last_failure: { reason: 'It needs the counties dataset, which did not load.' },
    });
    // Failed datasets answer 503, so the service as a whole is not "ok".
    expect(health).toMatchObject({ status: 'degraded', failed_datasets: expect.arrayContaining(['counties', 'loan_limits_conforming']) });
  }, 180_000);

  it('serves the dataset again once a sync of the good file succeeds, and keeps its earlier failure out of the answer', async () => {
    const report = await syncInto(database.db, ['counties']);
    expect(report.results.map((result) => result.status)).toEqual(['ok']);
    fresh();
    const health = (await (await fetch(`${server.url}/healthz`)).json()) as { datasets: Record<string, Record<string, unknown>> };
    // The Census list's vintage, not the day of the sync; the sync's own date is a field of its own.
    expect(health.datasets.counties).toMatchObject({
      state: 'loaded',
      as_of: '2019-01-02',
      synced_at: expect.any(String),
      source: CENSUS_PAGE,
    });
    expect(health.datasets.counties).not.toHaveProperty('last_failure');
    const rest = await fetch(`${server.url}${LIMITS_PATH}`);
    // Counties are back; the conforming limits were never loaded, and that is what is said now.
    expect(await rest.json()).toEqual({
      error: expect.stringMatching(
        /^The loan_limits_conforming dataset is not available: its last load failed on .* It needs the counties dataset, which did not load\.$/,
      ),
      status: 503,
    });
  }, 120_000);
});
