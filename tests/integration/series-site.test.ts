// The /rates page's chart draws the series API's data: each line has one point per observation
// GET /api/v1/series answers for the same range, its last point is the series' latest value, and
// the legend links each line to the same observations as CSV.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSsrHandler } from '../../api/server.ts';
import { buildTestApp, listen, testConfig, type TestApp } from '../support/app.ts';
import type { TestDatabase } from '../support/databases.ts';
import { ensureSiteBuiltForTests } from '../support/site-build.ts';
import { hasSourceData } from '../support/source-data.ts';
import { syncedTestDatabase } from '../support/synced.ts';

describe.skipIf(!hasSourceData)('the rates chart reads the series', () => {
  let database: TestDatabase;
  let testApp: TestApp;
  let server: Awaited<ReturnType<typeof listen>>;

  beforeAll(async () => {
    database = await syncedTestDatabase('pglite', ['pmms', 'optimal_blue']);
    await ensureSiteBuiltForTests();
    const ssrHandler = await loadSsrHandler(testConfig());
    expect(ssrHandler).toBeDefined();
    testApp = await buildTestApp(database.db, { clock: () => new Date('2026-11-22T12:00:00Z'), options: { ssrHandler } });
    server = await listen(testApp.app);
  }, 600_000);
  afterAll(async () => {
    await server?.close();
    await testApp?.close();
    await database?.drop();
  });

  it('draws one point per observation of each series since the start of the range', async () => {
    const html = await (await fetch(`${server.url}/rates?years=10`)).text();
    const lines = [...html.matchAll(/<polyline points="([^"]+)"/g)].map((match) => match[1]!.split(' '));
    const links = [...html.matchAll(/<a href="(\/api\/v1\/series\/[^"]+)">CSV<\/a>/g)].map((match) => match[1]!.replaceAll('&amp;', '&'));
    expect(links).toEqual([
      '/api/v1/series/pmms/30-year?from=2016-11-22&format=csv',
      '/api/v1/series/pmms/15-year?from=2016-11-22&format=csv',
      '/api/v1/series/optimal-blue/conforming-30-year?from=2016-11-22&format=csv',
    ]);
    // The chart is drawn twice, wide and narrow (for phones): each drawing has the three lines.
    expect(lines).toHaveLength(6);
    for (const [index, link] of links.entries()) {
      const answer = (await (await fetch(`${server.url}${link.replace('&format=csv', '')}`)).json()) as {
        observations: { date: string; value: number }[];
      };
      expect(lines[index], link).toHaveLength(answer.observations.length);
      expect(lines[index + 3], link).toHaveLength(answer.observations.length);
    }
    // The latest reading the page states is the series' last observation.
    expect(html).toContain('Freddie Mac PMMS 30-year fixed (weekly survey): 7.40% on October 8, 2026.');
  });
});
