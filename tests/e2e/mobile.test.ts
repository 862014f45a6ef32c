// Every kind of page on a 375 px phone screen and at 1280 px in Chromium: the page never scrolls
// sideways and no table does either (wide tables show their rows as cards on the phone), every
// table's header stands over its columns at both widths, no page is more than 2.5 times as tall on
// the phone (a row shown as a card takes two or three lines where the desktop's takes one), axe-core
// finds no serious or critical violation, and generated text shows no raw Markdown (backtick spans)
// and no word glued to a link or code span. A screenshot of each page at each width is kept in
// tests/.artifacts/pages/. Without JavaScript, the county map, the
// payment calculator, the escrow dollars and the home page's weekly change are checked against
// figures the test computes itself from the publishers' files. On-demand pages read a database
// synced from the official files.
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Browser, type Page } from 'playwright-core';
import { readArticles } from '../../api/content/markdown.ts';
import { loadSsrHandler } from '../../api/server.ts';
import { SITE_NAV } from '../../api/site-info/site-frame.ts';
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
import { hasSourceData, sourceFile } from '../support/source-data.ts';
import { fhfa2026 } from '../support/content-figure-readers.ts';
import { syncInto, syncedTestDatabase } from '../support/synced.ts';

const PHONE = { width: 375, height: 812 };
const DESKTOP = { width: 1280, height: 800 };
/** The states and DC: the national map's counties (the territories are not on it). */
const NOT_ON_THE_MAP = ['PR', 'GU', 'VI', 'AS', 'MP'];

