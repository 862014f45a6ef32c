// The pages a reader meets first, in Chromium at 375 and 1280 px over data synced from the official
// files: /statistics (every statistic by category with its year and source, as the API lists them),
// /articles paged with the research pages listed apart by name, /research by state name, /bills with
// the archive of ended Congresses after the current bills, a bill with one cosponsor, /search
// without repeated passages, the calendar's coverage and the home page's links to the map and the
// statistics. At each width: no sideways scrolling, every table's header over its columns, no
// serious axe-core violation, and a screenshot kept in tests/.artifacts/pages/.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Browser, type Page } from 'playwright-core';
import { loadSsrHandler } from '../../api/server.ts';
import { STATES } from '../../api/geo/states.ts';
import { buildTestApp, listen, testConfig, type TestApp } from '../support/app.ts';
import {
  CHROMIUM_FLAGS,
  CHROMIUM,
  hasChromium,
  keepScreenshot,
  screenshotFailures,
  seriousViolations,
  tableMisalignments,
} from '../support/browser.ts';
import type { TestDatabase } from '../support/databases.ts';
import { ensureSiteBuiltForTests } from '../support/site-build.ts';
import { hasSourceData } from '../support/source-data.ts';
import { syncedTestDatabase } from '../support/synced.ts';

const WIDTHS = [
  { width: 375, height: 812 },
  { width: 1280, height: 800 },
];

