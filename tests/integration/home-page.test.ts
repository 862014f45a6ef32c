// The home page shows the last sync's figures and is rendered once per data version: the latest
// weekly survey rows and the benchmark match the last rows of the official files, this year's
// conforming baseline and ceiling match FHFA's county file, the next calendar events are the
// calendar's; a second request is served from memory (no render), a new load renders it again,
// a query-string variant still renders per request, and the server can render every data page
// ahead of its readers; and before any sync the page says the figures are not available yet.
import fs from 'node:fs';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadSsrHandler } from '../../api/server.ts';
import { prerenderDataPages } from '../../api/publications/rendered-pages.ts';
import { buildTestApp, listen, testConfig, type TestApp } from '../support/app.ts';
import { createTestDatabase, type TestDatabase } from '../support/databases.ts';
import { ensureSiteBuiltForTests } from '../support/site-build.ts';
import { hasSourceData, sourceFile } from '../support/source-data.ts';
import { syncedTestDatabase, syncInto } from '../support/synced.ts';

const TODAY = new Date('2026-10-09T12:00:00Z');

/** The last row with a value of a FRED download (`date,value`, a header first). */
function lastFredRow(...parts: string[]): { date: string; value: number } {
  const rows = fs
    .readFileSync(sourceFile(...parts), 'utf8')
    .trim()
    .split(/\r?\n/)
    .slice(1)
    .map((line) => line.split(','));
  const last = rows.filter(([, value]) => value !== undefined && value !== '' && value !== '.').at(-1)!;
  return { date: last[0]!, value: Number(last[1]) };
}

/** FHFA's county file: the baseline is the lowest one-unit limit, the ceiling the highest in the contiguous states. */
function fhfaBaselineAndCeiling(file: string): { baseline: number; ceiling: number } {
  const [header, ...rows] = fs
    .readFileSync(sourceFile('loan_limits', 'fhfa_conforming', file), 'utf8')
    .trim()
    .split(/\r?\n/)
    .map((line) => line.split(','));
  const state = header!.indexOf('State');
  const oneUnit = header!.indexOf('One-Unit Limit');
  const outside = new Set(['AK', 'HI', 'GU', 'VI', 'PR', 'AS', 'MP']);
  const limits = rows.map((row) => ({ state: row[state]!, limit: Number(row[oneUnit]) }));
  return {
    baseline: Math.min(...limits.map((row) => row.limit)),
    ceiling: Math.max(...limits.filter((row) => !outside.has(row.state)).map((row) => row.limit)),
  };
}

const text = (html: string) =>
  html
    .replace(/<[^>]+>/g, '')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');

/** The Astro handler, counting the pages it renders. */
async function countingHandler(): Promise<{ handler: RequestHandler; renders: string[] }> {
  await ensureSiteBuiltForTests();
  const real = await loadSsrHandler(testConfig());
  expect(real).toBeDefined();
  const renders: string[] = [];
  const handler = ((req: Request, res: Response, next: NextFunction, locals: unknown) => {
    renders.push(req.url);
    return (real as (...args: unknown[]) => unknown)(req, res, next, locals);
  }) as unknown as RequestHandler;
  return { handler, renders };
}

