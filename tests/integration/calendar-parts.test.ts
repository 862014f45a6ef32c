// One publisher's broken file costs only that publisher's events: a copy of the mirror with BLS's
// feed truncated, and a copy of the fact files with Census's file broken, each synced on a real
// database. The other publishers' events are served, the broken part's earlier rows stay, and the
// dataset record and /healthz say which part is missing and why.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CALENDAR_FACTS_DIR, createCalendarDataset } from '../../api/calendar/sync.ts';
import { buildTestApp, listen } from '../support/app.ts';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../support/databases.ts';
import { rawRequest } from '../support/http.ts';
import { hasSourceData, SOURCE_DIR } from '../support/source-data.ts';
import { syncInto } from '../support/synced.ts';

const clock = () => new Date('2026-11-24T15:00:00Z');

interface Served {
  events: { name: string; date: string; category: string }[];
}

/** Serves the database through the real app and returns GET helpers; closes with the returned stop. */
async function serve(database: TestDatabase) {
  const app = await buildTestApp(database.db, { clock });
  const server = await listen(app.app);
  const get = async (url: string) => rawRequest(`${server.url}${url}`);
  return {
    calendar: async (query: string): Promise<Served> => JSON.parse((await get(`/api/v1/calendar?${query}`)).body) as Served,
    health: async () => JSON.parse((await get('/healthz')).body) as { datasets: Record<string, { missing?: string[] }> },
    stop: async () => {
      await server.close();
      await app.close();
    },
  };
}

async function detailsOf(
  database: TestDatabase,
): Promise<{ parts: Record<string, { status: string; reason?: string; events?: number }>; missing: string[] }> {
  const { rows } = await database.db.query<{ details: unknown }>("SELECT details FROM datasets WHERE name = 'economic_calendar'");
  const details = rows[0]?.details;
  return (typeof details === 'string' ? JSON.parse(details) : details) as never;
}

const countBy = (events: Served['events'], category: string) => events.filter((event) => event.category === category).length;

