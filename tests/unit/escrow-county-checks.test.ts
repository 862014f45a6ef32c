// Every county calendar we keep by hand says where it comes from: each override and each recorded
// check names the pages read and the tax year checked, and the 50 most populous counties (by the
// population file HMDA uses) each have one or the other.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { COUNTY_CHECKS_FILE, CountyChecksFileSchema, loadCountyChecks } from '../../api/escrow/county-checks.ts';
import { normaliseCountyName, readCensusCounties } from '../../api/escrow/counties.ts';
import { MONTH_NAMES } from '../../api/escrow/engine.ts';
import { loadSchedules, ScheduleFileSchema, SCHEDULES_FILE } from '../../api/escrow/schedules.ts';
import { createEscrowService, type EscrowService } from '../../api/escrow/service.ts';
import { EscrowQuerySchema, type EscrowAnswer } from '../../api/escrow/contract.ts';
import { parseOrThrow } from '../../api/platform/validation.ts';
import type { Verification } from '../../api/escrow/verification.ts';
import { hasSourceData, SOURCE_DIR } from '../support/source-data.ts';

/** A request as every face reads it: parsed by the escrow contract, then answered. */
const ask = (service: EscrowService, input: Record<string, unknown>): EscrowAnswer =>
  service.answer(parseOrThrow(EscrowQuerySchema, input, 'query'));

const schedulesRaw = JSON.parse(fs.readFileSync(SCHEDULES_FILE, 'utf8'));
const checksRaw = JSON.parse(fs.readFileSync(COUNTY_CHECKS_FILE, 'utf8'));
const schedules = ScheduleFileSchema.parse(schedulesRaw);
const checks = CountyChecksFileSchema.parse(checksRaw).checks;

/** Counties whose collector's calendar could not be read; each says why. Adding one here is a decision, not a side effect. */
const KNOWN_UNCHECKED = ['29189', '37183'];

const entries: { county: string; fips: string; verification: Verification }[] = [
  ...schedules.countyOverrides.map(({ county, fips, verification }) => ({ county, fips, verification })),
  ...checks.map(({ county, fips, verification }) => ({ county, fips, verification })),
];

describe('sources of the county calendars', () => {
  it('every override and every check names a source URL and the tax year it checked, or says why it could not', () => {
    for (const { county, fips, verification } of entries) {
      if (verification.status === 'unchecked') {
        expect(KNOWN_UNCHECKED, `${county} is unchecked`).toContain(fips);
        expect(verification.reason.length, county).toBeGreaterThan(40);
        continue;
      }
      expect(verification.taxYear, county).toMatch(/^\d{4}(-\d{2})?$/);
      expect(verification.sources.length, county).toBeGreaterThan(0);
      for (const source of verification.sources) expect(() => new URL(source.url), `${county}: ${source.url}`).not.toThrow();
      const namesYear = verification.sources.some((source) => source.taxYear === verification.taxYear);
      const standing = verification.sources.some((source) => source.standing && source.kind !== 'secondary');
      expect(namesYear || (standing && verification.taxYear.startsWith(verification.checked.slice(0, 4))), county).toBe(true);
      expect(verification.checked <= schedules.asOf, `${county} checked ${verification.checked}`).toBe(true);
    }
  });

  it('keeps each county once: an override or a check, never both', () => {
    const fips = entries.map((entry) => entry.fips);
    expect(new Set(fips).size).toBe(fips.length);
  });

  it('a check that agrees names the months the state schedule pays in', () => {
    for (const check of checks.filter((candidate) => candidate.result === 'agrees')) {
      const named = /\(([A-Za-z, ]+)\)\.?$/.exec(check.finding ?? '')?.[1]?.split(', ');
      const state = schedules.states.find((candidate) => candidate.code === check.state);
      const months = state?.installments.map((installment) => MONTH_NAMES[installment.month - 1]);
      expect(named?.slice().sort(), check.county).toEqual(months?.slice().sort());
    }
  });

  it('points the reader to the collector before a secondary page', () => {
    const service = createEscrowService({ sourceDir: undefined, clock: () => new Date('2026-11-24T12:00:00Z') });
    const brooklyn = ask(service, { state: 'NY', county: 'Brooklyn', closing_month: 5 });
    expect(brooklyn.taxSchedule.notes).toMatch(
      /Checked against NYC Department of Finance \(https:\/\/www\.nyc\.gov\/site\/finance\/property\/property-due-dates\.page\), which gives the same dates every year \(tax year 2024-25\)/,
    );
    const lancaster = ask(service, { state: 'NE', county: 'Lancaster', closing_month: 3 });
    expect(lancaster.taxSchedule.notes).toMatch(
      /Checked against Lancaster County, Nebraska \(https:\/\/www\.lancaster\.ne\.gov\/429\/Important-Dates\), which gives the same dates every year \(tax year 2026\)/,
    );
  });

  it('an entry that fails the schema names its county', () => {
    const broken = structuredClone(schedulesRaw);
    const cook = broken.countyOverrides.find((override: { fips: string }) => override.fips === '17031');
    cook.verification.sources = [];
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'escrow-')), 'state-tax-schedules.json');
    fs.writeFileSync(file, JSON.stringify(broken));
    expect(() => loadSchedules(file)).toThrow(/Cook County \(17031\): verification\.sources/);

    const brokenChecks = structuredClone(checksRaw);
    brokenChecks.checks.find((check: { fips: string }) => check.fips === '48201').verification.taxYear = '1999';
    const checksFile = path.join(path.dirname(file), 'county-checks.json');
    fs.writeFileSync(checksFile, JSON.stringify(brokenChecks));
    expect(() => loadCountyChecks(checksFile)).toThrow(/Harris County \(48201\): .*tax year 1999/);
  });
});

