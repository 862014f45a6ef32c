// Full-text search on PGlite and PostgreSQL alike: the real content ranks the obvious page first
// with highlighted excerpts and URLs, filters by type, resists hostile input, and other capabilities'
// documents survive a rebuild of ours.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { rebuildSearchIndex, searchIndexIsCurrent } from '../../api/search/build.ts';
import { countDocuments } from '../../api/search/query.ts';
import { indexDocuments, replaceDocuments } from '../../api/search/documents.ts';
import { startSearchIndexRefresh } from '../../api/search/job.ts';
import { ServiceUnavailableError } from '../../api/platform/errors.ts';
import { createLogger } from '../../api/platform/logger.ts';
import { createSearchService, type SearchService } from '../../api/search/service.ts';
import { registerSearchSource } from '../../api/search/sources.ts';
import { buildTestApp, listen, testConfig } from '../support/app.ts';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../support/databases.ts';

describe.each(databaseKinds)('search on %s', (kind) => {
  let test: TestDatabase;
  let search: SearchService;

  beforeAll(async () => {
    test = await createTestDatabase(kind);
    await test.db.transaction((tx) => rebuildSearchIndex(tx));
    search = createSearchService({ db: test.db, baseUrl: testConfig().baseUrl });
  });
  afterAll(() => test.drop());

  it.each([
    ['escrow cushion', '/glossary/escrow-cushion', /<mark>cushion<\/mark>/i],
    ['FHA mortgage insurance', '/glossary/fha-mortgage-insurance-premium', /<mark>FHA<\/mark>/],
    ['conforming loan limit', '/glossary/conforming-loan-limit', /<mark>conforming<\/mark>/i],
  ])('"%s" finds %s first, with a highlighted excerpt and its URL', async (query, path, highlight) => {
    const { results } = await search.search({ query, limit: 5 });
    expect(results[0]?.path).toBe(path);
    expect(results[0]?.url).toBe(`http://localhost:3000${path}`);
    expect(results[0]?.excerpt).toMatch(highlight);
    expect(results[0]?.type).toBe('glossary');
    expect(results.map((result) => result.score)).toEqual([...results.map((result) => result.score)].sort((a, b) => b - a));
  });

  it('reuses an answer within its TTL, and answers afresh after it or after a rebuild', async () => {
    let now = Date.parse('2026-11-02T12:00:00Z');
    const keeping = createSearchService({ db: test.db, baseUrl: testConfig().baseUrl, answerTtlMs: 60_000, clock: () => new Date(now) });
    const first = await keeping.search({ query: 'escrow cushion', limit: 3 });
    expect(await keeping.search({ query: ' escrow cushion ', limit: 3 })).toBe(first);
    expect(await keeping.search({ query: 'escrow cushion', limit: 4 })).not.toBe(first);
    now += 60_000;
    const later = await keeping.search({ query: 'escrow cushion', limit: 3 });
    expect(later).not.toBe(first);
    expect(later).toEqual(first);
    await keeping.rebuild();
    expect(await keeping.search({ query: 'escrow cushion', limit: 3 })).not.toBe(later);
  });

  it('filters by type and honours the limit', async () => {
    const { results } = await search.search({ query: 'escrow', type: 'glossary', limit: 2 });
    expect(results).toHaveLength(2);
    expect(results.every((result) => result.type === 'glossary')).toBe(true);
    const none = await search.search({ query: 'escrow', type: 'bill' });
    expect(none.results.every((result) => result.type === 'bill')).toBe(true);
  });

  it('understands web-search syntax: an excluded word removes pages that contain it', async () => {
    const all = await search.search({ query: 'escrow', limit: 50 });
    const without = await search.search({ query: 'escrow -cushion', limit: 50 });
    expect(without.results.length).toBeLessThan(all.results.length);
    expect(without.results.map((result) => result.path)).not.toContain('/glossary/escrow-cushion');
  });

  it('answers stop words and punctuation with no results instead of an error', async () => {
    expect((await search.search({ query: 'the and of' })).results).toEqual([]);
    expect((await search.search({ query: '!!! ((( ' })).results).toEqual([]);
  });

  it('treats SQL in the query as words', async () => {
    const { results } = await search.search({ query: "escrow'; DROP TABLE search_documents; --" });
    expect(Array.isArray(results)).toBe(true);
    const { rows } = await test.db.query<{ n: number }>('SELECT count(*)::int AS n FROM search_documents');
    expect(rows[0]?.n).toBeGreaterThan(0);
  });

  it('rejects an empty query, a bad type and an out-of-range limit with a message saying what is valid', async () => {
    await expect(search.search({ query: '   ' })).rejects.toThrow(/query must not be empty/);
    await expect(search.search({ query: 'x', type: 'blog' as never })).rejects.toThrow(/type must be one of article, glossary/);
    await expect(search.search({ query: 'x', limit: 500 })).rejects.toThrow(/limit must be an integer from 1 to 50/);
  });

  it('escapes markup from indexed text so an excerpt can only contain <mark>', async () => {
    await indexDocuments(test.db, 'test', [
      {
        id: 'test:xss',
        type: 'bill',
        title: 'Zyzzyva act',
        path: '/bills/zyzzyva',
        body: 'The zyzzyva <script>alert(1)</script> provision & more.',
      },
    ]);
    const { results } = await search.search({ query: 'zyzzyva' });
    // ts_headline drops tags; whatever remains is escaped, so only our <mark> tags are markup.
    expect(results[0]?.excerpt).not.toContain('<script');
    expect(results[0]?.excerpt).toContain('&amp; more');
    expect(results[0]?.excerpt.replace(/<\/?mark>/g, '')).not.toMatch(/<|>/);
    await replaceDocuments(test.db, 'test', []);
  });

  it("keeps other sources' documents when our content is rebuilt, and asks registered sources for theirs", async () => {
    await indexDocuments(test.db, 'other', [
      { id: 'other:1', type: 'bill', title: 'Quokka housing bill', path: '/bills/quokka', body: 'quokka' },
    ]);
    registerSearchSource({
      source: 'registered-test',
      documents: async () => [{ id: 'reg:1', type: 'bill', title: 'Wombat mortgage bill', path: '/bills/wombat', body: 'wombat' }],
    });
    const result = await test.db.transaction((tx) => rebuildSearchIndex(tx));
    expect(result.sources['registered-test']).toBe(1);
    expect((await search.search({ query: 'quokka' })).results[0]?.path).toBe('/bills/quokka');
    expect((await search.search({ query: 'wombat', type: 'bill' })).results[0]?.path).toBe('/bills/wombat');
    registerSearchSource({ source: 'registered-test', documents: async () => [] });
    await test.db.transaction((tx) => rebuildSearchIndex(tx));
    expect((await search.search({ query: 'wombat' })).results).toEqual([]);
  });

  it('knows when the index holds exactly what the sources give, so a restart writes nothing', async () => {
    await test.db.transaction((tx) => rebuildSearchIndex(tx));
    expect(await searchIndexIsCurrent(test.db)).toBe(true);
    registerSearchSource({
      source: 'fingerprint-test',
      documents: async () => [{ id: 'fp:1', type: 'bill', title: 'Numbat bill', path: '/bills/numbat', body: 'numbat' }],
    });
    try {
      expect(await searchIndexIsCurrent(test.db)).toBe(false);
      await test.db.transaction((tx) => rebuildSearchIndex(tx));
      expect(await searchIndexIsCurrent(test.db)).toBe(true);
    } finally {
      registerSearchSource({ source: 'fingerprint-test', documents: async () => [] });
    }
    expect(await searchIndexIsCurrent(test.db)).toBe(false);
  });

  it('ranks pages holding some of the words after those holding all, when too few hold them all', async () => {
    // No page says "zyzzyva": nothing holds every word, and the page holding the other two comes first.
    const { results } = await search.search({ query: 'escrow cushion zyzzyva', limit: 5 });
    expect(results[0]?.path).toBe('/glossary/escrow-cushion');
    expect(results.every((result) => !result.matches_every_word)).toBe(true);
    expect(results.map((result) => result.score)).toEqual([...results.map((result) => result.score)].sort((a, b) => b - a));
    // Pages with every word come first, then the others.
    const mixed = await search.search({ query: 'escrow cushion', limit: 50 });
    const firstPartial = mixed.results.findIndex((result) => !result.matches_every_word);
    expect(firstPartial).toBeGreaterThan(0);
    expect(mixed.results.slice(firstPartial).every((result) => !result.matches_every_word)).toBe(true);
    // Web-search syntax says what must match: no page with only some of it.
    expect((await search.search({ query: '"escrow cushion zyzzyva"' })).results).toEqual([]);
    expect((await search.search({ query: 'escrow -cushion zyzzyva' })).results).toEqual([]);
  });

  it('shows a passage many pages share once, counting the others, and each fragment of an excerpt once', async () => {
    // Five county pages written from one template (as the research pages are), differing in names and figures.
    const counties = ['Adams', 'Baker', 'Clark', 'Dodge', 'Essex'];
    await indexDocuments(
      test.db,
      'test',
      counties.map((county, index) => ({
        id: `test:county:${county}`,
        type: 'research' as const,
        // One state's code is a word of the passage ("in"), as Indiana's is.
        title: `${county} County, ${index === 2 ? 'IN' : 'OR'}: mortgage data`,
        path: `/research/oregon/${county.toLowerCase()}`,
        body:
          `In ${county} County a wombat loan above $${832 + index},750 is priced by each lender. ` +
          `${county} County had ${1200 + index} applications. `.repeat(20) +
          `In ${county} County a wombat loan above $${832 + index},750 is priced by each lender.`,
      })),
    );
    try {
      const { results } = await search.search({ query: 'wombat', type: 'research' });
      expect(results).toHaveLength(1);
      expect(results[0]?.similar_pages).toBe(4);
      const fragments = results[0]!.excerpt.split(' … ');
      expect(new Set(fragments).size).toBe(fragments.length);
    } finally {
      await replaceDocuments(test.db, 'test', []);
    }
  });

  it('refuses documents with a relative path or an unknown type', async () => {
    await expect(indexDocuments(test.db, 'x', [{ id: 'x', type: 'bill', title: 'T', path: 'bills/x', body: '' }])).rejects.toThrow(
      /path must start/,
    );
    await expect(indexDocuments(test.db, 'x', [{ id: 'x', type: 'blog' as never, title: 'T', path: '/x', body: '' }])).rejects.toThrow(
      /type must be one of/,
    );
  });
});

