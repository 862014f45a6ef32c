// The housing release fact files (one per publisher) and Freddie Mac's PMMS rule: every date cites
// its page and the words it was read from; the PMMS rule reproduces the survey's own release days
// as FRED dates them in the mirror (read here with a plain CSV scan).
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  HOUSING_PUBLISHERS,
  housingEvents,
  housingFactPath,
  readHousingFacts,
  type HousingFactFile,
} from '../../api/calendar/housing-facts.ts';
import { pmmsEvents, pmmsReleaseDays, PmmsScheduleSchema } from '../../api/calendar/pmms.ts';
import { PROJECT_ROOT } from '../../api/config.ts';
import { hasSourceData, sourceFile } from '../support/source-data.ts';

const CALENDAR_FACTS_DIR = path.join(PROJECT_ROOT, 'data', 'calendar');

const load = (id: string): HousingFactFile => {
  const publisher = HOUSING_PUBLISHERS.find((entry) => entry.id === id);
  if (!publisher) throw new Error(id);
  return readHousingFacts(fs.readFileSync(housingFactPath(CALENDAR_FACTS_DIR, publisher), 'utf8'), `${id}.json`, publisher);
};
const WEEKDAY = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const weekday = (day: string) => WEEKDAY[new Date(`${day}T12:00:00Z`).getUTCDay()];

