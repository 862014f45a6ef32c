// The research pages per state and county, over data synced from the official files: a sample of
// their figures recomputed straight from the publishers' files with the test's own readers (no code
// of api/), no sentence shared between pages other than what every page of its kind prints, search
// ranking the place's own page first, /articles and /feed.xml carrying at least 250 articles, and
// the errors a reader or caller meets.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSsrHandler } from '../../api/server.ts';
import { buildTestApp, listen, testConfig, type TestApp } from '../support/app.ts';
import type { TestDatabase } from '../support/databases.ts';
import { ensureSiteBuiltForTests } from '../support/site-build.ts';
import { hasSourceData } from '../support/source-data.ts';
import { syncedTestDatabase } from '../support/synced.ts';
import { postAsk, readAskStream } from '../support/sse.ts';
import { CountyProfileSchema, StateProfileSchema } from '../../api/research/contract.ts';
import { STATE_CODES } from '../../api/geo/states.ts';
import {
  denialRate,
  fhfa2026,
  fhfaPipe,
  hmda,
  hudForward,
  money,
  nmdbStates,
  series,
  thousands,
  total,
  type CountyLimit,
} from '../support/content-figure-readers.ts';

const RESEARCH_DATASETS = ['counties', 'loan_limits_conforming', 'loan_limits_fha', 'hmda_aggregates', 'nmdb', 'pmms', 'bills'];
const round2 = (value: number) => Math.round(value * 100) / 100;

/** The 2026 national baseline as FHFA's own file gives it: the lowest one-unit limit in the contiguous states. */
function baselineOf(limits: Map<string, CountyLimit>): number {
  return Math.min(
    ...[...limits.values()].filter((row) => !['AK', 'HI', 'GU', 'VI', 'PR', 'AS', 'MP'].includes(row.state)).map((row) => row.oneUnit),
  );
}

/**
 * The sentences of a page: the text of its paragraphs and list items (up to its list of sources, which
 * cites rather than says; figures left out, whose legends label rather than say), split at sentence ends.
 */