describe.skipIf(!hasSourceData)('the home page with the synced data', () => {
  let database: TestDatabase;
  let testApp: TestApp;
  let server: Awaited<ReturnType<typeof listen>>;
  let renders: string[];
  let html: string;
  let stopPrerendering: (() => void) | undefined;
  /** The app's day: a new day is a new version of every page (the last test moves it on). */
  let today = TODAY;

  beforeAll(async () => {
    database = await syncedTestDatabase('pglite', ['pmms', 'optimal_blue', 'economic_calendar', 'loan_limits_conforming']);
    const counted = await countingHandler();
    renders = counted.renders;
    testApp = await buildTestApp(database.db, { clock: () => today, options: { ssrHandler: counted.handler } });
    server = await listen(testApp.app);
    const response = await fetch(`${server.url}/`);
    expect(response.status).toBe(200);
    html = await response.text();
  }, 600_000);

  afterAll(async () => {
    stopPrerendering?.();
    await server?.close();
    await testApp?.close();
    await database?.drop();
  });

  it("states each survey's and the benchmark's last published reading and date, as in the official files", () => {
    const expected = [
      { id: 'pmms/30-year', ...lastFredRow('rates', 'MORTGAGE30US_weekly_1971_2026.csv') },
      { id: 'pmms/15-year', ...lastFredRow('rates', 'MORTGAGE15US_weekly_1991_2025.csv') },
      { id: 'optimal-blue/conforming-30-year', ...lastFredRow('rates', 'recent_2020_2025', 'OBMMIC30YF.csv') },
    ];
    for (const { id, date, value } of expected) {
      const row = new RegExp(`<tr[^>]*data-series="${id}"[^>]*>([\\s\\S]*?)</tr>`).exec(html)?.[1];
      expect(row, `${id} in ${/today-rates[\s\S]{0,600}/.exec(html)?.[0]}`).toBeDefined();
      expect(Number(/<td[^>]*data-value[^>]*>([\d.]+)%<\/td>/.exec(row!)?.[1]), id).toBe(value);
      expect(row).toContain(`datetime="${date}"`);
      expect(row).toMatch(/href="https:\/\/fred\.stlouisfed\.org\/series\/\w+"/);
    }
    // Each reading says how old it is today; the day after its release the headline survey figure is current (no banner).
    expect(html).toContain('<span class="muted" data-age>(1 day old)</span>');
    expect(html).toMatch(/<span class="muted" data-age>\(\d+ days old, \d+ newer releases not loaded\)<\/span>/);
    expect(html).not.toContain('class="stale-banner"');
    // The chart draws the three lines with a title naming the year shown.
    expect(html.match(/<polyline /g)?.length).toBeGreaterThanOrEqual(1);
    expect(text(html)).toContain('Mortgage rates from October 8, 2025 to October 8, 2026, percent');
  });

  it('shows a banner when the headline figure is not current: on 2026-11-27 the survey of 2026-10-08 has missed seven releases', async () => {
    const later = await buildTestApp(database.db, {
      clock: () => new Date('2026-11-27T12:00:00Z'),
      options: { ssrHandler: (await countingHandler()).handler },
    });
    const site = await listen(later.app);
    try {
      const page = await (await fetch(`${site.url}/`)).text();
      expect(page).toMatch(/class="stale-banner"[^>]*data-stale="pmms\/30-year"/);
      expect(text(page)).toMatch(
        /Not current\. Freddie Mac PMMS 30-year fixed \(weekly survey\) is from 2026-10-08, 50 days before 2026-11-27; 7 scheduled releases/,
      );
    } finally {
      await site.close();
      await later.close();
    }
  }, 120_000);

  it("states this year's conforming baseline and ceiling as FHFA's file gives them", () => {
    const { baseline, ceiling } = fhfaBaselineAndCeiling('FullCountyLoanLimitList2026_converted_from_xlsx.csv');
    expect(html).toContain('data-year="2026"');
    expect(html).toContain(`<dd data-limit="baseline">$${baseline.toLocaleString('en-US')}</dd>`);
    expect(html).toContain(`<dd data-limit="ceiling">$${ceiling.toLocaleString('en-US')}</dd>`);
    expect(text(html)).toMatch(/Source: FHFA conforming loan limits, as of \w+ \d+, \d{4}/);
  });

  it('lists the next calendar events, as the calendar API answers from today', async () => {
    const answer = (await (await fetch(`${server.url}/api/v1/calendar?from=2026-10-09&limit=5`)).json()) as {
      events: { date: string; name: string }[];
    };
    const listed = [...html.matchAll(/<li data-event="([\d-]+)">.*?<a href="[^"]+">([^<]+)<\/a>/g)].map((match) => ({
      date: match[1],
      name: text(match[2]!),
    }));
    expect(answer.events.length).toBeGreaterThan(0);
    expect(listed).toEqual(answer.events.map((event) => ({ date: event.date, name: event.name })));
  });

  it('is rendered once per data version, again after a new load, while query strings render per request', async () => {
    const before = renders.filter((url) => url === '/').length;
    expect(before).toBe(1);
    const again = await fetch(`${server.url}/`);
    expect(await again.text()).toBe(html);
    expect(again.headers.get('etag')).toMatch(/^"[\w-]+"$/);
    expect(renders.filter((url) => url === '/').length).toBe(1);

    await syncInto(database.db, ['economic_calendar']);
    testApp.deps.services.datasets.invalidate();
    await fetch(`${server.url}/`);
    await fetch(`${server.url}/`);
    expect(renders.filter((url) => url === '/').length).toBe(2);

    await fetch(`${server.url}/rates?years=1`);
    await fetch(`${server.url}/rates?years=1`);
    expect(renders.filter((url) => url === '/rates?years=1').length).toBe(2);
  });

  it('renders every data page ahead of its readers when the server asks, so a reader gets it from memory', async () => {
    // Not /bills: its dataset is not loaded here, and a page answering 503 is not kept (the next reader renders it).
    const pages = ['/calendar', '/escrow', '/loan-limits', '/news', '/rates'];
    stopPrerendering = prerenderDataPages(testApp.deps);
    await vi.waitFor(() => expect(pages.filter((page) => !renders.includes(page))).toEqual([]), { timeout: 120_000, interval: 250 });
    const before = renders.length;
    for (const page of pages) expect((await fetch(`${server.url}${page}`)).status, page).toBe(200);
    expect(renders.length).toBe(before);
  }, 180_000); // every fixed page rendered and compressed once, one after the other: long on a busy machine

  it('renders nothing ahead once stopped (the server shutting down), though every page is out of date', async () => {
    stopPrerendering?.();
    const before = renders.length;
    today = new Date(TODAY.getTime() + 86_400_000);
    testApp.deps.services.datasets.invalidate();
    // Pages are rendered again 1 s after a load (RERENDER_DELAY_MS); that none is can only be seen by waiting past it.
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    expect(renders.slice(before)).toEqual([]);
  });
});

describe('the home page before the first sync', () => {
  let database: TestDatabase;
  let testApp: TestApp;
  let server: Awaited<ReturnType<typeof listen>>;

  beforeAll(async () => {
    database = await createTestDatabase('pglite');
    const { handler } = await countingHandler();
    testApp = await buildTestApp(database.db, { clock: () => TODAY, options: { ssrHandler: handler } });
    server = await listen(testApp.app);
  }, 600_000);

  afterAll(async () => {
    await server?.close();
    await testApp?.close();
    await database?.drop();
  });

  it('renders, saying each figure is not available yet', async () => {
    const response = await fetch(`${server.url}/`);
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain('Open mortgage data for developers and AI agents');
    for (const part of ['rates', 'calendar', 'limits']) {
      const note = new RegExp(`data-missing="${part}">([^<]+)<`).exec(html)?.[1];
      // The publisher's series in words, not our dataset ids ("the pmms dataset").
      expect(note, part).toMatch(/are not available yet\. [A-Z].+ is not loaded yet/);
      expect(note, part).not.toMatch(/ dataset /);
      expect(note).not.toMatch(/npm/);
    }
  });
});