describe.skipIf(!hasSourceData)('the 50 most populous counties', () => {
  // Read when the tests run, not when the file is collected: a skipped block's body still runs at
  // collection, and a clone without the source files has no population file to read.
  let top50: string[] = [];
  let census: ReturnType<typeof readCensusCounties>;
  beforeAll(() => {
    const population = JSON.parse(fs.readFileSync(path.join(SOURCE_DIR, 'geo', 'hmda_county_population_2024.json'), 'utf8')) as Record<
      string,
      number
    >;
    top50 = Object.entries(population)
      .sort(([, a], [, b]) => b - a)
      .slice(0, 50)
      .map(([fips]) => fips);
    census = readCensusCounties(SOURCE_DIR);
  });

  it('each has an override or a recorded check', () => {
    const recorded = new Map(entries.map((entry) => [entry.fips, entry]));
    expect(top50).toHaveLength(50);
    const missing = top50.filter((fips) => !recorded.has(fips));
    expect(missing).toEqual([]);
    const unchecked = top50.filter((fips) => recorded.get(fips)?.verification.status === 'unchecked');
    expect(unchecked.every((fips) => KNOWN_UNCHECKED.includes(fips))).toBe(true);
  });

  it('names every checked county as the Census county list does', () => {
    for (const check of checks) {
      const county = census?.get(check.state)?.find((candidate) => candidate.fips === check.fips);
      expect(county, `${check.county} ${check.fips}`).toBeDefined();
      expect(normaliseCountyName(county?.name ?? '')).toBe(normaliseCountyName(check.county));
    }
  });

  it('tells the reader of a checked county which page confirmed its state schedule', () => {
    const service = createEscrowService({ sourceDir: SOURCE_DIR, clock: () => new Date('2026-11-24T12:00:00Z') });
    const harris = ask(service, { state: 'TX', county: 'Harris County', closing_month: 3 });
    expect(harris.isCountySpecific).toBe(false);
    expect(harris.taxSchedule.notes).toMatch(/Harris County \(48201\) collects on the Texas schedule/);
    expect(harris.taxSchedule.notes).toMatch(/tax year 2025/);
    expect(harris.sources.map((source) => source.url)).toContain(
      'https://www.click2houston.com/news/local/2026/01/28/list-10-things-to-know-before-the-last-day-to-pay-property-taxes-in-harris-county',
    );
    const wayne = ask(service, { state: 'MI', county: '26163', closing_month: 3 });
    expect(wayne.taxSchedule.notes).toMatch(/no single county calendar/);
    const wake = ask(service, { state: 'NC', county: 'Wake', closing_month: 3 });
    expect(wake.taxSchedule.notes).toMatch(/No county-level schedule is recorded for Wake County \(37183\)/);
  });
});
