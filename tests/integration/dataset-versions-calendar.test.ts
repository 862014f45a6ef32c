// Pinned calendar answers through the real sync runner: the calendar loaded once from a copy of its
// fact files without Freddie Mac's 2027 survey dates, then with them. `as_of` the first day answers
// from that load's archived events (no 2027 survey dates, its version named), today with them.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../api/config.ts';
import { CALENDAR_FACTS_DIR, createCalendarDataset } from '../../api/calendar/sync.ts';
import type { Database } from '../../api/platform/db/database.ts';
import { createLogger } from '../../api/platform/logger.ts';
import { runSync } from '../../api/sync/runner.ts';
import { buildTestApp, listen, type TestApp } from '../support/app.ts';
import { createTestDatabase, type TestDatabase } from '../support/databases.ts';
import { hasSourceData, SOURCE_DIR } from '../support/source-data.ts';

const SCHEDULE = 'pmms-schedule.json';

async function syncAt(db: Database, factsDir: string, iso: string): Promise<string | undefined> {
  const report = await runSync(db, [createCalendarDataset({ factsDir })], {
    names: ['economic_calendar'],
    logger: createLogger('silent'),
    config: loadConfig({ LOG_LEVEL: 'silent', NODE_ENV: 'test', MDS_SOURCE_DIR: SOURCE_DIR }),
    clock: () => new Date(iso),
  });
  const [result] = report.results;
  if (result?.status !== 'ok') throw new Error(`economic_calendar: ${result?.message}`);
  return result.version;
}

interface CalendarBody {
  events: { name: string; date: string }[];
  total: number;
  dataset_versions: { dataset: string; version: string; as_of: string | null }[];
}

describe.skipIf(!hasSourceData)('pinned calendar', () => {
  let database: TestDatabase;
  let facts: string;
  let testApp: TestApp;
  let server: Awaited<ReturnType<typeof listen>>;
  let without2027: string | undefined;
  let with2027: string | undefined;

  const surveyDays = async (query: string) => {
    const response = await fetch(`${server.url}/api/v1/calendar?from=2027-01-01&to=2027-01-31&category=housing${query}`);
    expect(response.status).toBe(200);
    const body = (await response.json()) as CalendarBody;
    return {
      days: body.events.filter((event) => event.name.startsWith('Freddie Mac')).map((event) => event.date),
      versions: body.dataset_versions,
    };
  };

  beforeAll(async () => {
    facts = fs.mkdtempSync(path.join(os.tmpdir(), 'mds-calendar-facts-'));
    fs.cpSync(CALENDAR_FACTS_DIR, facts, { recursive: true });
    const schedule = JSON.parse(fs.readFileSync(path.join(CALENDAR_FACTS_DIR, SCHEDULE), 'utf8')) as { years: { year: number }[] };
    const trimmed = { ...schedule, years: schedule.years.filter((entry) => entry.year !== 2027) };
    fs.writeFileSync(path.join(facts, SCHEDULE), `${JSON.stringify(trimmed, null, 2)}\n`);
    database = await createTestDatabase('pglite');
    without2027 = await syncAt(database.db, facts, '2026-11-20T09:00:00Z');
    fs.copyFileSync(path.join(CALENDAR_FACTS_DIR, SCHEDULE), path.join(facts, SCHEDULE));
    with2027 = await syncAt(database.db, facts, '2026-11-23T09:00:00Z');
    testApp = await buildTestApp(database.db, { clock: () => new Date('2026-11-24T12:00:00Z') });
    server = await listen(testApp.app);
  }, 120_000);

  afterAll(async () => {
    await server?.close();
    await testApp?.close();
    await database?.drop();
    fs.rmSync(facts, { recursive: true, force: true });
  });

  it('answers each day with the events it served, naming the version', async () => {
    expect(without2027).toMatch(/^\d{4}-\d{2}-\d{2}\.[0-9a-f]{8}$/);
    expect(with2027).not.toBe(without2027);

    const pinned = await surveyDays('&as_of=2026-11-21');
    expect(pinned.days).toEqual([]);
    expect(pinned.versions).toEqual([expect.objectContaining({ dataset: 'economic_calendar', version: without2027 })]);

    // Freddie Mac's rule: each Thursday (no Thursday holiday in January 2027).
    const current = await surveyDays('');
    expect(current.days).toEqual(['2027-01-07', '2027-01-14', '2027-01-21', '2027-01-28']);
    expect(current.versions).toEqual([expect.objectContaining({ dataset: 'economic_calendar', version: with2027 })]);
    expect((await surveyDays('&as_of=2026-11-23')).days).toEqual(current.days);
  });

  it('pins the iCalendar feed too', async () => {
    const pinned = await (
      await fetch(`${server.url}/api/v1/calendar?from=2027-01-01&to=2027-01-31&category=housing&format=ics&as_of=2026-11-21`)
    ).text();
    const current = await (await fetch(`${server.url}/api/v1/calendar?from=2027-01-01&to=2027-01-31&category=housing&format=ics`)).text();
    expect(pinned).not.toContain('Freddie Mac');
    expect(current).toContain('Freddie Mac');
  });
});
