// GET /calendar and GET /escrow end to end on both databases: the calendar synced from the mirror,
// filters, iCalendar output, 400s that say what is valid, identical bodies on the API host, and
// random query strings that must never produce a 5xx.
import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import ICAL from 'ical.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CalendarAnswerSchema } from '../../api/calendar/contract.ts';
import { EscrowAnswerSchema } from '../../api/escrow/contract.ts';
import { STATE_CODES } from '../../api/geo/states.ts';
import { buildTestApp, listen, type TestApp } from '../support/app.ts';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../support/databases.ts';
import { rawRequest } from '../support/http.ts';
import { hasSourceData, SOURCE_DIR } from '../support/source-data.ts';
import { syncedTestDatabase, syncInto } from '../support/synced.ts';

// The service's clock on the day these expectations were written (2026-11-24, a Tuesday).
const clock = () => new Date('2026-11-24T15:00:00Z');

describe.skipIf(!hasSourceData).each(databaseKinds)('calendar and escrow API on %s', (kind) => {
  let database: TestDatabase;
  let app: TestApp;
  let server: Awaited<ReturnType<typeof listen>>;
  const get = (path: string, headers: Record<string, string> = {}) => rawRequest(`${server.url}${path}`, { headers });

  beforeAll(async () => {
    database = await syncedTestDatabase(kind, ['economic_calendar']);
    app = await buildTestApp(database.db, {
      clock,
      env: { RATE_LIMIT_ANON_PER_MINUTE: '0', RATE_LIMIT_PER_HOUR: '0', MDS_SOURCE_DIR: SOURCE_DIR },
    });
    server = await listen(app.app);
  }, 120_000);

  afterAll(async () => {
    await server?.close();
    await app?.close();
    await database?.drop();
  });

  it('a second sync of the calendar changes nothing', async () => {
    const report = await syncInto(database.db, ['economic_calendar']);
    const result = report.results.find((entry) => entry.name === 'economic_calendar');
    expect(result?.status).toBe('ok');
    expect(result?.changed).toBe(0);
  });

  it('defaults to today .. today + 60 days by the service clock, sorted by date then name', async () => {
    const response = await get('/api/v1/calendar');
    expect(response.status).toBe(200);
    const body = CalendarAnswerSchema.strict().parse(JSON.parse(response.body));
    expect(body.events.length).toBeGreaterThan(0);
    for (const event of body.events) {
      expect(event.date >= '2026-11-24' && event.date <= '2027-01-23').toBe(true);
      expect(Object.keys(event).sort()).toEqual(['category', 'date', 'description', 'impact', 'name', 'source_url']);
    }
    expect(body.events.map((event) => event.date)).toContain('2026-12-09');
    const keys = body.events.map((event) => `${event.date} ${event.name}`);
    expect(keys).toEqual([...keys].sort());
  });

  it("shows today's window across fed, inflation, employment and housing, with BLS's December jobs and CPI dates", async () => {
    const body = CalendarAnswerSchema.parse(JSON.parse((await get('/api/v1/calendar')).body));
    expect(new Set(body.events.map((event) => event.category))).toEqual(new Set(['fed', 'inflation', 'employment', 'housing']));
    expect(body.events).toContainEqual(
      expect.objectContaining({ date: '2026-12-04', name: 'Employment Situation', category: 'employment', impact: 'high' }),
    );
    expect(body.events).toContainEqual(
      expect.objectContaining({ date: '2026-12-10', name: 'Consumer Price Index', category: 'inflation', impact: 'high' }),
    );
    expect(body.events).toContainEqual(expect.objectContaining({ date: '2026-12-09', name: 'FOMC rate decision', category: 'fed' }));
    // Housing from three publishers: Census (Nov 25 new home sales), FHFA (Nov 24 HPI), Freddie Mac (Nov 25, moved for Thanksgiving).
    const housing = body.events.filter((event) => event.category === 'housing').map((event) => `${event.date} ${event.name}`);
    expect(housing).toEqual(
      expect.arrayContaining([
        '2026-11-24 FHFA House Price Index (September 2026)',
        '2026-11-25 New Residential Sales (new home sales) (October 2026)',
        '2026-11-25 Freddie Mac mortgage rate survey (PMMS)',
        '2026-12-09 Existing-Home Sales (November 2026)',
        '2026-12-17 New Residential Construction (housing starts and permits) (November 2026)',
      ]),
    );
    const ics = await get('/api/v1/calendar?format=ics');
    expect(ics.status).toBe(200);
    const vevents = new ICAL.Component(ICAL.parse(ics.body)).getAllSubcomponents('vevent').map((vevent) => new ICAL.Event(vevent));
    const summaries = vevents.map((event) => `${event.startDate.toString()} ${event.summary}`);
    expect(summaries).toContain('2026-12-04 Employment Situation');
    expect(summaries).toContain('2026-12-10 Consumer Price Index');
    expect(vevents.length).toBe(body.events.length);
  });

  it("serves every 2026 Employment Situation and CPI day of BLS's feed (read here with a line scan)", async () => {
    const feed = fs.readFileSync(path.join(SOURCE_DIR, 'calendar', 'bls.ics'), 'utf8').split(/\r?\n/);
    const daysOf = (name: string) =>
      feed
        .flatMap((line, index) => {
          if (line !== `SUMMARY:${name}`) return [];
          const start =
            feed
              .slice(Math.max(0, index - 6), index)
              .reverse()
              .find((previous) => previous.startsWith('DTSTART')) ?? '';
          const digits = start.slice(start.indexOf(':') + 1);
          return [`${digits.slice(0, 4)}-${digits.slice(4, 6)}-${digits.slice(6, 8)}`];
        })
        .filter((day) => day.startsWith('2026'));
    const served = async (category: string) =>
      (
        JSON.parse((await get(`/api/v1/calendar?from=2026-01-01&to=2026-12-31&category=${category}&limit=500`)).body) as {
          events: { date: string; name: string }[];
        }
      ).events;
    const employment = await served('employment');
    const inflation = await served('inflation');
    expect(daysOf('Employment Situation')).toHaveLength(12);
    expect(employment.filter((event) => event.name === 'Employment Situation').map((event) => event.date)).toEqual(
      daysOf('Employment Situation'),
    );
    expect(inflation.filter((event) => event.name.startsWith('Consumer Price Index')).map((event) => event.date)).toEqual(
      daysOf('Consumer Price Index'),
    );
  });

  it('keeps the feed ahead of the CPI history where the 2025 shutdown moved releases', async () => {
    const body = JSON.parse((await get('/api/v1/calendar?from=2025-10-01&to=2025-12-31&category=inflation&impact=high')).body) as {
      events: { date: string; name: string }[];
    };
    expect(body.events.map((event) => `${event.date} ${event.name}`)).toEqual([
      '2025-10-24 Consumer Price Index (September 2025)',
      '2025-12-18 Consumer Price Index',
    ]);
  });

  it('reports every part loaded in /healthz and never tells readers to run a command', async () => {
    const health = JSON.parse((await get('/healthz')).body);
    expect(health.datasets.economic_calendar.missing).toBeUndefined();
    for (const url of [
      '/api/v1/calendar',
      '/api/v1/calendar?format=ics',
      '/api/v1/calendar?from=2020-01-01&to=2027-12-31&limit=500',
      '/api/v1/calendar?from=nope',
    ]) {
      expect((await get(url)).body, url).not.toMatch(/npm run/);
    }
  });

  it('serves FOMC decisions from the Fed schedule, including April 29, 2026 and not May 6', async () => {
    const body = JSON.parse((await get('/api/v1/calendar?from=2026-01-01&to=2026-12-31&category=fed')).body);
    expect(body.events.map((event: { date: string }) => event.date)).toEqual([
      '2026-01-28',
      '2026-03-18',
      '2026-04-29',
      '2026-06-17',
      '2026-07-29',
      '2026-09-16',
      '2026-10-28',
      '2026-12-09',
    ]);
  });

  it('filters by impact and category lists and honours limit', async () => {
    const body = JSON.parse(
      (await get('/api/v1/calendar?from=2024-01-01&to=2024-12-31&impact=high,medium&category=inflation,housing&limit=500')).body,
    );
    expect(body.events.length).toBeGreaterThan(20);
    for (const event of body.events) {
      expect(['high', 'medium']).toContain(event.impact);
      expect(['inflation', 'housing']).toContain(event.category);
    }
    expect(body.events.find((event: { date: string }) => event.date === '2024-02-13')?.name).toBe('Consumer Price Index (January 2024)');
    const limited = JSON.parse((await get('/api/v1/calendar?from=2021-01-01&to=2027-12-31&limit=3')).body);
    expect(limited.events).toHaveLength(3);
  });

  it('returns valid iCalendar with format=ics', async () => {
    const response = await get('/api/v1/calendar?from=2026-01-01&to=2027-12-31&category=fed&format=ics');
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/calendar/);
    expect(response.body.includes('\r\n')).toBe(true);
    expect(response.body.replace(/\r\n/g, '').includes('\n')).toBe(false);
    for (const line of response.body.split('\r\n')) expect(Buffer.byteLength(line, 'utf8')).toBeLessThanOrEqual(75);
    const vevents = new ICAL.Component(ICAL.parse(response.body)).getAllSubcomponents('vevent');
    expect(vevents).toHaveLength(16);
    for (const vevent of vevents) {
      expect(vevent.getFirstPropertyValue('uid')).toBeTruthy();
      expect(vevent.getFirstPropertyValue('dtstamp')).toBeTruthy();
      const start = vevent.getFirstPropertyValue('dtstart') as ICAL.Time;
      expect(start.isDate).toBe(true);
    }
    expect(response.body).toContain('DTSTART;VALUE=DATE:20260429');
  });

  it('answers 400 with what is valid for bad dates, ranges, filters and limits', async () => {
    const cases: [string, RegExp][] = [
      ['from=2026-13-01', /'from'.*YYYY-MM-DD/],
      ['from=2026-02-30', /'from'/],
      ['from=2026-12-01&to=2026-11-01', /'from' must not be after 'to'/],
      ['impact=urgent', /'impact': "urgent"\. Give one or more values \(high, medium, low\)/],
      ['category=foo', /'category': "foo"\. Give one or more values \(fed, inflation, employment, housing\)/],
      ['limit=0', /1 to 500/],
      ['limit=501', /1 to 500/],
      ['format=pdf', /json, ics/],
    ];
    for (const [query, message] of cases) {
      const response = await get(`/api/v1/calendar?${query}`);
      expect(response.status, query).toBe(400);
      const body = JSON.parse(response.body);
      expect(body.status).toBe(400);
      expect(body.error, query).toMatch(message);
    }
  });

  it('computes escrow per the contract with its fields and the projection', async () => {
    const response = await get('/api/v1/escrow?state=tx&closing_month=3');
    expect(response.status).toBe(200);
    const body = EscrowAnswerSchema.strict().parse(JSON.parse(response.body));
    // Texas pays once a year in January: the contract's worked example → 5.
    expect(body).toMatchObject({
      state: 'Texas',
      stateCode: 'TX',
      closingMonth: 3,
      closingMonthName: 'March',
      escrowMonths: 5,
      isCountySpecific: false,
      cushionMonths: 2,
      firstPaymentMonth: 'May',
    });
    expect(body.taxSchedule.disbursementMonths).toEqual(['January']);
    expect(body.allMonths.March).toBe(5);
    expect(body.projection).toHaveLength(12);
    expect(body.sources.some((source) => source.url?.includes('1024'))).toBe(true);
  });

  it('takes full names, month names, the clock month by default, and county overrides by name or FIPS', async () => {
    const byName = JSON.parse((await get('/api/v1/escrow?state=New%20York&closing_month=june&county=Brooklyn')).body);
    expect(byName).toMatchObject({ stateCode: 'NY', closingMonth: 6, isCountySpecific: true });
    expect(byName.taxSchedule.frequency).toBe('quarterly');
    const byFips = JSON.parse((await get('/api/v1/escrow?state=IL&county=17031')).body);
    expect(byFips).toMatchObject({ isCountySpecific: true, closingMonth: 11, closingMonthName: 'November' });
    expect(byFips.taxSchedule.disbursementMonths).toEqual(['March', 'December']);
    const plain = JSON.parse((await get('/api/v1/escrow?state=IL&county=DuPage')).body);
    expect(plain.isCountySpecific).toBe(false);
    expect(plain.taxSchedule.notes).toMatch(/DuPage County \(17043\)/);
  });

  it('answers 400 for an invalid state (listing all 51 codes), month or county', async () => {
    const state = JSON.parse((await get('/api/v1/escrow?state=ZZ')).body);
    expect(state.status).toBe(400);
    for (const code of STATE_CODES) expect(state.error).toContain(code);
    expect((await get('/api/v1/escrow')).status).toBe(400);
    const month = JSON.parse((await get('/api/v1/escrow?state=CA&closing_month=13')).body);
    expect(month).toMatchObject({ status: 400 });
    expect(month.error).toMatch(/closing_month.*1-12/);
    expect((await get('/api/v1/escrow?state=CA&county=Atlantis')).status).toBe(400);
    expect((await get('/api/v1/escrow?state=CA&county=17031')).status).toBe(400);
    expect((await get('/api/v1/escrow?state=CA&state=TX')).status).toBe(400);
  });

  it('serves identical bodies on the API host', async () => {
    for (const path of [
      '/calendar?from=2026-01-01&to=2026-12-31',
      '/calendar?format=ics&from=2026-01-01&to=2026-06-30',
      '/escrow?state=CA&closing_month=4&county=Los%20Angeles',
      '/escrow?state=ZZ',
    ]) {
      const main = await get(`/api/v1${path}`);
      const apiHost = await get(path, { Host: 'api.localhost' });
      expect(apiHost.status, path).toBe(main.status);
      expect(apiHost.body, path).toBe(main.body);
    }
  });

  it('never answers 5xx to random query strings', async () => {
    const keys = fc.constantFrom('from', 'to', 'impact', 'category', 'limit', 'format', 'state', 'closing_month', 'county', 'x');
    const values = fc.oneof(
      fc.string(),
      fc.constantFrom(
        '2026-13-01',
        '2026-02-29',
        '0',
        '-1',
        '500',
        '13',
        'CA',
        'ny',
        'high,low',
        ',',
        '%',
        '%E0%A4%A',
        'null',
        '17031',
        'dec',
      ),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('/api/v1/calendar', '/api/v1/escrow'),
        fc.array(fc.tuple(keys, values), { maxLength: 5 }),
        async (path, pairs) => {
          const query = pairs.map(([key, value]) => `${key}=${encodeURIComponent(value)}`).join('&');
          const response = await get(`${path}?${query}`);
          expect(response.status, `${path}?${query}`).toBeLessThan(500);
          expect(() => JSON.parse(response.body.startsWith('BEGIN:VCALENDAR') ? '{}' : response.body)).not.toThrow();
        },
      ),
      { numRuns: 60 },
    );
  });
});

describe.each(databaseKinds)('calendar before the first sync on %s', (kind) => {
  it('answers 503 with Retry-After until the calendar dataset is loaded', async () => {
    const database = await createTestDatabase(kind);
    const app = await buildTestApp(database.db, { clock });
    const server = await listen(app.app);
    try {
      const response = await rawRequest(`${server.url}/api/v1/calendar`);
      expect(response.status).toBe(503);
      expect(response.headers['retry-after']).toBeDefined();
      expect(JSON.parse(response.body).error).toMatch(/economic_calendar/);
    } finally {
      await server.close();
      await app.close();
      await database.drop();
    }
  });
});