describe('the start-up refresh of the search index', () => {
  it('says at info level, not as an error, when the shutdown closes the database under it', async () => {
    const test = await createTestDatabase('pglite');
    try {
      const underWay = Promise.withResolvers<void>();
      const jobStopped = Promise.withResolvers<void>();
      const closing = {
        ...test.db,
        // The refresh is under way when the job is stopped; then the database closes under it.
        withAdvisoryLock: (async () => {
          underWay.resolve();
          await jobStopped.promise;
          throw new Error('PGlite is closed');
        }) as typeof test.db.withAdvisoryLock,
      };
      const logged: { level: string; message: string }[] = [];
      const logger = createLogger('silent');
      for (const level of ['info', 'warn', 'error'] as const) {
        logger[level] = ((...args: unknown[]) => void logged.push({ level, message: String(args.at(-1)) })) as typeof logger.info;
      }
      const stop = startSearchIndexRefresh({ db: closing, logger }, { retryMs: 50 });
      await underWay.promise;
      stop();
      jobStopped.resolve();
      await vi.waitFor(() => expect(logged.length).toBeGreaterThan(0), { timeout: 5_000 });
      expect(logged).toEqual([{ level: 'info', message: 'search index refresh cut off by the shutdown; the next start does it' }]);
    } finally {
      await test.drop();
    }
  });

  it('tries again after a failure (the database down while the service starts) and then fills the index', async () => {
    const test = await createTestDatabase('pglite');
    try {
      let failures = 1;
      const flaky = {
        ...test.db,
        withAdvisoryLock: ((key, work) => {
          if (failures-- > 0)
            return Promise.reject(new ServiceUnavailableError('The database is temporarily unavailable; please retry shortly.', 5));
          return test.db.withAdvisoryLock(key, work);
        }) as typeof test.db.withAdvisoryLock,
      };
      const stop = startSearchIndexRefresh({ db: flaky, logger: createLogger('silent') }, { retryMs: 50 });
      try {
        const deadline = Date.now() + 30_000;
        while (Object.keys(await countDocuments(test.db)).length === 0 && Date.now() < deadline) {
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        expect(failures).toBe(-1);
        expect((await countDocuments(test.db)).glossary).toBeGreaterThan(0);
      } finally {
        stop();
      }
    } finally {
      await test.drop();
    }
  });
});

// One index built on the embedded database for the checks of its storage and of the HTTP face
// (the storage check is the embedded database's whatever the other tests' database is).
describe('an index built on the embedded database, and GET /api/v1/search', () => {
  let test: TestDatabase;
  let server: Awaited<ReturnType<typeof listen>>;
  let close: () => Promise<void>;

  beforeAll(async () => {
    test = await createTestDatabase('pglite');
    await test.db.transaction((tx) => rebuildSearchIndex(tx));
    const app = await buildTestApp(test.db);
    close = app.close;
    server = await listen(app.app);
  });
  afterAll(async () => {
    await server.close();
    await close();
    await test.drop();
  });

  // Ranking reads rank_vector for every matching document: out of the row, each read is a TOAST
  // look-up (migration 0302). pg_column_toast_chunk_id needs PostgreSQL 17, which PGlite is.
  it('keeps every ranking vector and title in the row, and moves the full vector out of it', async () => {
    const { rows } = await test.db.query<{ documents: number; ranking_out: number; title_out: number; full_out: number }>(
      `SELECT count(*)::int AS documents,
              count(*) FILTER (WHERE pg_column_toast_chunk_id(rank_vector) IS NOT NULL)::int AS ranking_out,
              count(*) FILTER (WHERE pg_column_toast_chunk_id(title) IS NOT NULL)::int AS title_out,
              count(*) FILTER (WHERE pg_column_toast_chunk_id(document) IS NOT NULL)::int AS full_out
       FROM search_documents`,
    );
    expect(rows[0]!.documents).toBeGreaterThan(100);
    expect(rows[0]).toMatchObject({ ranking_out: 0, title_out: 0 });
    expect(rows[0]!.full_out).toBeGreaterThan(0);
  });

  it('returns ranked results with excerpts, cacheable, with CORS', async () => {
    const response = await fetch(`${server.url}/api/v1/search?query=escrow%20cushion&limit=3`);
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('cache-control')).toContain('max-age=3600');
    const body = (await response.json()) as { query: string; results: { path: string; excerpt: string; url: string }[] };
    expect(body.query).toBe('escrow cushion');
    expect(body.results.length).toBeLessThanOrEqual(3);
    expect(body.results[0]?.path).toBe('/glossary/escrow-cushion');
  });

  it('answers 400 naming the parameter for a missing query or a bad type', async () => {
    const missing = await fetch(`${server.url}/api/v1/search`);
    expect(missing.status).toBe(400);
    expect(((await missing.json()) as { error: string }).error).toMatch(/'query'/);
    const badType = await fetch(`${server.url}/api/v1/search?query=x&type=blog`);
    expect(badType.status).toBe(400);
    expect(((await badType.json()) as { error: string }).error).toMatch(/Valid values: article, glossary, learn, research, bill, news/);
  });
});