describe.skipIf(!hasSourceData).each(databaseKinds)('a broken calendar publisher file on %s', (kind) => {
  const temp = fs.mkdtempSync(path.join(os.tmpdir(), 'mds-calendar-parts-'));
  const brokenMirror = path.join(temp, 'mirror');
  const brokenFacts = path.join(temp, 'facts');
  let database: TestDatabase;

  beforeAll(() => {
    // The calendar reads only calendar/ from the mirror: copy that (and SOURCES.md), then cut BLS's feed mid-event.
    fs.mkdirSync(path.join(brokenMirror, 'calendar'), { recursive: true });
    fs.copyFileSync(path.join(SOURCE_DIR, 'SOURCES.md'), path.join(brokenMirror, 'SOURCES.md'));
    for (const file of fs.readdirSync(path.join(SOURCE_DIR, 'calendar'))) {
      fs.copyFileSync(path.join(SOURCE_DIR, 'calendar', file), path.join(brokenMirror, 'calendar', file));
    }
    const feed = fs.readFileSync(path.join(brokenMirror, 'calendar', 'bls.ics'), 'utf8');
    fs.writeFileSync(path.join(brokenMirror, 'calendar', 'bls.ics'), feed.slice(0, Math.floor(feed.length / 2)));
    // A copy of the fact files with Census's file no longer JSON.
    fs.cpSync(CALENDAR_FACTS_DIR, brokenFacts, { recursive: true });
    fs.writeFileSync(
      path.join(brokenFacts, 'housing', 'census.json'),
      fs.readFileSync(path.join(brokenFacts, 'housing', 'census.json'), 'utf8').slice(0, 500),
    );
  });

  afterAll(async () => {
    await database?.drop();
    fs.rmSync(temp, { recursive: true, force: true });
  });

  it('serves Fed, housing and PMMS events when the BLS feed is broken on the first sync, and says BLS is missing', async () => {
    database = await createTestDatabase(kind);
    const report = await syncInto(database.db, ['economic_calendar'], { sourceDir: brokenMirror });
    expect(report.results[0]).toMatchObject({ name: 'economic_calendar', status: 'ok' });
    const details = await detailsOf(database);
    expect(details.parts['bls-release-calendar']).toMatchObject({ status: 'failed' });
    expect(details.parts['bls-release-calendar']?.reason).toMatch(/^calendar\/bls\.ics: not a readable iCalendar file/);
    for (const id of [
      'fomc',
      'fed-fomc-decisions-2000-2026',
      'bls-cpi-release-dates',
      'census-release-schedule',
      'nar-release-schedule',
      'fhfa-release-schedule',
      'freddie-mac-pmms',
    ]) {
      expect(details.parts[id]?.status, id).toBe('loaded');
    }
    expect(details.missing).toEqual([
      'BLS release calendar (bls.ics) did not load: calendar/bls.ics: not a readable iCalendar file: invalid ical body. component began but did not end; its earlier events stay served.',
    ]);

    const app = await serve(database);
    try {
      const window = await app.calendar('');
      expect(countBy(window.events, 'fed')).toBeGreaterThan(0);
      expect(countBy(window.events, 'housing')).toBeGreaterThan(5);
      expect(countBy(window.events, 'employment')).toBe(0);
      const health = await app.health();
      expect(health.datasets.economic_calendar?.missing).toEqual(details.missing);
      expect(JSON.stringify(health)).not.toContain(temp);
    } finally {
      await app.stop();
    }
  });

  it('loads BLS once the feed is whole, then keeps those events served when the feed breaks again', async () => {
    const good = await syncInto(database.db, ['economic_calendar']);
    expect(good.results[0]?.status).toBe('ok');
    expect((await detailsOf(database)).missing).toEqual([]);
    const app = await serve(database);
    try {
      const before = await app.calendar('from=2026-01-01&to=2026-12-31&category=employment,inflation&limit=500');
      expect(before.events.filter((event) => event.name === 'Employment Situation')).toHaveLength(12);

      const broken = await syncInto(database.db, ['economic_calendar'], { sourceDir: brokenMirror });
      expect(broken.results[0]?.status).toBe('ok');
      expect((await detailsOf(database)).parts['bls-release-calendar']?.status).toBe('failed');
      // A new app: the dataset status is cached for a few seconds per process.
      const later = await serve(database);
      try {
        const after = await later.calendar('from=2026-01-01&to=2026-12-31&category=employment,inflation&limit=500');
        expect(after.events).toEqual(before.events);
        expect((await later.health()).datasets.economic_calendar?.missing?.[0]).toMatch(/^BLS release calendar \(bls\.ics\) did not load/);
      } finally {
        await later.stop();
      }
    } finally {
      await app.stop();
    }
  });

  it("keeps NAR, FHFA, BLS and the Fed when Census's fact file is broken, and names Census as missing", async () => {
    const fresh = await createTestDatabase(kind);
    try {
      const report = await syncInto(fresh.db, ['economic_calendar'], { definitions: [createCalendarDataset({ factsDir: brokenFacts })] });
      expect(report.results[0]?.status).toBe('ok');
      const details = await detailsOf(fresh);
      expect(details.parts['census-release-schedule']).toMatchObject({ status: 'failed' });
      expect(details.missing).toHaveLength(1);
      expect(details.missing[0]).toMatch(
        /^U\.S\. Census Bureau release schedule \(data\/calendar\/housing\/census\.json\) did not load: .+; its earlier events stay served\.$/,
      );
      const app = await serve(fresh);
      try {
        const window = await app.calendar('');
        const names = window.events.map((event) => event.name);
        expect(names.some((name) => name.startsWith('New Residential'))).toBe(false);
        expect(names).toContain('Employment Situation');
        expect(names).toContain('FOMC rate decision');
        expect(names.some((name) => name.startsWith('Existing-Home Sales'))).toBe(true);
        expect(names.some((name) => name.startsWith('FHFA House Price Index'))).toBe(true);
      } finally {
        await app.stop();
      }
    } finally {
      await fresh.drop();
    }
  });

  it('fails the whole dataset, keeping the previous load, only when no part loads', async () => {
    const emptyFacts = path.join(temp, 'no-facts');
    const emptyMirror = path.join(temp, 'no-mirror');
    fs.mkdirSync(emptyFacts, { recursive: true });
    fs.mkdirSync(path.join(emptyMirror, 'calendar'), { recursive: true });
    const before = await detailsOf(database);
    const report = await syncInto(database.db, ['economic_calendar'], {
      sourceDir: emptyMirror,
      definitions: [createCalendarDataset({ factsDir: emptyFacts })],
    });
    expect(report.results[0]?.status).toBe('failed');
    expect(report.results[0]?.message).toMatch(
      /^economic calendar: no part loaded \(FOMC meetings .*: data\/calendar\/fomc-meetings\.json: file not found; /,
    );
    expect(await detailsOf(database)).toEqual(before);
  });
});
