// The hmda_aggregates and hmda_lenders datasets on both databases: loaded from the official files and
// validated against the record counts, refused (naming file and position) when a copy is corrupted,
// and summarised by the service with rates equal to those computed here straight from the JSON.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatasetStatus } from '../../api/platform/datasets.ts';
import { createHmdaAggregatesService, type HmdaAggregatesService } from '../../api/hmda-aggregates/service.ts';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../support/databases.ts';
import { hasSourceData, sourceFile } from '../support/source-data.ts';
import { syncInto, syncedTestDatabase } from '../support/synced.ts';

type Aggregates = Record<string, Record<string, Record<string, number>>>;
const readJson = <T>(...parts: string[]): T => JSON.parse(fs.readFileSync(sourceFile(...parts), 'utf8')) as T;
const sum = (counts: Record<string, number>) => Object.values(counts).reduce((total, value) => total + value, 0);

describe.skipIf(!hasSourceData).each(databaseKinds)('HMDA aggregates on %s', (kind) => {
  let database: TestDatabase;
  let service: HmdaAggregatesService;
  const states2024 = hasSourceData ? readJson<Aggregates>('hmda', 'aggregates', 'by_state_2024.json') : {};

  beforeAll(async () => {
    database = await syncedTestDatabase(kind, ['hmda_aggregates', 'hmda_lenders']);
    service = createHmdaAggregatesService({
      db: database.db,
      datasets: createDatasetStatus({ db: database.db }),
      clock: () => new Date('2026-11-22T12:00:00Z'),
    });
  });

  afterAll(async () => {
    await database?.drop();
  });

  it('stores national totals equal to the published record counts (2024: 12,259,199 including territories and NA)', async () => {
    const counts = readJson<Record<string, number>>('hmda', 'aggregates', 'record_counts', 'stateCounts2024.json');
    expect(sum(counts)).toBe(12_259_199);
    const summary = await service.summary({ year: 2024 });
    expect(summary.geography).toEqual({ level: 'nation', code: 'US', name: 'United States' });
    expect(summary.records).toBe(12_259_199);
    const originated = Object.values(states2024).reduce((total, state) => total + (state.actionTaken?.['1'] ?? 0), 0);
    expect(summary.action_taken.find((entry) => entry.code === '1')?.count).toBe(originated);
    const { rows } = await database.db.query<{ n: string }>(
      `SELECT count(DISTINCT year)::text AS n FROM hmda_aggregates WHERE geo_level = 'nation'`,
    );
    expect(Number(rows[0]?.n)).toBe(8);
  });

  it("gives Colorado's 2024 approval and denial rates as computed from the JSON", async () => {
    const co = states2024.CO?.actionTaken ?? {};
    const decided = (co['1'] ?? 0) + (co['2'] ?? 0) + (co['3'] ?? 0);
    const summary = await service.summary({ year: '2024', state: 'colorado' });
    expect(summary.geography).toMatchObject({ level: 'state', code: 'CO', name: 'Colorado' });
    expect(summary.denial_rate_percent).toBeCloseTo(((co['3'] ?? 0) / decided) * 100, 2);
    expect(summary.approval_rate_percent).toBeCloseTo((((co['1'] ?? 0) + (co['2'] ?? 0)) / decided) * 100, 2);
    expect(summary.definitions.approval_rate).toMatch(/originated \+ applications approved but not accepted/);
    const fha = summary.loan_type.find((entry) => entry.label === 'FHA');
    expect(fha?.count).toBe(states2024.CO?.loanType?.['2']);
    expect(summary.demographics.sex.map((entry) => entry.label)).toContain('Joint');
    expect(summary).toMatchObject({ year: 2024, as_of: '2025-12-31', source_url: expect.stringMatching(/^https:\/\/ffiec\.cfpb\.gov\//) });
  });

  it('summarises a county from its FIPS code or its name with the state', async () => {
    const denver = readJson<Aggregates>('hmda', 'aggregates', 'by_county_2024.json')['08031'];
    const byFips = await service.summary({ year: 2024, county: '08031' });
    expect(byFips.geography).toMatchObject({ level: 'county', code: '08031' });
    expect(byFips.records).toBe(sum(denver?.actionTaken ?? {}));
    expect(byFips.loan_purpose.find((entry) => entry.code === '1')?.count).toBe(denver?.loanPurpose?.['1']);
  });

  it('answers 400 for a bad state or year and 404 for a year without data', async () => {
    await expect(service.summary({ state: 'ZZ' })).rejects.toMatchObject({
      status: 400,
      message: expect.stringMatching(/Valid values: .*CO.*WY/),
    });
    await expect(service.summary({ year: 'abcd' })).rejects.toMatchObject({ status: 400, message: expect.stringMatching(/'year'/) });
    await expect(service.summary({ year: 2017 })).rejects.toMatchObject({
      status: 404,
      message: expect.stringMatching(/Years available: 2018, .*2025/),
    });
    await expect(service.summary({ county: '08031', state: 'TX' })).rejects.toMatchObject({ status: 400 });
    await expect(service.summary({ county: "Denver'; DROP TABLE hmda_aggregates; --", state: 'CO' })).rejects.toMatchObject({
      status: 400,
    });
  });

  it('ranks the 2020 filers by lar_count and refuses to extrapolate to other years', async () => {
    const top = await service.topLenders({ limit: 3 });
    expect(top.year).toBe(2020);
    expect(top.total_records).toBe(25_551_868);
    expect(top.lender_count).toBe(4_475);
    expect(top.lenders[0]).toMatchObject({ rank: 1, name: 'Quicken Loans', records: 1_503_505 });
    expect(top.lenders).toHaveLength(3);
    expect(top.note).toMatch(/Only the 2020 sheet/);
    await expect(service.topLenders({ year: 2024 })).rejects.toMatchObject({
      status: 404,
      message: expect.stringMatching(/only the 2020/),
    });
    await expect(service.topLenders({ limit: 0 })).rejects.toMatchObject({ status: 400 });
    expect(await service.years()).toMatchObject({ aggregates: [2018, 2019, 2020, 2021, 2022, 2023, 2024, 2025], lenders: [2020] });
  });
});

describe.skipIf(!hasSourceData)('HMDA aggregates validation', () => {
  let database: TestDatabase;
  let mirror: string;

  /** A source folder whose 2024 files are links to the mirror, except the given replacements. */
  function doctoredMirror(replacements: Record<string, string>): string {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'mds-hmda-agg-'));
    for (const relative of [
      'by_state_2024.json',
      'by_county_2024.json',
      'record_counts/stateCounts2024.json',
      'record_counts/countyCounts2024.json',
    ]) {
      const target = path.join(root, 'hmda', 'aggregates', relative);
      fs.mkdirSync(path.dirname(target), { recursive: true });
      const replacement = replacements[relative];
      if (replacement === undefined) fs.symlinkSync(sourceFile('hmda', 'aggregates', relative), target);
      else fs.writeFileSync(target, replacement);
    }
    return root;
  }

  beforeAll(async () => {
    database = await createTestDatabase('pglite');
  });

  afterAll(async () => {
    await database?.drop();
    if (mirror) fs.rmSync(mirror, { recursive: true, force: true });
  });

  it('refuses a truncated file, naming the file and the position', async () => {
    const original = fs.readFileSync(sourceFile('hmda', 'aggregates', 'by_state_2024.json'), 'utf8');
    mirror = doctoredMirror({ 'by_state_2024.json': original.slice(0, 5_000) });
    const report = await syncInto(database.db, ['hmda_aggregates'], { sourceDir: mirror, options: { years: '2024' } });
    const result = report.results.find((entry) => entry.name === 'hmda_aggregates');
    expect(result?.status).toBe('failed');
    expect(result?.message).toMatch(/by_state_2024\.json:1: invalid JSON at position 5000/);
    fs.rmSync(mirror, { recursive: true, force: true });
  });

  it('refuses counts that no longer add up to the record counts, naming the state and dimension', async () => {
    const states = readJson<Aggregates>('hmda', 'aggregates', 'by_state_2024.json');
    (states.CO as Aggregates[string]).actionTaken = { ...states.CO?.actionTaken, '3': (states.CO?.actionTaken?.['3'] ?? 0) + 1 };
    mirror = doctoredMirror({ 'by_state_2024.json': JSON.stringify(states) });
    const report = await syncInto(database.db, ['hmda_aggregates'], { sourceDir: mirror, options: { years: '2024' } });
    const result = report.results.find((entry) => entry.name === 'hmda_aggregates');
    expect(result?.status).toBe('failed');
    expect(result?.message).toMatch(/by_state_2024\.json: "CO"\.actionTaken sums to \d+, the record count is 267672/);
    const { rows } = await database.db.query<{ n: string }>('SELECT count(*)::text AS n FROM hmda_aggregates');
    expect(Number(rows[0]?.n)).toBe(0);
  });

  it('refuses a negative count with its key path', async () => {
    const states = readJson<Aggregates>('hmda', 'aggregates', 'by_state_2024.json');
    (states.TX as Aggregates[string]).loanType = { ...states.TX?.loanType, '2': -5 };
    mirror = doctoredMirror({ 'by_state_2024.json': JSON.stringify(states) });
    const report = await syncInto(database.db, ['hmda_aggregates'], { sourceDir: mirror, options: { years: '2024' } });
    expect(report.results[0]?.message).toMatch(/by_state_2024\.json: "TX"\.loanType\["2"\]: expected a non-negative whole count, found -5/);
  });
  it('answers with the words every face uses for a dataset that failed or never loaded, without operator commands', async () => {
    const service = createHmdaAggregatesService({ db: database.db, datasets: createDatasetStatus({ db: database.db, cacheMs: 0 }) });
    const failed = await service.summary({ state: 'CO' }).then(
      () => undefined,
      (error: unknown) => error as { status: number; message: string; headers: Record<string, string> },
    );
    expect(failed).toMatchObject({ status: 503, headers: { 'Retry-After': expect.any(String) } });
    expect(failed?.message).toMatch(
      /^The hmda_aggregates dataset is not available: its last load failed on \d{4}-\d{2}-\d{2} at \d{2}:\d{2} UTC\. .*https:\/\/ffiec\.cfpb\.gov\/2024\/state\.json/,
    );
    await expect(service.topLenders()).rejects.toMatchObject({
      status: 503,
      message: 'The hmda_lenders dataset is not loaded yet: this service has never loaded it.',
    });
    for (const attempt of [service.summary(), service.topLenders(), service.years()]) {
      await expect(attempt).rejects.toSatisfy((error: Error) => !/npm|sync /.test(error.message));
    }
  });
});
