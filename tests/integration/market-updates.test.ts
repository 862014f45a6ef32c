// Market updates, the news feed, the sitemap and brand-facts.json from the real rate history
// (Freddie Mac PMMS and Optimal Blue via FRED, synced from the mirror), on PGlite and PostgreSQL.
import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listMarketUpdates, getMarketUpdate, countMarketUpdates } from '../../api/news/market-updates.ts';
import { MCP_TOOL_NAMES } from '../../api/mcp/tool-names.ts';
import { buildTestApp, listen } from '../support/app.ts';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../support/databases.ts';
import { hasSourceData } from '../support/source-data.ts';
import { syncedTestDatabase } from '../support/synced.ts';

const RATES = ['pmms', 'optimal_blue'];

describe.skipIf(!hasSourceData).each(databaseKinds)('market updates on %s', (kind) => {
  let test: TestDatabase;
  beforeAll(async () => {
    test = await syncedTestDatabase(kind, RATES);
  });
  afterAll(() => test.drop());

  it('writes one post per PMMS week, newest first, with the survey moves from the data', async () => {
    const [latest, previous] = await listMarketUpdates(test.db, { limit: 2 });
    // The mirror's newest PMMS weeks: 2026-10-01 7.28, 2026-10-08 7.40 (SOURCES.md 8a).
    expect(latest?.week).toBe('2026-10-08');
    expect(latest?.survey30).toMatchObject({ value: 7.4, previous: 7.28, previousDate: '2026-10-01', change: 0.12 });
    expect(latest?.title).toBe('Week of October 8, 2026: 30-year survey rate rises to 7.40%');
    expect(latest?.summary).toMatch(/Generated from the data\.$/);
    expect(previous?.week).toBe('2026-10-01');
    expect(previous?.survey30.change).toBe(0.25);
    expect(await countMarketUpdates(test.db)).toBeGreaterThanOrEqual(2_898);
  });

  it('takes the benchmark reading from the days of the survey week and compares it with the week before', async () => {
    const update = await getMarketUpdate(test.db, '2025-09-25');
    expect(update?.survey15?.date).toBe('2025-09-25');
    expect(update?.benchmark30).not.toBeNull();
    const benchmark = update!.benchmark30!;
    expect(benchmark.date <= '2025-09-25' && benchmark.date > '2025-09-18').toBe(true);
    expect(benchmark.previousDate! <= '2025-09-18' && benchmark.previousDate! > '2025-09-11').toBe(true);
    const { rows } = await test.db.query<{ v: number }>(
      "SELECT value::float8 AS v FROM rate_series_observations WHERE series_id = 'OBMMIC30YF' AND observed_on = $1::date",
      [benchmark.date],
    );
    expect(benchmark.value).toBe(rows[0]?.v);
    expect(update?.sources.map((source) => source.url)).toContain('https://fred.stlouisfed.org/series/OBMMIC30YF');
  });

  it('leaves out a benchmark that has no reading in the week instead of carrying an old one', async () => {
    // The mirror's benchmark ends in September 2025; the survey runs to October 2026.
    const update = await getMarketUpdate(test.db, '2026-10-08');
    expect(update?.benchmark30).toBeNull();
    expect(update?.paragraphs.join(' ')).toContain('No Optimal Blue benchmark reading falls in this week');
  });

  it('finds no post for a date that is not a survey week or is not a date', async () => {
    expect(await getMarketUpdate(test.db, '2026-10-09')).toBeNull();
    expect(await getMarketUpdate(test.db, "2026-10-08' OR 1=1 --")).toBeNull();
  });
});

describe('market updates without rate data', () => {
  it('are an empty list, not an error', async () => {
    const test = await createTestDatabase('pglite');
    try {
      expect(await listMarketUpdates(test.db)).toEqual([]);
      expect(await countMarketUpdates(test.db)).toBe(0);
    } finally {
      await test.drop();
    }
  });
});

describe.skipIf(!hasSourceData)('feeds and machine-readable files over HTTP', () => {
  let test: TestDatabase;
  let server: Awaited<ReturnType<typeof listen>>;
  let close: () => Promise<void>;
  const parser = new XMLParser({ ignoreAttributes: false });

  beforeAll(async () => {
    test = await syncedTestDatabase('pglite', RATES);
    const app = await buildTestApp(test.db);
    close = app.close;
    server = await listen(app.app);
  });
  afterAll(async () => {
    await server.close();
    await close();
    await test.drop();
  });

  it('serves /news-feed.xml as RSS 2.0 with at least 100 market updates', async () => {
    const response = await fetch(`${server.url}/news-feed.xml`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/rss\+xml/);
    const feed = parser.parse(await response.text()) as {
      rss: {
        '@_version': string;
        channel: { title: string; lastBuildDate: string; item: { title: string; link: string; pubDate: string; guid: unknown }[] };
      };
    };
    expect(feed.rss['@_version']).toBe('2.0');
    const items = feed.rss.channel.item;
    // The channel says when its content last changed: the newest update's date.
    expect(feed.rss.channel.lastBuildDate).toBe(items[0]!.pubDate);
    expect(items.length).toBeGreaterThanOrEqual(100);
    expect(items[0]?.title).toBe('Week of October 8, 2026: 30-year survey rate rises to 7.40%');
    expect(items[0]?.link).toBe('http://localhost:3000/news/2026-10-08');
    expect(new Date(items[0]!.pubDate).toISOString().slice(0, 10)).toBe('2026-10-08');
  });

  it('lists market updates and built pages in /sitemap.xml', async () => {
    const response = await fetch(`${server.url}/sitemap.xml`);
    expect(response.status).toBe(200);
    const sitemap = parser.parse(await response.text()) as { urlset: { url: { loc: string; lastmod?: string }[] } };
    const locs = sitemap.urlset.url.map((url) => url.loc);
    expect(locs).toContain('http://localhost:3000/news/2026-10-08');
    expect(locs).toContain('http://localhost:3000/news');
  });

  it('serves brand-facts.json from the route table, the tool list and the datasets table', async () => {
    const response = await fetch(`${server.url}/.well-known/brand-facts.json`);
    expect(response.status).toBe(200);
    const facts = (await response.json()) as {
      name: string;
      endpoints: { method: string; path: string; url: string }[];
      mcp: { tools: { name: string; available: boolean }[] };
      dataSources: { dataset: string; publisher: string; asOf: string; sourceUrl: string }[];
    };
    expect(facts.name).toBe('Mortgage Data Service');
    expect(facts.endpoints).toContainEqual(
      expect.objectContaining({ method: 'GET', path: '/search', url: 'http://localhost:3000/api/v1/search' }),
    );
    expect(facts.mcp.tools.map((tool) => tool.name)).toEqual(MCP_TOOL_NAMES.map((tool) => tool.name));
    const pmms = facts.dataSources.find((source) => source.dataset === 'pmms');
    expect(pmms?.publisher).toMatch(/^Freddie Mac/);
    expect(pmms?.asOf).toBe('2026-10-08');
    expect(facts.dataSources.find((source) => source.dataset === 'optimal_blue')?.publisher).toMatch(/^Optimal Blue/);
  });
});
