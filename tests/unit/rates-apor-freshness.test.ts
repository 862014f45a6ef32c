// The FFIEC's APOR table parser on a fixture in its published format (the mirror has no copy), and
// freshness against the publishers' schedules: PMMS Thursdays (Wednesdays before a Thursday holiday),
// Optimal Blue business days, APOR Mondays, yearly limits.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../api/config.ts';
import { parseAporTable } from '../../api/rates/sync/apor.ts';
import { SourceFormatError } from '../../api/sync/errors.ts';
import { assessFreshness, staleSentences } from '../../api/freshness/assess.ts';
import { APOR_WEEKLY, BUSINESS_DAILY, FHFA_YEARLY, PMMS_WEEKLY, isBusinessDay } from '../../api/freshness/schedules.ts';
import { aporTable } from '../support/apor-fixture.ts';

const FIXTURE = path.join(PROJECT_ROOT, 'tests', 'fixtures', 'rates', 'apor-YieldTableFixed-2017-01.txt');

describe('APOR table (YieldTableFixed.txt)', () => {
  it('reads the published layout: M/D/YYYY Mondays and fifty terms', () => {
    const weeks = parseAporTable(fs.readFileSync(FIXTURE, 'utf8'), 'YieldTableFixed.txt');
    expect(weeks.map((week) => week.weekOf)).toEqual(['2017-01-02', '2017-01-09']);
    expect(weeks[0]?.rates).toHaveLength(50);
    expect([weeks[0]?.rates[9], weeks[0]?.rates[19], weeks[0]?.rates[29]]).toEqual([3.9, 3.62, 4.36]);
    expect(weeks[1]?.rates[19]).toBe(3.51);
    // Zero-padded dates and CRLF line endings read the same.
    const padded = fs.readFileSync(FIXTURE, 'utf8').replace('1/2/2017', '01/02/2017').replace(/\n/g, '\r\n');
    expect(parseAporTable(padded, 'f').map((week) => week.weekOf)).toEqual(['2017-01-02', '2017-01-09']);
  });

  it('refuses a reshaped or broken table with file:line', () => {
    const text = fs.readFileSync(FIXTURE, 'utf8');
    expect(() => parseAporTable(text.replace('Term of Loan in Years', 'Term'), 'f.txt')).toThrowError(/^f\.txt:1: header must be/);
    expect(() => parseAporTable(text.replace('1/9/2017', '1/10/2017'), 'f.txt')).toThrowError(/f\.txt:3: 2017-01-10 is not a Monday/);
    expect(() => parseAporTable(text.replace('1/9/2017|3.52', '1/9/2017|x'), 'f.txt')).toThrowError(/f\.txt:3: 1-year rate "x"/);
    expect(() => parseAporTable(text.replace('1/9/2017', '1/30/2017'), 'f.txt')).toThrowError(SourceFormatError);
    expect(parseAporTable(aporTable('2026-11-23', 60), 'synthetic')).toHaveLength(60);
  });
});

describe('freshness against the release schedule', () => {
  const survey = { field: 'survey_rate', series: 'Freddie Mac PMMS 30-year', as_of: '2026-10-08', schedule: PMMS_WEEKLY };

  it('reads the PMMS figure of 2026-10-08 as stale on 2026-11-27, with the seven releases it missed', () => {
    const entry = assessFreshness(survey, '2026-11-27');
    expect(entry).toMatchObject({ age_days: 50, stale: true, missed_release_count: 7 });
    // Thanksgiving (2026-11-26) moved that week's release to the Wednesday.
    expect(entry.missed_releases.at(-1)).toBe('2026-11-25');
    expect(staleSentences([entry])).toMatch(
      /^Not current: Freddie Mac PMMS 30-year is from 2026-10-08, 50 days before 2026-11-27; 7 scheduled releases since then/,
    );
  });

  it('counts a release from the day after it is published, leaving the sync its day', () => {
    expect(assessFreshness(survey, '2026-10-15')).toMatchObject({ stale: false, missed_release_count: 0, age_days: 7 });
    expect(assessFreshness(survey, '2026-10-16')).toMatchObject({ stale: true, missed_releases: ['2026-10-15'] });
  });

  it('expects Optimal Blue each business day, published the next one', () => {
    expect(isBusinessDay('2026-10-12')).toBe(false); // Columbus Day
    expect(isBusinessDay('2026-10-10')).toBe(false);
    const friday = { field: 'index_a_rate', series: 'Optimal Blue', as_of: '2026-10-09', schedule: BUSINESS_DAILY };
    // Monday is a holiday: Tuesday's figure is published Wednesday, so on Wednesday nothing is missed yet.
    expect(assessFreshness(friday, '2026-10-14')).toMatchObject({ stale: false });
    expect(assessFreshness(friday, '2026-10-15')).toMatchObject({ stale: true, missed_releases: ['2026-10-13'] });
    const mirror = assessFreshness({ ...friday, as_of: '2025-09-25' }, '2026-11-27');
    expect(mirror.missed_release_count).toBeGreaterThan(280);
    expect(mirror.missed_releases).toHaveLength(10);
  });

  it('expects APOR weekly (published the Thursday before its Monday) and loan limits yearly', () => {
    const apor = { field: 'rate', series: 'APOR', as_of: '2026-11-16', schedule: APOR_WEEKLY };
    expect(assessFreshness(apor, '2026-11-19')).toMatchObject({ stale: false }); // the next week's table comes out that day
    expect(assessFreshness(apor, '2026-11-20')).toMatchObject({ stale: true, missed_releases: ['2026-11-23'] });
    const limits = { field: 'limit', series: 'FHFA conforming loan limits', as_of: '2026-01-01', schedule: FHFA_YEARLY };
    expect(assessFreshness(limits, '2026-11-01')).toMatchObject({ stale: false });
    expect(assessFreshness(limits, '2026-11-27')).toMatchObject({ stale: true, missed_releases: ['2027-01-01'] });
  });
});
