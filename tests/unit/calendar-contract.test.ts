// The economic calendar without a database: the recorded answer (tests/fixtures/contracts,
// captured from the real service over the synced mirror) fits the contract with nothing left
// over; the MCP handler — captured from registerTool and called as the SDK calls it — passes
// natural argument variants to the service in the canonical form and refuses unknown ones; and
// the service answers from its in-memory snapshot, reading the events again only when the
// dataset record changes.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../api/config.ts';
import type { DatasetRecord, DatasetStatus } from '../../api/platform/datasets.ts';
import { missingDatasetError } from '../../api/platform/dataset-states.ts';
import type { Queryable, QueryResult } from '../../api/platform/db/database.ts';
import { CalendarAnswerSchema, CalendarQuerySchema, type CalendarAnswer } from '../../api/calendar/contract.ts';
import { createCalendarService, type CalendarRequest } from '../../api/calendar/service.ts';
import { getEconomicCalendarTool } from '../../api/mcp/tools/get-economic-calendar.ts';
import { callLikeTheSdk, expectExactly, resultText as text, answering, serviceStub, toolContext } from '../support/contract-tool.ts';
import { createDatasetVersions } from '../../api/platform/dataset-versions.ts';

const recorded = JSON.parse(
  fs.readFileSync(path.join(PROJECT_ROOT, 'tests', 'fixtures', 'contracts', 'calendar-answer.json'), 'utf8'),
) as unknown;

/** get_economic_calendar's context: a calendar service answering the recording, noting what it was asked. */
function recordingContext(answer: CalendarAnswer) {
  const { method, asked } = answering<CalendarRequest, CalendarAnswer>(answer);
  const calendar = serviceStub('calendar', { answer: method });
  return { context: toolContext(getEconomicCalendarTool, { calendar }), asked };
}

describe('get_economic_calendar from the calendar contract', () => {
  const answer = expectExactly(CalendarAnswerSchema, recorded);

  it('passes the recorded answer through as structuredContent and writes it as text with its sources', async () => {
    const { context } = recordingContext(answer);
    const result = await callLikeTheSdk(getEconomicCalendarTool, context, {
      from: '2026-12-01',
      to: '2026-12-31',
      impact: ['high', 'medium'],
      limit: 6,
    });
    expect(expectExactly(CalendarAnswerSchema, result.structuredContent)).toEqual(answer);
    expect(text(result)).toContain('2026-12-09  FOMC rate decision (high, fed)');
    expect(text(result)).toContain('(1 more in the range; raise limit to see them.)');
    expect(text(result)).toContain(
      'Source: Federal Reserve, https://www.federalreserve.gov/newsevents/pressreleases/monetary20240809a.htm (as of 2026-11-24)',
    );
  });

  it.each([
    [{ category: 'fed' }, { category: ['fed'], limit: 100 }],
    [{ category: 'Fed' }, { category: ['fed'], limit: 100 }],
    [{ category: 'FED' }, { category: ['fed'], limit: 100 }],
    [{ category: ['FOMC'] }, { category: ['fed'], limit: 100 }],
    [{ category: 'Inflation, jobs' }, { category: ['inflation', 'employment'], limit: 100 }],
    [{ impact: 'high' }, { impact: ['high'], limit: 100 }],
    [{ impact: ['High', 'MEDIUM'] }, { impact: ['high', 'medium'], limit: 100 }],
    [
      { from: ' 2026-12-01 ', to: '2026-12-31', limit: '5' },
      { from: '2026-12-01', to: '2026-12-31', limit: 5 },
    ],
  ])('asks the service %j as %j', async (args, canonical) => {
    const { context, asked } = recordingContext(answer);
    const result = await callLikeTheSdk(getEconomicCalendarTool, context, args);
    expect(result.isError, text(result)).toBeFalsy();
    expect(asked).toEqual([canonical]);
  });

  it('refuses unknown arguments naming the known ones, and says what a bad value should be', async () => {
    const { context, asked } = recordingContext(answer);
    expect(text(await getEconomicCalendarTool.call({ category: 'fed', country: 'US' }, context))).toBe(
      "Unknown argument 'country'. Known arguments: from, to, impact, category, limit, as_of.",
    );
    expect(text(await getEconomicCalendarTool.call({ from: '2026-02-30' }, context))).toBe(
      `Invalid value for 'from': "2026-02-30". Give a real calendar day written YYYY-MM-DD, e.g. "2026-03-18".`,
    );
    expect(text(await getEconomicCalendarTool.call({ impact: 'urgent' }, context))).toBe(
      `Invalid value for 'impact': "urgent". Give one or more values (high, medium, low): one value, an array, or a comma-separated list (at most 3).`,
    );
    expect(text(await getEconomicCalendarTool.call({ limit: 501 }, context))).toBe(
      "Invalid value for 'limit': 501. Give a whole number from 1 to 500.",
    );
    expect(asked).toEqual([]);
  });

  it('takes the query schema as the input schema', () => {
    expect(Object.keys(getEconomicCalendarTool.strictInput.shape)).toEqual(Object.keys(CalendarQuerySchema.shape));
  });
});

interface Row {
  series: string;
  date: string;
  name: string;
  impact: string;
  category: string;
  description: string;
  source_url: string;
}

const row = (series: string, date: string, name: string, impact: string, category: string): Row => ({
  series,
  date,
  name,
  impact,
  category,
  description: `${name} description`,
  source_url: `https://example.gov/${series}`,
});

/** A database holding `rows` in calendar_events, counting the reads of it. */
function fakeDatabase(rows: () => Row[]) {
  const reads: string[] = [];
  const db: Queryable = {
    async query<R>(sql: string): Promise<QueryResult<R>> {
      if (!sql.includes('calendar_events')) throw new Error(`unexpected query: ${sql}`);
      reads.push(sql);
      const current = rows();
      return { rows: current as R[], rowCount: current.length };
    },
  };
  return { db, reads };
}