describe('housing release fact files', () => {
  it('load for every publisher, each release citing a page and the words it was read from', () => {
    for (const publisher of HOUSING_PUBLISHERS) {
      const facts = load(publisher.id);
      for (const release of facts.releases) {
        expect(release.sourceUrl, release.date).toMatch(/^https:\/\//);
        expect(release.quote.length, release.date).toBeGreaterThan(8);
      }
    }
  });

  it('cover 2026 for Census, NAR and FHFA and explain every year they leave out', () => {
    const census = load('census');
    const nar = load('nar');
    const fhfa = load('fhfa');
    const sp = load('sp-case-shiller');
    expect(census.years.map((year) => year.year)).toEqual([2022, 2023, 2026]);
    expect(census.yearsNotFound.map((year) => year.year)).toEqual([2024, 2025]);
    expect(nar.years.map((year) => year.year)).toEqual([2023, 2024, 2026]);
    expect(nar.yearsNotFound.map((year) => year.year)).toEqual([2025]);
    expect(fhfa.years.map((year) => year.year)).toEqual([2026, 2027]);
    expect(sp.releases).toHaveLength(0);
    expect(sp.yearsNotFound.map((year) => year.year)).toEqual([2025, 2026, 2027]);
  });

  it('holds the schedule rows as the publishers wrote them', () => {
    const census = housingEvents(load('census'));
    // census.gov/construction/soc/schedule.html: "October 2026 | November 18, 2026 | November 25, 2026".
    expect(census.find((event) => event.series === 'housing_starts' && event.date === '2026-11-18')).toMatchObject({
      name: 'New Residential Construction (housing starts and permits) (October 2026)',
      impact: 'medium',
      category: 'housing',
    });
    expect(census.find((event) => event.series === 'new_home_sales' && event.date === '2026-11-25')?.name).toContain('(October 2026)');
    const nar = housingEvents(load('nar'));
    expect(nar.find((event) => event.date === '2026-12-09')).toMatchObject({ series: 'existing_home_sales', impact: 'medium' });
    expect(nar.filter((event) => event.series === 'pending_home_sales').every((event) => event.impact === 'low')).toBe(true);
    const fhfa = housingEvents(load('fhfa'));
    expect(fhfa.find((event) => event.date === '2026-11-24')?.description).toContain(
      'quarterly index (with monthly tables), through 2026Q3',
    );
    expect(fhfa.every((event) => weekday(event.date) === 'Tue')).toBe(true);
  });

  it('agrees with the weekday its quote names', () => {
    let named = 0;
    for (const publisher of HOUSING_PUBLISHERS) {
      for (const release of load(publisher.id).releases) {
        const abbreviation = /\b(mon|tue|wed|thu|fri)[a-z]*\.?,/i.exec(release.quote)?.[1];
        if (!abbreviation) continue;
        named += 1;
        expect(weekday(release.date), `${release.date} ${release.quote}`).toBe(
          `${abbreviation.charAt(0).toUpperCase()}${abbreviation.slice(1, 3).toLowerCase()}`,
        );
      }
    }
    expect(named).toBeGreaterThan(30);
  });

  it('refuses a release outside the covered years, on a wrong weekday, before its month or listed twice', () => {
    const base = load('nar');
    const release = base.releases.find((entry) => entry.date === '2026-12-09');
    if (!release) throw new Error('fixture row');
    const variant = (changes: Partial<typeof release>) => JSON.stringify({ ...base, releases: [{ ...release, ...changes }] });
    expect(() => readHousingFacts(variant({ date: '2025-12-10' }), 'nar.json')).toThrow(
      /nar\.json: existing_home_sales 2025-12-10: 2025 is not among the years the file covers/,
    );
    expect(() => readHousingFacts(variant({ date: '2026-12-10' }), 'nar.json')).toThrow(/the quote names a Wed but the date is a Thu/);
    expect(() => readHousingFacts(variant({ date: '2026-12-12', quote: 'December 12 November Existing-Home Sales' }), 'nar.json')).toThrow(
      /falls on a Sat/,
    );
    expect(() => readHousingFacts(variant({ period: 'December 2026' }), 'nar.json')).toThrow(/not after its reference month December 2026/);
    expect(() => readHousingFacts(JSON.stringify({ ...base, releases: [release, release] }), 'nar.json')).toThrow(/listed twice/);
    expect(() => readHousingFacts(variant({ series: 'fhfa_hpi' }), 'nar.json')).toThrow(
      /fhfa_hpi is not a series of National Association of Realtors/,
    );
    expect(() => readHousingFacts(JSON.stringify({ ...base, releases: [{ ...release, sourceUrl: 'not a url' }] }), 'nar.json')).toThrow();
    const census = HOUSING_PUBLISHERS.find((publisher) => publisher.id === 'census');
    expect(() => readHousingFacts(JSON.stringify(base), 'census.json', census)).toThrow(
      "census.json: expected U.S. Census Bureau's housing_starts, new_home_sales schedule, found National Association of Realtors's existing_home_sales, pending_home_sales",
    );
  });

  it('keeps no date without a file: every fact file in the folder is a known publisher', () => {
    const files = fs.readdirSync(path.join(CALENDAR_FACTS_DIR, 'housing')).sort();
    expect(files).toEqual(HOUSING_PUBLISHERS.map((publisher) => publisher.file).sort());
  });
});

describe("Freddie Mac's PMMS release rule", () => {
  it('moves the release to Wednesday for a Thursday holiday, including New Year 2026 into 2025', () => {
    const days2026 = pmmsReleaseDays(2026).map((release) => release.date);
    expect(days2026).toContain('2026-11-25');
    expect(days2026).not.toContain('2026-11-26');
    expect(days2026).not.toContain('2026-01-01');
    expect(pmmsReleaseDays(2025).at(-1)).toEqual({ date: '2025-12-31', movedFor: "New Year's Day" });
    expect(pmmsReleaseDays(2025).find((release) => release.date === '2025-06-18')?.movedFor).toBe('Juneteenth National Independence Day');
    expect(pmmsReleaseDays(2020).map((release) => release.date)).toContain('2020-12-24');
  });

  it.skipIf(!hasSourceData)("reproduces every weekly release day in the mirror's MORTGAGE30US series since 2015", () => {
    const observed = fs
      .readFileSync(sourceFile('rates', 'MORTGAGE30US_weekly_1971_2026.csv'), 'utf8')
      .split(/\r?\n/)
      .slice(1)
      .map((line) => line.split(',')[0] ?? '')
      .filter((day) => day >= '2015-01-01');
    const last = observed.at(-1) ?? '';
    const derived: string[] = [];
    for (let year = 2015; year <= Number(last.slice(0, 4)); year += 1)
      derived.push(...pmmsReleaseDays(year).map((release) => release.date));
    expect(derived.filter((day) => day <= last)).toEqual(observed);
    expect(observed.filter((day) => weekday(day) === 'Wed')).toContain('2025-12-31');
  });

  it('says on every event that the date comes from the rule, citing the rule page per year', () => {
    const schedule = PmmsScheduleSchema.parse(JSON.parse(fs.readFileSync(path.join(CALENDAR_FACTS_DIR, 'pmms-schedule.json'), 'utf8')));
    expect(schedule.years.map((year) => year.year)).toEqual([2025, 2026, 2027]);
    const events = pmmsEvents(schedule);
    expect(events.length).toBeGreaterThan(150);
    for (const event of events) {
      expect(event).toMatchObject({
        series: 'pmms',
        category: 'housing',
        impact: 'low',
        sourceUrl: 'https://www.freddiemac.com/pmms/pmms_faqs',
      });
      expect(event.description).toMatch(/derived from Freddie Mac's stated rule/);
    }
    expect(events.find((event) => event.date === '2026-11-25')?.description).toMatch(/Moved from Thursday for Thanksgiving Day\.$/);
  });
});