function sentencesOf(html: string): string[] {
  const end = html.indexOf('<section aria-labelledby="sources"');
  const main = html.slice(html.indexOf('<main'), end > 0 ? end : html.indexOf('</main>')).replace(/<figure\b[\s\S]*?<\/figure>/g, '');
  const blocks = [...main.matchAll(/<(p|li)\b[^>]*>([\s\S]*?)<\/\1>/g)].map((match) =>
    (match[2] ?? '')
      .replace(/<[^>]+>/g, '')
      .replace(/&amp;/g, '&')
      .replace(/&#39;|&#x27;/g, "'")
      .replace(/&quot;/g, '"')
      .replace(/\s+/g, ' ')
      .trim(),
  );
  return blocks
    .flatMap((block) => block.split(/(?<=[.!?])\s+(?=[A-Z$0-9])/))
    .map((sentence) => sentence.trim())
    .filter((sentence) => sentence.length > 20);
}

/** Sentences printed on more than one page but not on every page of the sample: what must not exist. */
function sharedBeyondBoilerplate(pages: Map<string, string[]>): string[] {
  const where = new Map<string, Set<string>>();
  for (const [page, sentences] of pages)
    for (const sentence of sentences) (where.get(sentence) ?? where.set(sentence, new Set()).get(sentence))?.add(page);
  return [...where]
    .filter(([, seen]) => seen.size > 1 && seen.size < pages.size)
    .map(([sentence, seen]) => `${sentence} (${[...seen].slice(0, 3).join(', ')})`);
}

describe.skipIf(!hasSourceData)('research pages per state and county', () => {
  let database: TestDatabase;
  let testApp: TestApp;
  let server: Awaited<ReturnType<typeof listen>>;
  const get = async (path: string) => {
    const response = await fetch(`${server.url}${path}`);
    return { status: response.status, text: await response.text() };
  };
  const json = async <T>(path: string) => JSON.parse((await get(path)).text) as T;

  beforeAll(async () => {
    await ensureSiteBuiltForTests();
    database = await syncedTestDatabase('pglite', RESEARCH_DATASETS);
    const ssrHandler = await loadSsrHandler(testConfig());
    testApp = await buildTestApp(database.db, { options: ssrHandler ? { ssrHandler } : {} });
    await testApp.deps.services.search.rebuild();
    server = await listen(testApp.app);
  }, 600_000);

  afterAll(async () => {
    await server?.close();
    await testApp?.close();
    await database?.drop();
  });

  it("serves each state's figures as the official files give them", async () => {
    const limits2026 = await fhfa2026();
    const baseline = baselineOf(limits2026);
    const states2025 = hmda('state', 2025);
    const nationActions: Record<string, number> = {};
    for (const geo of Object.values(states2025))
      for (const [code, value] of Object.entries(geo.actionTaken ?? {})) nationActions[code] = (nationActions[code] ?? 0) + value;
    const nmdb = nmdbStates(new Set(['AVE_INTRATE']));
    const pmms = series('rates', 'MORTGAGE30US_weekly_1971_2026.csv');
    for (const code of ['OH', 'AZ', 'CA', 'TX', 'DC', 'AK']) {
      const profile = await json<{
        limits: { year: number; counties: number; high_cost_counties: number };
        hmda: { year: number; records: number; originations: number; denial_rate_percent: number; compare_denial_rate_percent: number };
        rates: { latest: { period: string; state_outstanding_percent: number; survey_percent: number } };
        sources: { name: string; as_of: string | null }[];
      }>(`/api/v1/research/states/${code}`);
      const rows = [...limits2026.values()].filter((row) => row.state === code);
      const threshold = code === 'AK' || code === 'HI' ? Math.floor(baseline * 1.5) : baseline;
      expect(profile.limits.year, code).toBe(2026);
      expect(profile.limits.counties, code).toBe(rows.length);
      expect(profile.limits.high_cost_counties, code).toBe(rows.filter((row) => row.oneUnit > threshold).length);
      const actions = states2025[code]?.actionTaken;
      expect(profile.hmda.year).toBe(2025);
      expect(profile.hmda.records, code).toBe(total(actions));
      expect(profile.hmda.originations, code).toBe(actions?.['1']);
      expect(profile.hmda.denial_rate_percent, code).toBe(round2(denialRate(actions)));
      expect(profile.hmda.compare_denial_rate_percent, code).toBe(round2(denialRate(nationActions)));
      const period = profile.rates.latest.period;
      expect(profile.rates.latest.state_outstanding_percent, code).toBe(nmdb.get(`${code}|All Mortgages|${period}|AVE_INTRATE`)?.[0]);
      const quarter = Number(period.slice(5));
      const weeks = pmms
        .filter(([date]) => date.startsWith(period.slice(0, 4)) && Math.ceil(Number(date.slice(5, 7)) / 3) === quarter)
        .map(([, value]) => value);
      expect(profile.rates.latest.survey_percent, code).toBe(round2(weeks.reduce((a, b) => a + b, 0) / weeks.length));
      expect(
        profile.sources.every((source) => source.as_of !== null),
        code,
      ).toBe(true);
      expect(StateProfileSchema.safeParse(profile).error, code).toBeUndefined();
    }
  });

  it("serves each county's limits since 2018 and its HMDA figures as the official files give them", async () => {
    const limits2026 = await fhfa2026();
    const limits2018 = fhfaPipe(2018);
    const fha2025 = new Map(hudForward(2025).map((row) => [`${row.state}|${row.county}`, row]));
    const counties2025 = hmda('county', 2025);
    const baseline = baselineOf(limits2026);
    for (const fips of ['04013', '06037', '39049', '48301', '17031', '36047', '02020']) {
      const profile = await json<{
        state: string;
        limits: {
          conforming: { year: number; limits: Record<string, number>; tier: string };
          fha: { year: number; limits: Record<string, number>; tier: string } | null;
          history: { year: number; conforming_one_unit: number | null }[];
        };
        hmda: { records: number; denial_rate_percent: number } | null;
      }>(`/api/v1/research/counties/${fips}`);
      expect(CountyProfileSchema.safeParse(profile).error, fips).toBeUndefined();
      const official = limits2026.get(fips);
      expect(profile.limits.conforming.limits['1'], fips).toBe(official?.oneUnit);
      expect(profile.limits.history.find((entry) => entry.year === 2018)?.conforming_one_unit, fips).toBe(limits2018.get(fips)?.oneUnit);
      const threshold = profile.state === 'AK' || profile.state === 'HI' ? Math.floor(baseline * 1.5) : baseline;
      expect(profile.limits.conforming.tier, fips).toBe((official?.oneUnit ?? 0) > threshold ? 'high_cost' : 'baseline');
      const hud = fha2025.get(`${profile.state}|${fips.slice(2)}`);
      expect(profile.limits.fha?.year).toBe(2025);
      expect(profile.limits.fha?.limits['1'], fips).toBe(hud?.oneUnit);
      expect(profile.limits.fha?.tier, fips).toBe(hud?.type === 'H' ? 'high_cost' : 'standard');
      const actions = counties2025[fips]?.actionTaken;
      if (actions) {
        expect(profile.hmda?.records, fips).toBe(total(actions));
        expect(profile.hmda?.denial_rate_percent, fips).toBe(round2(denialRate(actions)));
      } else {
        expect(profile.hmda, fips).toBeNull();
      }
    }
  });

  it('prints the figures on the pages, each with a chart, linking county and state', async () => {
    const limits2026 = await fhfa2026();
    const county = await get('/research/arizona/maricopa-county');
    expect(county.status).toBe(200);
    expect(county.text).toContain(money(limits2026.get('04013')?.oneUnit ?? 0));
    expect(county.text).toContain(thousands(total(hmda('county', 2025)['04013']?.actionTaken)));
    expect(county.text).toContain('href="/research/arizona"');
    expect(county.text).toMatch(/<figure class="chart">[\s\S]*<polyline/);
    const state = await get('/research/ohio');
    expect(state.status).toBe(200);
    expect(state.text).toContain(thousands(total(hmda('state', 2025).OH?.actionTaken)));
    expect(state.text).toContain('href="/research/ohio/franklin-county"');
    expect(state.text).toMatch(/<figure class="chart">[\s\S]*<polyline/);
    expect(state.text).toContain('class="table-scroll"');
  });

  it('answers unknown places with 404 pages and error bodies that say what exists', async () => {
    const state = await get('/research/atlantis');
    expect(state.status).toBe(404);
    expect(state.text).toContain('/research/ohio');
    const county = await get('/research/ohio/nowhere-county');
    expect(county.status).toBe(404);
    expect(county.text).toContain('Its counties are listed on /research/ohio');
    expect(await get('/api/v1/research/counties/99999')).toMatchObject({ status: 404 });
    const bad = await get('/api/v1/research/counties/4013');
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.text).error).toContain('5-digit');
    expect((await get('/api/v1/research/states/ZZ')).status).toBe(400);
    expect((await get('/api/v1/research/states/OH?year=2024')).status).toBe(400);
  });

  it('shares no sentence between pages beyond what every page of its kind prints', async () => {
    // Every profile's analysis: 51 states and every county.
    const research = testApp.deps.services.research;
    const world = await research.world();
    const analysis = new Map<string, string[]>();
    for (const code of STATE_CODES) {
      analysis.set(code, (await research.state(code)).analysis);
    }
    for (const fips of world.countyByFips.keys()) analysis.set(fips, (await research.county(fips)).analysis);
    expect(analysis.size).toBeGreaterThan(3_000);
    const seen = new Map<string, string>();
    const repeated: string[] = [];
    for (const [page, sentences] of analysis) {
      for (const sentence of sentences) {
        if (seen.has(sentence)) repeated.push(`${sentence} (${seen.get(sentence)}, ${page})`);
        seen.set(sentence, page);
      }
      expect(sentences.length, page).toBeGreaterThanOrEqual(4);
    }
    expect(repeated).toEqual([]);

    // The rendered pages: every state page, and every 25th county page.
    const states = new Map<string, string[]>();
    for (const path of (await research.paths()).filter((path) => path.split('/').length === 3))
      states.set(path, sentencesOf((await get(path)).text));
    const counties = new Map<string, string[]>();
    const countyPaths = (await research.paths()).filter((path) => path.split('/').length === 4).filter((_, index) => index % 25 === 0);
    for (const path of countyPaths) counties.set(path, sentencesOf((await get(path)).text));
    expect(states.size).toBe(51);
    expect(counties.size).toBeGreaterThan(100);
    expect(sharedBeyondBoilerplate(states)).toEqual([]);
    expect(sharedBeyondBoilerplate(counties)).toEqual([]);
  }, 300_000);

  it("ranks the county's or state's own page first in search", async () => {
    const search = async (query: string) =>
      (await json<{ results: { path: string; type: string }[] }>(`/api/v1/search?query=${encodeURIComponent(query)}`)).results;
    expect((await search('loan limits Maricopa'))[0]).toMatchObject({ path: '/research/arizona/maricopa-county', type: 'research' });
    expect((await search('mortgage data Ohio'))[0]).toMatchObject({ path: '/research/ohio', type: 'research' });
    expect((await search('FHA loan limit Cook County Illinois'))[0]?.path).toBe('/research/illinois/cook-county');
  });

  it('cites the research page in /ask answers about a county or a state', async () => {
    const county = await readAskStream(
      await postAsk(server.url, { message: 'What is the conforming loan limit in Maricopa County, Arizona?' }),
    );
    expect(county.sources).toContain('http://localhost:3000/research/arizona/maricopa-county');
    expect(county.answer).toContain('http://localhost:3000/research/arizona/maricopa-county');
    const state = await readAskStream(await postAsk(server.url, { message: 'What was the mortgage denial rate in Ohio in 2025?' }));
    expect(state.sources).toContain('http://localhost:3000/research/ohio');
  });

  it('pages /articles, lists the research pages apart by name, and carries them all in /feed.xml, research pages in the sitemap', async () => {
    const articles = await get('/articles');
    expect(articles.status).toBe(200);
    // Our articles, 20 to a page, every page linked; the research pages by name on the first page only.
    const pageCount = Math.max(...[...articles.text.matchAll(/>Page (\d+)</g)].map((match) => Number(match[1])));
    const written: string[] = [];
    for (let page = 1; ; page += 1) {
      const { status, text } = await get(page === 1 ? '/articles' : `/articles?page=${page}`);
      if (status === 404) break;
      const titles = [...text.matchAll(/<h[23] class="entry-title"><a href="([^"]+)"/g)].map((match) => match[1] as string);
      expect(titles.length, `page ${page}`).toBeLessThanOrEqual(20);
      written.push(...titles);
      if (page > 1) expect(text).not.toContain('id="research-pages"');
    }
    expect(pageCount).toBe(Math.ceil(written.length / 20));
    expect(written.every((href) => href.startsWith('/articles/'))).toBe(true);
    expect(articles.text).toContain('id="research-pages"');
    const research = [...articles.text.matchAll(/<a href="(\/research\/[^"]+)"/g)].map((match) => match[1] as string);
    expect(new Set(research).size).toBe(51 + 200);
    const listed = [...written, ...new Set(research)];
    expect(listed.length).toBeGreaterThanOrEqual(250);
    const feed = await get('/feed.xml');
    expect(feed.status).toBe(200);
    const links = [...feed.text.matchAll(/<item>[\s\S]*?<link>([^<]+)<\/link>/g)].map((match) => new URL(match[1] as string).pathname);
    expect(links.length).toBeGreaterThanOrEqual(250);
    for (const href of listed) expect(links, href).toContain(href);
    const sitemap = await get('/sitemap.xml');
    expect(sitemap.text).toContain('/research/arizona/maricopa-county</loc>');
    expect(sitemap.text).toContain('/research/wyoming</loc>');
    expect((sitemap.text.match(/\/research\/[a-z-]+\/[a-z0-9-]+<\/loc>/g) ?? []).length).toBe(
      (await testApp.deps.services.research.paths()).length - 51,
    );
  });

  it("draws each state's county map from FHFA's limits, without script, and outlines a county on its own page", async () => {
    const limits2026 = await fhfa2026();
    const baseline = baselineOf(limits2026);
    const ceiling = Math.max(
      ...[...limits2026.values()]
        .filter((row) => !['AK', 'HI', 'GU', 'VI', 'PR', 'AS', 'MP'].includes(row.state))
        .map((row) => row.oneUnit),
    );
    const { status, text } = await get('/research/california');
    expect(status).toBe(200);
    expect(text).not.toMatch(/<script\b(?![^>]*application\/ld\+json)/);
    const map = /<figure class="county-map" data-map="state-limits">([\s\S]*?)<\/figure>/.exec(text)?.[1] ?? '';
    const paths = [...map.matchAll(/<path d="[^"]+" fill="(#[0-9a-f]{6})" data-fips="(\d{5})" data-band="(\w+)"(?: data-value="(\d+)")?/g)];
    const california = [...limits2026].filter(([fips]) => fips.startsWith('06'));
    expect(paths.length).toBe(california.length);
    for (const [, , fips, band, value] of paths) {
      const limit = limits2026.get(fips!)!.oneUnit;
      expect(Number(value), fips).toBe(limit);
      // The bands as the map's legend names them: the baseline, two halves of the way to the ceiling, the ceiling.
      const middle = Math.round((baseline + ceiling) / 2);
      const expected =
        limit <= baseline ? 'baseline' : limit < middle ? 'lower' : limit < ceiling ? 'upper' : limit === ceiling ? 'ceiling' : 'above';
      expect(band, fips).toBe(expected);
    }
    expect(map).toContain(`Ceiling, ${money(ceiling)}`);
    const county = await get('/research/california/los-angeles-county');
    expect(county.text).toMatch(/data-fips="06037"[^>]*class="highlight"/);
  });
});