interface Layout {
  scrollWidth: number;
  scrollHeight: number;
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
  scrollHeight: number;
  clientWidth: number;
  getAttribute(name: string): string | null;
  cloneNode(deep: boolean): DomElement;
  remove(): void;
  querySelectorAll(selector: string): Iterable<DomElement>;
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
    // Code blocks (API answers on /docs/api) show text as it is, backticks included.
    const prose = main?.cloneNode(true);
    for (const block of prose?.querySelectorAll('pre') ?? []) block.remove();
    const text = prose?.textContent ?? '';
    const html = main?.innerHTML ?? '';
    const nameOf = (box: DomElement): string => {
      const label = box.getAttribute('aria-label');
      if (label !== null) return label.trim();
      const ids = (box.getAttribute('aria-labelledby') ?? '').split(/\s+/).filter((id) => id !== '');
      return ids
        .map((id: string) => doc.getElementById(id)?.textContent ?? '')
        .join(' ')
        .trim();
    };
    return {
      scrollWidth: doc.documentElement.scrollWidth,
      scrollHeight: doc.documentElement.scrollHeight,
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
  let desktop: Page;
  let noScript: Page;
  let calendarLoaded = false;

  beforeAll(async () => {
    await ensureSiteBuiltForTests();
    database = await syncedTestDatabase('pglite', ['pmms', 'optimal_blue', 'bills', 'loan_limits_conforming', 'loan_limits_fha']);
    // The calendar is synced on its own: when its source does not load, /calendar is checked in
    // the state a reader then sees (its 503 page) rather than failing every other page with it.
    const calendar = await syncInto(database.db, ['economic_calendar']);
    calendarLoaded = calendar.results.every((result) => result.status === 'ok');
    if (!calendarLoaded)
      console.warn(
        `[tests] economic_calendar did not sync; /calendar is checked without events: ${calendar.results.map((result) => result.message).join('; ')}`,
      );
    const ssrHandler = await loadSsrHandler(testConfig());
    testApp = await buildTestApp(database.db, { options: ssrHandler ? { ssrHandler } : {} });
    await testApp.deps.services.search.rebuild();
    server = await listen(testApp.app);
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
    // The site's CSP refuses inline scripts; the test bypasses it only to inject axe-core.
    const context = await browser.newContext({ viewport: PHONE, isMobile: true, hasTouch: true, bypassCSP: true });
    page = await context.newPage();
    // Busy shared machines: an on-demand page's first render (the API docs run their examples) can take a while.
    context.setDefaultNavigationTimeout(120_000);
    context.setDefaultTimeout(120_000);
    desktop = await (await browser.newContext({ viewport: DESKTOP, bypassCSP: true })).newPage();
    noScript = await (await browser.newContext({ viewport: PHONE, javaScriptEnabled: false })).newPage();
    for (const other of [desktop, noScript]) {
      other.setDefaultNavigationTimeout(120_000);
      other.setDefaultTimeout(120_000);
    }
  }, 600_000);
  screenshotFailures(() => ({ phone: page, desktop, 'phone-no-script': noScript }));

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await testApp?.close();
    await database?.drop();
  });

  /** Loads the page and checks what every page must satisfy; returns its layout for more checks. */
  async function checkPage(sitePath: string, status = 200): Promise<Layout> {
    const response = await page.goto(`${server.url}${sitePath}`);
    expect(response?.status(), sitePath).toBe(status);
    const layout = await readLayout(page);
    expect(layout.innerWidth, sitePath).toBe(PHONE.width);
    expect(layout.scrollWidth, `${sitePath} scrolls sideways`).toBeLessThanOrEqual(layout.innerWidth);
    expect(layout.navLinks, `${sitePath} has the site navigation`).toBe(SITE_NAV.length);
    expect(layout.rawMarkdown, `${sitePath} shows raw Markdown`).toEqual([]);
    expect(layout.gluedWords, `${sitePath} lost a space`).toEqual([]);
    for (const box of layout.boxes) {
      expect(box.focusable, `${sitePath}: a table box is not a focusable region`).toBe(true);
      expect(box.name, `${sitePath}: a table box has no name`).not.toBe('');
      expect(box.scrolls, `${sitePath}: the table "${box.name}" scrolls sideways`).toBe(false);
    }
    expect(await seriousViolations(page), sitePath).toEqual([]);
    expect(await tableMisalignments(page), `${sitePath} on a phone`).toEqual([]);
    await keepScreenshot(page, sitePath);
    await desktop.goto(`${server.url}${sitePath}`);
    const { desktopHeight, desktopWidth, desktopInnerWidth } = await desktop.evaluate(() => {
      const root = (globalThis as unknown as { document: DomDocument }).document.documentElement;
      return {
        desktopHeight: root.scrollHeight,
        desktopWidth: root.scrollWidth,
        desktopInnerWidth: (globalThis as unknown as { innerWidth: number }).innerWidth,
      };
    });
    expect(desktopWidth, `${sitePath} scrolls sideways at ${DESKTOP.width} px`).toBeLessThanOrEqual(desktopInnerWidth);
    // Every table's header stands over its columns on a desktop too (a phone rule once leaked into it).
    expect(await tableMisalignments(desktop), `${sitePath} at ${DESKTOP.width} px`).toEqual([]);
    await keepScreenshot(desktop, sitePath);
    expect(
      layout.scrollHeight,
      `${sitePath} is ${layout.scrollHeight} px tall on a phone, ${desktopHeight} px at 1280 px`,
    ).toBeLessThanOrEqual(2.5 * Math.max(desktopHeight, DESKTOP.height));
    return layout;
  }

  it('fits the content pages: home, article, learn page, glossary index and term, 404', async () => {
    const article = readArticles(undefined, 'articles')[0]!;
    const learn = readArticles(undefined, 'learn')[0]!;
    await checkPage('/');
    await checkPage('/articles');
    await checkPage(`/articles/${article.slug}`);
    await checkPage('/learn');
    await checkPage(`/learn/${learn.slug}`);
    await checkPage('/glossary');
    await checkPage('/glossary/escrow-cushion');
    await checkPage('/no-such-page', 404);
  }, 300_000); // eight pages, each loaded on a phone and a desktop and checked by axe: slow on a busy machine

  it('fits the data pages, their answer tables shown as cards', async () => {
    await checkPage('/rates');
    await checkPage('/rates?state=TX&fico=720&ltv=80&loan_type=conventional&loan_term=30');
    await checkPage('/loan-limits');
    const limits = await checkPage('/loan-limits?state=CA&county=Los+Angeles');
    expect(limits.boxes.length).toBeGreaterThan(0);
    await checkPage('/loan-limits?state=TX');
    await checkPage('/escrow');
    const escrow = await checkPage('/escrow?state=CO&closing_month=3&annual_tax=3600');
    expect(escrow.boxes.length).toBeGreaterThan(0);
    await checkPage('/calculator');
    await checkPage('/calculator?price=400000&down_percent=10&rate=6.5&annual_tax=4800&annual_insurance=1500&pmi_rate=0.5');
    const calendar = await checkPage('/calendar?from=2026-01-01&to=2026-12-31', calendarLoaded ? 200 : 503);
    if (calendarLoaded) expect(calendar.boxes.length).toBeGreaterThan(0);
  }, 300_000);

  it('fits the bills, market updates and search pages', async () => {
    const bills = await checkPage('/bills');
    expect(bills.boxes.length).toBeGreaterThan(0);
    const href = await page.locator('main a[href^="/bills/"]').first().getAttribute('href');
    await checkPage(href!);
    await checkPage('/news');
    const week = await page.locator('h2.entry-title a').first().getAttribute('href');
    await checkPage(week!);
    await checkPage('/search?q=escrow+cushion');
    expect(await page.locator('main ol.results li').count()).toBeGreaterThan(0);
    // The form's earlier parameter name still works.
    await page.goto(`${server.url}/search?query=escrow+cushion`);
    expect(await page.locator('main ol.results li').count()).toBeGreaterThan(0);
  }, 300_000);

  it('renders the Markdown of the API documentation and the page for AI models', async () => {
    await checkPage('/docs/api');
    expect(await page.locator('main p code', { hasText: '/healthz' }).count()).toBeGreaterThan(0);
    const words = async () => ((await page.locator('main').textContent()) ?? '').replace(/\s+/g, ' ');
    expect(await words()).toContain('machine-readable OpenAPI 3.1 document');
    // Each operation shows an example request, and a GET this server's own answer to it (here from the synced data).
    expect(await page.locator('main .example').count()).toBeGreaterThan(15);
    expect(await page.locator('main .example pre[data-status="200"]').count()).toBeGreaterThanOrEqual(5);
    expect(await page.locator('main .example[data-example="get /escrow"] pre[data-status="200"]').textContent()).toContain(
      '"escrowMonthsExact": 7.6',
    );
    await checkPage('/ai-info-page');
    expect(await words()).toMatch(/and \d+ learn pages/);
    // The limits are the running server's (the tests run with the per-minute limit off), not the build's.
    expect(await words()).toContain('no limit per minute per IP');
    expect(await words()).not.toMatch(/987,654|\b0 requests per/);
  }, 300_000);

  it('fits the documentation index and its documents, their wide tables shown as cards', async () => {
    await checkPage('/docs');
    expect(await page.locator('main a[href="/docs/api"]').count()).toBeGreaterThan(0);
    // The rates method (the series table) and the HMDA warehouse (the lar view's columns, long code).
    const rates = await checkPage('/docs/rates');
    expect(rates.boxes.length).toBeGreaterThan(0);
    await checkPage('/docs/hmda-warehouse');
    await checkPage('/docs/glossary');
  }, 300_000);

  it('fits the method page of the state rate estimate, its filter table shown as cards', async () => {
    await checkPage('/methods/state-rate-estimate');
    expect(((await page.locator('main').textContent()) ?? '').replace(/\s+/g, ' ')).toContain(
      'fewer than 300 loans in the group gets no adjustment',
    );
  }, 120_000);

  it('shows /account in the site frame, saying what a reader can do without sign-in or a contact', async () => {
    await checkPage('/account');
    const main = (await page.locator('main').textContent()) ?? '';
    expect(main).toContain('Without a key you can already use every data endpoint');
    expect(main).toContain('run your own copy');
    expect(main).not.toContain('npm run');
    expect(await page.locator('footer a[href="/account"][aria-current="page"]').count()).toBe(1);
  }, 300_000);

  it("draws the county map of conforming limits from FHFA's file, without script", async () => {
    const fhfa = await fhfa2026();
    const mapped = [...fhfa].filter(([, row]) => !NOT_ON_THE_MAP.includes(row.state));
    const contiguous = mapped.filter(([, row]) => !['AK', 'HI'].includes(row.state)).map(([, row]) => row.oneUnit);
    const baseline = Math.min(...contiguous);
    const ceiling = Math.max(...contiguous);
    const middle = Math.round((baseline + ceiling) / 2);
    const bandOf = (limit: number) =>
      limit <= baseline ? 'baseline' : limit < middle ? 'lower' : limit < ceiling ? 'upper' : limit === ceiling ? 'ceiling' : 'above';
    await noScript.goto(`${server.url}/loan-limits`);
    const drawn = await noScript.locator('figure[data-map="nation"] path[data-fips]').evaluateAll((paths) =>
      paths.map((node) => {
        const element = node as unknown as { getAttribute(name: string): string | null };
        return {
          fips: element.getAttribute('data-fips') ?? '',
          band: element.getAttribute('data-band') ?? '',
          value: element.getAttribute('data-value'),
          fill: element.getAttribute('fill'),
        };
      }),
    );
    // Every county of the 50 states and DC in FHFA's file has its shape, and no shape lacks a figure.
    expect(drawn.map((county) => county.fips).sort()).toEqual(mapped.map(([fips]) => fips).sort());
    for (const county of drawn) {
      const limit = fhfa.get(county.fips)!.oneUnit;
      expect(Number(county.value), county.fips).toBe(limit);
      expect(county.band, county.fips).toBe(bandOf(limit));
    }
    // One colour per band, as the legend shows it.
    const fills = new Map<string, Set<string | null>>();
    for (const county of drawn) fills.set(county.band, (fills.get(county.band) ?? new Set()).add(county.fill));
    for (const colours of fills.values()) expect(colours.size).toBe(1);
    // The table below the map lists exactly the counties above the baseline.
    const listed = await noScript.locator('main details table tbody tr').count();
    expect(listed).toBe(mapped.filter(([, row]) => row.oneUnit > baseline).length);
  });

  it('computes the payment, the escrow dollars and the weekly change without script, as the test computes them', async () => {
    // Principal and interest by the amortisation formula, the rest a twelfth of the year, PMI on the loan.
    const loan = 360_000;
    const r = 6.5 / 1200;
    const growth = (1 + r) ** 360;
    const parts = [Math.round(((loan * r * growth) / (growth - 1)) * 100) / 100, 400, 125, 150];
    await noScript.goto(
      `${server.url}/calculator?price=400000&down_percent=10&rate=6.5&term=30&annual_tax=4800&annual_insurance=1500&pmi_rate=0.5`,
    );
    const amounts = await noScript.locator('[data-part] [data-amount]').allTextContents();
    expect(amounts.map((text) => Number(text.replace(/[$,]/g, '')))).toEqual(parts);
    expect(await noScript.locator('[data-total]').getAttribute('data-total')).toBe(
      (Math.round(parts.reduce((a, b) => a + b) * 100) / 100).toFixed(2),
    );

    // Cook County, closing in January: the first payment is in March, when 55% of the year's tax
    // (6.6 months) is paid: 1 − 6.6 = −5.6, so 2 + 5.6 = 7.6 months, collected as 8 whole months of $500.
    await noScript.goto(`${server.url}/escrow?state=IL&county=Cook&closing_month=1&annual_tax=6000`);
    expect(await noScript.locator('[data-escrow-amount]').getAttribute('data-escrow-amount')).toBe('4000.00');
    expect(await noScript.locator('[data-exact-months]').getAttribute('data-exact-months')).toBe('7.6');
    expect(await noScript.locator('main').textContent()).toContain('rounded up to 8');

    // The survey's last two weeks and the week 52 weeks before, read from Freddie Mac's file.
    const rows = fs
      .readFileSync(sourceFile('rates', 'MORTGAGE30US_weekly_1971_2026.csv'), 'utf8')
      .trim()
      .split('\n')
      .slice(1)
      .map((line) => line.split(','));
    const [lastDate, last] = rows.at(-1)!;
    const previous = Number(rows.at(-2)![1]);
    const yearBefore = new Date(Date.parse(`${lastDate}T00:00:00Z`) - 364 * 86_400_000).toISOString().slice(0, 10);
    const yearAgo = rows.filter(([date]) => date! <= yearBefore).at(-1)!;
    await noScript.goto(`${server.url}/`);
    const headline = noScript.locator('.headline[data-series="pmms/30-year"]');
    expect(await headline.locator('[data-value]').textContent()).toBe(`${Number(last).toFixed(2)}%`);
    expect(await headline.locator('[data-change]').getAttribute('data-change')).toBe(
      ((Math.round(Number(last) * 100) - Math.round(previous * 100)) / 100).toFixed(2),
    );
    expect(await headline.locator('[data-year-ago]').getAttribute('data-year-ago')).toBe(Number(yearAgo[1]).toFixed(2));
  });
});
