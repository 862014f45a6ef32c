// The site in Chromium: home, a glossary term, an article, a bill, the market updates and search
// pages render their content (on-demand pages from a database synced from the official files),
// and axe-core finds no serious or critical violation (a failing test leaves a screenshot in tests/.artifacts/).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Browser, type Page } from 'playwright-core';
import { readArticles, readGlossary } from '../../api/content/markdown.ts';
import { loadSsrHandler } from '../../api/server.ts';
import { buildTestApp, listen, testConfig, type TestApp } from '../support/app.ts';
import type { TestDatabase } from '../support/databases.ts';
import { ensureSiteBuiltForTests } from '../support/site-build.ts';
import { hasSourceData } from '../support/source-data.ts';
import { syncedTestDatabase } from '../support/synced.ts';
import { CHROMIUM, CHROMIUM_FLAGS, hasChromium, screenshotFailures, seriousViolations } from '../support/browser.ts';

describe.skipIf(!hasChromium || !hasSourceData)('the site in a browser', () => {
  let database: TestDatabase;
  let testApp: TestApp;
  let server: Awaited<ReturnType<typeof listen>>;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    await ensureSiteBuiltForTests();
    database = await syncedTestDatabase('pglite', [
      'pmms',
      'optimal_blue',
      'bills',
      'loan_limits_conforming',
      'loan_limits_fha',
      'economic_calendar',
    ]);
    const ssrHandler = await loadSsrHandler(testConfig());
    testApp = await buildTestApp(database.db, { options: ssrHandler ? { ssrHandler } : {} });
    await testApp.deps.services.search.rebuild();
    server = await listen(testApp.app);
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
    // The site's CSP refuses inline scripts; the test bypasses it only to inject axe-core.
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, bypassCSP: true });
    page = await context.newPage();
  }, 600_000);
  screenshotFailures(() => ({ page }));

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await testApp?.close();
    await database?.drop();
  });

  async function visit(sitePath: string): Promise<void> {
    const response = await page.goto(`${server.url}${sitePath}`);
    expect(response?.status(), sitePath).toBe(200);
    expect(await seriousViolations(page), sitePath).toEqual([]);
  }

  it('shows the home page with the search box, the latest reading and the glossary', async () => {
    await visit('/');
    expect(await page.locator('h1').textContent()).toContain('Open mortgage data');
    expect(await page.getByRole('search').count()).toBe(1);
    expect(await page.locator('section[aria-labelledby="latest"] li').count()).toBeGreaterThan(0);
    // Keyboard users reach the skip link first and it moves focus to the content.
    await page.keyboard.press('Tab');
    expect(
      await page.evaluate(
        () =>
          (globalThis as unknown as { document: { activeElement: { textContent: string } | null } }).document.activeElement?.textContent,
      ),
    ).toBe('Skip to content');
  });

  it('shows a glossary term with its definition, FAQs, related terms and sources', async () => {
    const term = readGlossary().find((entry) => entry.slug === 'escrow-cushion')!;
    await visit('/glossary/escrow-cushion');
    expect(await page.locator('h1').textContent()).toBe(term.data.term);
    expect(await page.locator('.definition').textContent()).toContain(term.data.definition);
    expect(await page.locator('.faq h3').allTextContents()).toEqual(term.data.faqs.map((faq) => faq.question));
    expect(await page.locator('.related-terms a').count()).toBe(term.data.related.length);
    await page.locator('.related-terms a').first().click();
    expect(page.url()).toBe(`${server.url}/glossary/${term.data.related[0]}`);
  });

  it('shows an article with its author, date and contents', async () => {
    const article = readArticles(undefined, 'articles')[0]!;
    await visit(`/articles/${article.slug}`);
    expect(await page.locator('h1').textContent()).toBe(article.data.title);
    expect(await page.locator('article .meta').first().textContent()).toContain(article.data.author);
    expect(await page.locator('article h2').count()).toBeGreaterThan(0);
  });

  it('shows a tracked bill page', async () => {
    await visit('/bills');
    const first = page.locator('main a[href^="/bills/"]').first();
    const href = await first.getAttribute('href');
    expect(href).toMatch(/^\/bills\/[a-z]+\d+-\d+$/);
    await visit(href!);
    expect((await page.locator('h1').textContent())?.length).toBeGreaterThan(3);
  });

  it('shows the market updates generated from the synced rate data', async () => {
    await visit('/news');
    expect(await page.locator('h2.entry-title').first().textContent()).toBe('Week of October 8, 2026: 30-year survey rate rises to 7.40%');
    await page.locator('h2.entry-title a').first().click();
    expect(page.url()).toBe(`${server.url}/news/2026-10-08`);
    expect(await page.locator('table').textContent()).toContain('7.40%');
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('searches from the home page and highlights the matches', async () => {
    await page.goto(`${server.url}/`);
    await page.getByLabel('Search articles, glossary, bills and market updates').fill('escrow cushion');
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/search\?q=escrow\+cushion/);
    expect(await page.locator('.results h3 a').first().getAttribute('href')).toBe('/glossary/escrow-cushion');
    expect(await page.locator('.results mark').count()).toBeGreaterThan(0);
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('draws the rate history chart', async () => {
    await visit('/rates?years=5');
    expect(await page.locator('svg[role="img"] polyline').count()).toBeGreaterThanOrEqual(2);
  });

  it('answers the loan-limit, escrow and calendar forms on the server', async () => {
    await page.goto(`${server.url}/loan-limits`);
    await page.getByLabel('State').selectOption('CA');
    await page.getByLabel('County (optional)').fill('Los Angeles');
    await page.getByRole('button', { name: 'Look up' }).click();
    await page.waitForURL(/state=CA/);
    expect(await page.locator('#answer').textContent()).toContain('California');
    expect(await page.locator('table tbody tr').first().textContent()).toMatch(/Los Angeles.*06037.*\$[\d,]+/);
    expect(await seriousViolations(page)).toEqual([]);

    // Taxes paid once a year in January, closing in March → 5 months (contract "Escrow").
    await visit('/escrow?state=CO&closing_month=3');
    expect(await page.locator('#answer').textContent()).toMatch(/Colorado, closing in March: \d+ months/);
    const badState = await page.goto(`${server.url}/escrow?state=ZZ`);
    expect(badState?.status()).toBe(400);
    expect(await page.getByRole('alert').textContent()).toMatch(/valid codes: AK, AL/);

    await visit('/calendar?from=2026-01-01&to=2026-12-31&impact=high');
    expect(await page.locator('#events').textContent()).toMatch(/\d+ events/);
  }, 120_000); // the first /loan-limits of a run draws the national map
});