describe.skipIf(!hasChromium || !hasSourceData)('the pages a reader meets first, at 375 and 1280 px', () => {
  let database: TestDatabase;
  let testApp: TestApp;
  let server: Awaited<ReturnType<typeof listen>>;
  let browser: Browser;
  const pages: Page[] = [];

  beforeAll(async () => {
    await ensureSiteBuiltForTests();
    database = await syncedTestDatabase('pglite', [
      'counties',
      'loan_limits_conforming',
      'loan_limits_fha',
      'hmda_aggregates',
      'nmdb',
      'pmms',
      'optimal_blue',
      'bills',
      'economic_calendar',
      'statistics',
    ]);
    const ssrHandler = await loadSsrHandler(testConfig());
    testApp = await buildTestApp(database.db, { options: ssrHandler ? { ssrHandler } : {} });
    await testApp.deps.services.search.rebuild();
    server = await listen(testApp.app);
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
    for (const viewport of WIDTHS) {
      const context = await browser.newContext({ viewport, bypassCSP: true });
      context.setDefaultNavigationTimeout(120_000);
      context.setDefaultTimeout(120_000);
      pages.push(await context.newPage());
    }
  }, 900_000);
  screenshotFailures(() => ({ phone: pages[0], desktop: pages[1] }));

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await testApp?.close();
    await database?.drop();
  });

  /** Loads the page at both widths, checks what every page must satisfy, and returns the desktop page's main text. */
  async function checkPage(sitePath: string, status = 200): Promise<string> {
    let text = '';
    for (const page of pages) {
      const response = await page.goto(`${server.url}${sitePath}`);
      expect(response?.status(), sitePath).toBe(status);
      const { scrollWidth, innerWidth } = await page.evaluate(() => {
        const root = (globalThis as unknown as { document: { documentElement: { scrollWidth: number } } }).document.documentElement;
        return { scrollWidth: root.scrollWidth, innerWidth: (globalThis as unknown as { innerWidth: number }).innerWidth };
      });
      expect(scrollWidth, `${sitePath} scrolls sideways at ${innerWidth} px`).toBeLessThanOrEqual(innerWidth);
      expect(await tableMisalignments(page), `${sitePath} at ${innerWidth} px`).toEqual([]);
      expect(await seriousViolations(page), `${sitePath} at ${innerWidth} px`).toEqual([]);
      await keepScreenshot(page, sitePath);
      text = ((await page.locator('main').textContent()) ?? '').replace(/\s+/g, ' ');
    }
    return text;
  }

  it('shows every statistic by category, each with its year and source, as the API lists them', async () => {
    const api = (await (await fetch(`${server.url}/api/v1/statistics?all=true`)).json()) as {
      stats: { id: string; value: string; data_year: number }[];
    };
    expect(api.stats.length).toBeGreaterThan(40);
    await checkPage('/statistics');
    const desktop = pages[1]!;
    const rows = await desktop.locator('main tr[data-stat]').evaluateAll((elements) =>
      elements.map((element) => {
        const row = element as unknown as {
          getAttribute(name: string): string | null;
          querySelector(s: string): { textContent: string | null } | null;
        };
        return {
          id: row.getAttribute('data-stat') ?? '',
          value: row.querySelector('[data-value]')?.textContent ?? '',
          year: Number(row.querySelector('[data-year]')?.textContent),
        };
      }),
    );
    expect(rows.map((row) => row.id).sort()).toEqual(api.stats.map((stat) => stat.id).sort());
    for (const stat of api.stats) expect(rows.find((row) => row.id === stat.id)).toMatchObject({ value: stat.value, year: stat.data_year });
    expect(await desktop.locator('main h2').count()).toBeGreaterThanOrEqual(5);
    // Linked from the home page, beside the county map.
    await desktop.goto(`${server.url}/`);
    expect(await desktop.locator('main a[href="/statistics"]').count()).toBeGreaterThan(0);
    expect(await desktop.locator('main a[href^="/loan-limits#map"]').count()).toBeGreaterThan(0);
  }, 300_000);

  it('pages /articles, lists the research pages apart by name, and lists /research by state name', async () => {
    const first = await checkPage('/articles');
    const desktop = pages[1]!;
    expect(await desktop.locator('main ul.entry-list > li').count()).toBe(20);
    expect(await desktop.locator('nav.pager a[href="/articles?page=2"]').count()).toBeGreaterThan(0);
    expect(first).toContain('Research by state and county');
    // The research pages by name, no blurb each: Alabama before Alaska.
    const states = await desktop.locator('main ul.research-places a').allTextContents();
    expect(states).toEqual([...STATES].map((state) => state.name).sort((a, b) => a.localeCompare(b)));
    expect(await desktop.locator('main ul.research-counties a').count()).toBeGreaterThan(50);
    await checkPage('/articles?page=2');
    expect(await desktop.locator('main ul.entry-list > li').count()).toBeGreaterThan(0);
    expect(await desktop.locator('main ul.research-places').count()).toBe(0);
    expect(await checkPage('/articles?page=99', 404)).toMatch(/no page 99 of articles: they run to page \d/);
    await checkPage('/research');
    const research = await desktop.locator('main ul.columns a').allTextContents();
    expect(research.slice(0, 3)).toEqual(['Alabama', 'Alaska', 'Arizona']);
  }, 300_000);

  it('lists the current bills first and the ended Congress as a labelled archive, with a singular cosponsor', async () => {
    const text = await checkPage('/bills');
    const desktop = pages[1]!;
    const headings = await desktop.locator('main h2').allTextContents();
    expect(headings[0]).toMatch(/^Bills of the 119th Congress/);
    expect(headings.at(-1)).toMatch(/^Archive: bills of the 117th Congress/);
    expect(
      await desktop.locator('#archive-heading ~ .table-scroll tbody tr, section:has(#archive-heading) tbody tr').count(),
    ).toBeGreaterThanOrEqual(40);
    expect(text).toContain('Died in committee, 117th Congress');
    expect(text).not.toContain('content/bills');
    // Every bill page, the archive's too, is in the sitemap.
    const sitemap = await (await fetch(`${server.url}/sitemap.xml`)).text();
    for (const billId of ['hr6774-119', 'hr7735-117', 'hr8577-117']) expect(sitemap).toContain(`/bills/${billId}</loc>`);
    await checkPage('/bills/hr8577-117');
    expect(await desktop.locator('main details summary', { hasText: /cosponsor/ }).textContent()).toBe('Show 1 cosponsor');
  }, 300_000);

  it('shows rates at the API precision, each with its own date, and offers only the terms this install answers', async () => {
    const desktop = pages[1]!;
    await checkPage('/rates?state=CO&fico=1&ltv=1&product_type=conventional&loan_term=30');
    const api = (await (await fetch(`${server.url}/api/v1/rates?state=CO&fico=1&ltv=1`)).json()) as { rate: number };
    expect(await desktop.locator('main [data-rate]').textContent()).toMatch(
      new RegExp(`^${api.rate.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 3 }).replace('.', '\\.')}% `),
    );
    // Without the FFIEC's APOR table (not synced here) no series answers 10 or 20 years: the form does not offer them.
    const terms = await desktop
      .locator('select[name="loan_term"] option')
      .evaluateAll((options) => options.map((option) => (option as unknown as { value: string }).value));
    expect(terms.sort()).toEqual(['15', '30']);
    // The 15-year figures end on another day than the 30-year survey: the page says they are of different days.
    const fifteen = await checkPage('/rates?state=CO&fico=1&ltv=1&product_type=conventional&loan_term=15');
    expect(fifteen).toMatch(/These figures are of different days/);
    // Each line of the history chart says where it ends.
    expect(await desktop.locator('main .legend [data-line-latest]').count()).toBeGreaterThanOrEqual(2);
  }, 300_000);

  it('shows a passage many county pages share once, and says where the calendar ends', async () => {
    await checkPage('/search?q=jumbo');
    const desktop = pages[1]!;
    const excerpts = await desktop.locator('main ol.results li p:not(.meta):not(.muted)').allTextContents();
    expect(new Set(excerpts).size).toBe(excerpts.length);
    const calendar = await checkPage('/calendar?from=2026-12-01&to=2027-02-28');
    expect(calendar).toMatch(/Bureau of Labor Statistics through December 17, 2026/);
    expect(calendar).toContain('This range runs past some of them');
  }, 300_000);
});
