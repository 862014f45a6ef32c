// The research pages in Chromium, on a desktop and a 375 px phone screen: a state page and a county
// page render their chart (an SVG with drawn lines) and their analysis, wide tables scroll inside
// their own box rather than the page, every table's header stands over its columns, and axe-core finds no serious or critical violation (a failing
// test leaves a screenshot in tests/.artifacts/).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Browser, type Page } from 'playwright-core';
import { loadSsrHandler } from '../../api/server.ts';
import { buildTestApp, listen, testConfig, type TestApp } from '../support/app.ts';
import type { TestDatabase } from '../support/databases.ts';
import { ensureSiteBuiltForTests } from '../support/site-build.ts';
import { hasSourceData } from '../support/source-data.ts';
import { syncedTestDatabase } from '../support/synced.ts';
import {
  CHROMIUM,
  CHROMIUM_FLAGS,
  hasChromium,
  keepScreenshot,
  screenshotFailures,
  seriousViolations,
  tableMisalignments,
} from '../support/browser.ts';

const PAGES = [
  { path: '/research/ohio', heading: /^Ohio mortgage data/ },
  { path: '/research/arizona/maricopa-county', heading: /^Maricopa County, AZ/ },
];

describe.skipIf(!hasChromium || !hasSourceData)('research pages in a browser', () => {
  let database: TestDatabase;
  let testApp: TestApp;
  let server: Awaited<ReturnType<typeof listen>>;
  let browser: Browser;

  beforeAll(async () => {
    await ensureSiteBuiltForTests();
    database = await syncedTestDatabase('pglite', [
      'counties',
      'loan_limits_conforming',
      'loan_limits_fha',
      'hmda_aggregates',
      'nmdb',
      'pmms',
      'bills',
    ]);
    const ssrHandler = await loadSsrHandler(testConfig());
    testApp = await buildTestApp(database.db, { options: ssrHandler ? { ssrHandler } : {} });
    server = await listen(testApp.app);
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
  }, 600_000);
  /** The page a test has open, pictured if it fails. */
  let current: Page | undefined;
  screenshotFailures(() => ({ page: current }));

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await testApp?.close();
    await database?.drop();
  });

  /** The drawn chart (the drawing the screen shows: wide, or narrow on a phone): lines with points, and its accessible title. */
  async function chartOf(page: Page): Promise<{ lines: number; points: number; title: string }> {
    const lines = page.locator('main figure.chart svg[role="img"]:visible polyline');
    const points = await lines.evaluateAll((elements) =>
      elements.map((element) => (element.getAttribute('points') ?? '').trim().split(/\s+/).filter(Boolean).length),
    );
    return {
      lines: points.filter((count) => count >= 2).length,
      points: points.reduce((a, b) => a + b, 0),
      title: (await page.locator('main figure.chart svg[role="img"]:visible title').textContent()) ?? '',
    };
  }

  for (const { path: sitePath, heading } of PAGES) {
    it(`renders ${sitePath} with its chart on a desktop and a phone`, async () => {
      for (const viewport of [
        { width: 1280, height: 900, label: 'desktop' },
        { width: 375, height: 812, label: 'phone' },
      ]) {
        const context = await browser.newContext({ viewport, bypassCSP: true });
        const page = await context.newPage();
        current = page;
        // The first page of a run also draws the county outlines once: slow on a busy machine.
        page.setDefaultNavigationTimeout(90_000);
        const response = await page.goto(`${server.url}${sitePath}`);
        expect(response?.status(), sitePath).toBe(200);
        expect(await page.locator('main h1').textContent()).toMatch(heading);
        const chart = await chartOf(page);
        expect(chart.lines, `${sitePath} draws its lines`).toBeGreaterThanOrEqual(2);
        expect(chart.points).toBeGreaterThan(8);
        expect(chart.title).not.toBe('');
        expect(await page.locator('main section[aria-labelledby="analysis"] p').count()).toBeGreaterThanOrEqual(4);
        const widths = await page.evaluate(() => {
          const doc = (globalThis as unknown as { document: { documentElement: { scrollWidth: number } } }).document;
          return { scroll: doc.documentElement.scrollWidth, inner: (globalThis as unknown as { innerWidth: number }).innerWidth };
        });
        expect(widths.scroll, `${sitePath} scrolls sideways on the ${viewport.label}`).toBeLessThanOrEqual(widths.inner);
        expect(await seriousViolations(page), sitePath).toEqual([]);
        expect(await tableMisalignments(page), `${sitePath} on the ${viewport.label}`).toEqual([]);
        await keepScreenshot(page, sitePath);
        await context.close();
      }
    }, 120_000);
  }
});
