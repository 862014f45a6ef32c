// Every kind of page on a 375 px phone screen in Chromium: the page never scrolls sideways (wide
// tables scroll inside their own focusable, named box), axe-core finds no serious or critical
// violation, and generated text shows no raw Markdown (backtick spans) and no word glued to a link
// or code span. On-demand pages read a database synced from the official files.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Browser, type Page } from 'playwright-core';
import { readArticles } from '../../api/content/markdown.ts';
import { loadSsrHandler } from '../../api/server.ts';
import { SITE_NAV } from '../../api/site-info/site-frame.ts';
import { buildTestApp, listen, testConfig, type TestApp } from '../support/app.ts';
import { ARTIFACTS, CHROMIUM_FLAGS, CHROMIUM, hasChromium, seriousViolations } from '../support/browser.ts';
import type { TestDatabase } from '../support/databases.ts';
import { ensureSiteBuiltForTests } from '../support/site-build.ts';
import { hasSourceData } from '../support/source-data.ts';
import { syncInto, syncedTestDatabase } from '../support/synced.ts';

const PHONE = { width: 375, height: 812 };

interface Layout {
  scrollWidth: number;
  innerWidth: number;
  rawMarkdown: string[];
  gluedWords: string[];
  boxes: { name: string; focusable: boolean; scrolls: boolean }[];
  navLinks: number;
}

/** The little of the DOM the checks read (the project compiles without the DOM library). */
interface DomElement {
  textContent: string | null;
  innerHTML: string;
  scrollWidth: number;
  clientWidth: number;
  getAttribute(name: string): string | null;
}
interface DomDocument {
  documentElement: DomElement;
  querySelector(selector: string): DomElement | null;
  querySelectorAll(selector: string): Iterable<DomElement> & { length: number };
  getElementById(id: string): DomElement | null;
}