function fakeDatasets(record: () => DatasetRecord | undefined): DatasetStatus {
  return {
    list: async () => {
      const current = record();
      return current ? [current] : [];
    },
    require: async (name) => {
      const current = record();
      if (!current) throw missingDatasetError(name, { state: 'never_loaded' });
      return current;
    },
    availability: async () => (record() ? { state: 'loaded' } : { state: 'never_loaded' }),
    overview: async () => [],
    invalidate: () => {},
    onInvalidate: () => () => {},
  };
}

const loaded = (loadedAt: string): DatasetRecord => ({
  name: 'economic_calendar',
  asOf: '2026-11-24',
  sourceUrl: 'https://www.federalreserve.gov/monetarypolicy/fomccalendars.htm',
  checksum: `sha256:${loadedAt}`,
  rows: 4,
  loadedAt,
});

describe('the calendar service answers from its snapshot', () => {
  // Out of order on purpose: the snapshot sorts by date, then name in byte order ("Z" before "a").
  let table = [
    row('cpi', '2026-12-10', 'Consumer Price Index', 'high', 'inflation'),
    row('fomc', '2026-12-09', 'FOMC rate decision', 'high', 'fed'),
    row('existing_home_sales', '2026-12-09', 'Existing-Home Sales (November 2026)', 'medium', 'housing'),
    row('pmms', '2026-12-03', 'Freddie Mac mortgage rate survey (PMMS)', 'low', 'housing'),
    row('fomc', '2027-01-27', 'FOMC rate decision', 'high', 'fed'),
  ];
  let record: DatasetRecord | undefined = loaded('2026-11-24T06:00:00.000Z');
  const { db, reads } = fakeDatabase(() => table);
  const datasets = fakeDatasets(() => record);
  const clock = () => new Date('2026-11-24T15:00:00Z');
  const service = createCalendarService({ db, datasets, versions: createDatasetVersions({ db, datasets, clock }), clock });

  it('filters the range, impact and category, sorts, limits and counts what the limit cut', async () => {
    const december = await service.answer({ from: '2026-12-01', to: '2026-12-31', limit: 100 });
    expect(december.events.map((event) => `${event.date} ${event.name}`)).toEqual([
      '2026-12-03 Freddie Mac mortgage rate survey (PMMS)',
      '2026-12-09 Existing-Home Sales (November 2026)',
      '2026-12-09 FOMC rate decision',
      '2026-12-10 Consumer Price Index',
    ]);
    const high = await service.answer({ from: '2026-12-01', to: '2027-12-31', impact: ['high'], limit: 2 });
    expect(high.events.map((event) => event.date)).toEqual(['2026-12-09', '2026-12-10']);
    expect(high).toMatchObject({ total: 3, limit: 2 });
    const fed = await service.answer({ category: ['fed'], limit: 100 });
    expect(fed).toMatchObject({ from: '2026-11-24', to: '2027-01-23', total: 1 });
    expect(fed.sources).toEqual([{ url: 'https://example.gov/fomc', as_of: '2026-11-24', name: 'Federal Reserve' }]);
    expect(reads).toHaveLength(1);
  });

  it('serves repeated and new requests without reading the events again', async () => {
    const before = reads.length;
    for (let day = 1; day <= 28; day += 1) {
      await service.answerJson({ from: `2026-12-${String(day).padStart(2, '0')}`, limit: 10 });
      await service.answer({ from: '2026-12-01', to: '2026-12-31', category: ['housing'], limit: 100 });
    }
    await service.ics({ from: '2026-12-01', to: '2026-12-31', limit: 100 }, 'localhost');
    expect(reads.length).toBe(before);
    expect(JSON.parse(await service.answerJson({ from: '2026-12-01', to: '2026-12-31', limit: 100 }))).toEqual(
      await service.answer({ from: '2026-12-01', to: '2026-12-31', limit: 100 }),
    );
  });

  it('reads the events again when the dataset record names a new load', async () => {
    table = [...table, row('jolts', '2026-12-08', 'Job Openings and Labor Turnover Survey', 'medium', 'employment')];
    const stale = await service.answer({ from: '2026-12-01', to: '2026-12-31', limit: 100 });
    expect(stale.events.map((event) => event.name)).not.toContain('Job Openings and Labor Turnover Survey');
    record = loaded('2026-11-25T06:00:00.000Z');
    const fresh = await service.answer({ from: '2026-12-01', to: '2026-12-31', limit: 100 });
    expect(fresh.events.map((event) => event.date)).toEqual(['2026-12-03', '2026-12-08', '2026-12-09', '2026-12-09', '2026-12-10']);
  });

  it("refuses 'from' after 'to', and answers 503 while the calendar was never loaded", async () => {
    await expect(service.answer({ from: '2026-12-31', to: '2026-12-01', limit: 100 })).rejects.toThrow(
      "'from' must not be after 'to' (2026-12-31 is after 2026-12-01); give a 'from' on or before 'to'.",
    );
    const none = fakeDatasets(() => undefined);
    const empty = createCalendarService({ db, datasets: none, versions: createDatasetVersions({ db, datasets: none, clock }), clock });
    await expect(empty.answer({ limit: 100 })).rejects.toMatchObject({ status: 503 });
  });

  it('writes the snapshot as iCalendar with one event per answer event', async () => {
    const ics = await service.ics({ from: '2026-12-01', to: '2026-12-31', category: ['fed'], limit: 100 }, 'example.org');
    expect(ics).toContain('UID:fomc-20261209@example.org');
    expect(ics.match(/BEGIN:VEVENT/g)).toHaveLength(1);
  });
});