/** What the page looks like to these checks, read in the page itself. */
function readLayout(page: Page): Promise<Layout> {
  return page.evaluate(() => {
    const doc = (globalThis as unknown as { document: DomDocument }).document;
    const win = globalThis as unknown as { innerWidth: number };
    const main = doc.querySelector('main');
    const text = main?.textContent ?? '';
    const html = main?.innerHTML ?? '';
    const nameOf = (box: DomElement): string => {
      const label = box.getAttribute('aria-label');
      if (label !== null) return label.trim();
      const ids = (box.getAttribute('aria-labelledby') ?? '').split(/\s+/).filter((id) => id !== '');
      return ids.map((id: string) => doc.getElementById(id)?.textContent ?? '').join(' ').trim();
    };
    return {
      scrollWidth: doc.documentElement.scrollWidth,
      innerWidth: win.innerWidth,
      rawMarkdown: text.match(/`[^`\n]+`/g) ?? [],
      // A word directly against an inline element: the space at a source line break was lost.
      gluedWords: [...html.matchAll(/[A-Za-z0-9]<(a|code|strong|em)[\s>]|<\/(a|code|strong|em)>[A-Za-z0-9]/g)].map((match) =>
        html.slice(Math.max(0, match.index - 30), match.index + 30),
      ),
      boxes: [...doc.querySelectorAll('.table-scroll')].map((box) => ({
        name: nameOf(box),
        focusable: box.getAttribute('tabindex') === '0' && box.getAttribute('role') === 'region',
        scrolls: box.scrollWidth > box.clientWidth,
      })),
      navLinks: doc.querySelectorAll('nav[aria-label="Main"] a').length,
    };
  });
}

describe.skipIf(!hasChromium || !hasSourceData)('every page kind on a 375 px phone', () => {
  let database: TestDatabase;
  let testApp: TestApp;
  let server: Awaited<ReturnType<typeof listen>>;
  let browser: Browser;
  let page: Page;
  let calendarLoaded = false;

  beforeAll(async () => {
    await ensureSiteBuiltForTests();
    database = await syncedTestDatabase('pglite', ['pmms', 'optimal_blue', 'bills', 'loan_limits_conforming', 'loan_limits_fha']);
    // The calendar is synced on its own: when its source does not load, /calendar is checked in
    // the state a reader then sees (its 503 page) rather than failing every other page with it.
    const calendar = await syncInto(database.db, ['economic_calendar']);
    calendarLoaded = calendar.results.every((result) => result.status === 'ok');
    if (!calendarLoaded) console.warn(`[tests] economic_calendar did not sync; /calendar is checked without events: ${calendar.results.map((result) => result.message).join('; ')}`);
    const ssrHandler = await loadSsrHandler(testConfig());
    testApp = await buildTestApp(database.db, { options: ssrHandler ? { ssrHandler } : {} });
    await testApp.deps.services.search.rebuild();
    server = await listen(testApp.app);
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
    // The site's CSP refuses inline scripts; the test bypasses it only to inject axe-core.
    const context = await browser.newContext({ viewport: PHONE, isMobile: true, hasTouch: true, bypassCSP: true });
    page = await context.newPage();
    fs.mkdirSync(ARTIFACTS, { recursive: true });
  }, 600_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await testApp?.close();
    await database?.drop();
  });

  /** Loads the page and checks what every page must satisfy; returns its layout for more checks. */
  async function checkPage(sitePath: string, name: string, status = 200): Promise<Layout> {
    const response = await page.goto(`${server.url}${sitePath}`);
    expect(response?.status(), sitePath).toBe(status);
    await page.screenshot({ path: path.join(ARTIFACTS, `phone-${name}.png`), fullPage: true });
    const layout = await readLayout(page);
    expect(layout.innerWidth, sitePath).toBe(PHONE.width);
    expect(layout.scrollWidth, `${sitePath} scrolls sideways`).toBeLessThanOrEqual(layout.innerWidth);
    expect(layout.navLinks, `${sitePath} has the site navigation`).toBe(SITE_NAV.length);
    expect(layout.rawMarkdown, `${sitePath} shows raw Markdown`).toEqual([]);
    expect(layout.gluedWords, `${sitePath} lost a space`).toEqual([]);
    for (const box of layout.boxes) {
      expect(box.focusable, `${sitePath}: a table box is not a focusable region`).toBe(true);
      expect(box.name, `${sitePath}: a table box has no name`).not.toBe('');
    }
    expect(await seriousViolations(page), sitePath).toEqual([]);
    return layout;
  }

  it('fits the content pages: home, article, learn page, glossary index and term, 404', async () => {
    const article = readArticles(undefined, 'articles')[0]!;
    const learn = readArticles(undefined, 'learn')[0]!;
    await checkPage('/', 'home');
    await checkPage('/articles', 'articles');
    await checkPage(`/articles/${article.slug}`, 'article');
    await checkPage('/learn', 'learn');
    await checkPage(`/learn/${learn.slug}`, 'learn-page');
    await checkPage('/glossary', 'glossary');
    await checkPage('/glossary/escrow-cushion', 'glossary-term');
    await checkPage('/no-such-page', 'not-found', 404);
  }, 90_000); // eight pages, each screenshotted and checked by axe: slow on a busy machine

  it('fits the data pages, their wide answer tables scrolling inside their own boxes', async () => {
    await checkPage('/rates', 'rates');
    await checkPage('/loan-limits', 'loan-limits');
    const limits = await checkPage('/loan-limits?state=CA&county=Los+Angeles', 'loan-limits-answer');
    expect(limits.boxes.length).toBeGreaterThan(0);
    await checkPage('/escrow', 'escrow');
    const escrow = await checkPage('/escrow?state=CO&closing_month=3', 'escrow-answer');
    // The month-by-month table is wider than a phone: it scrolls, the page does not.
    expect(escrow.boxes.some((box) => box.scrolls)).toBe(true);
    const calendar = await checkPage('/calendar?from=2026-01-01&to=2026-12-31', 'calendar', calendarLoaded ? 200 : 503);
    if (calendarLoaded) expect(calendar.boxes.length).toBeGreaterThan(0);
  });

  it('fits the bills, market updates and search pages', async () => {
    const bills = await checkPage('/bills', 'bills');
    expect(bills.boxes.some((box) => box.scrolls)).toBe(true);
    const href = await page.locator('main a[href^="/bills/"]').first().getAttribute('href');
    await checkPage(href!, 'bill');
    await checkPage('/news', 'news');
    const week = await page.locator('h2.entry-title a').first().getAttribute('href');
    await checkPage(week!, 'news-week');
    await checkPage('/search?query=escrow+cushion', 'search');
  });

  it('renders the Markdown of the API documentation and the page for AI models', async () => {
    await checkPage('/docs/api', 'docs-api');
    expect(await page.locator('main p code', { hasText: '/healthz' }).count()).toBeGreaterThan(0);
    const words = async () => ((await page.locator('main').textContent()) ?? '').replace(/\s+/g, ' ');
    expect(await words()).toContain('machine-readable OpenAPI 3.1 document');
    await checkPage('/ai-info-page', 'ai-info-page');
    expect(await words()).toMatch(/and \d+ learn pages/);
  });

  it('fits the method page of the state rate estimate, its filter table scrolling in its own box', async () => {
    await checkPage('/methods/state-rate-estimate', 'state-rate-estimate');
    expect(((await page.locator('main').textContent()) ?? '').replace(/\s+/g, ' ')).toContain('fewer than 300 loans in the group gets no adjustment');
  }, 120_000);

  it('shows /account in the site frame, saying what a reader can do without sign-in or a contact', async () => {
    await checkPage('/account', 'account');
    const main = (await page.locator('main').textContent()) ?? '';
    expect(main).toContain('Without a key you can already use every data endpoint');
    expect(main).toContain('run your own copy');
    expect(main).not.toContain('npm run');
    expect(await page.locator('footer a[href="/account"][aria-current="page"]').count()).toBe(1);
  });
});
