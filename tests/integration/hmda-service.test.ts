// The HMDA service over a real Parquet warehouse: presets with bound filters, as-of and source on
// every answer, 503 before any load, and the custom SQL sandbox refusing every attack in
// tests/fixtures/hmda-sql-attacks.txt while cutting a runaway query and staying available.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHmdaService, SQL_ROW_CAP, type HmdaService } from '../../api/hmda/service.ts';
import { BadRequestError, HttpError, NotFoundError, ServiceUnavailableError } from '../../api/platform/errors.ts';
import { hasSourceData } from '../support/source-data.ts';
import { attackQueries, EXTRACT_CSV, extractWarehouse, hmdaServiceSettings, parseCsv, silentLogger, tempDir } from './hmda-fixtures.ts';

describe('HMDA service before any data is loaded', () => {
  it('answers presets and SQL with 503 saying what is missing and since when, with no operator command', async () => {
    const root = tempDir('hmda-empty');
    const service = createHmdaService({ ...hmdaServiceSettings(root), logger: silentLogger });
    try {
      for (const call of [() => service.preset('rates', {}), () => service.sql('SELECT 1')]) {
        const error = await call().catch((caught: unknown) => caught);
        expect(error).toBeInstanceOf(ServiceUnavailableError);
        expect((error as HttpError).message).toMatch(
          /^HMDA loan records are not loaded on this server yet\. Totals by nation, state and county .* find_series/,
        );
        expect((error as HttpError).message).not.toMatch(/npm|sync|MDS_SOURCE_DIR|HMDA_DIR/);
        expect((error as HttpError).headers['Retry-After']).toBeDefined();
      }
      expect(service.asOf()).toBeUndefined();
      expect(service.summary()).toMatchObject({ loaded: false, rows: 0, as_of: null });
    } finally {
      await service.close();
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});

describe.skipIf(!hasSourceData)('HMDA service over the real extract', () => {
  let root: string;
  let service: HmdaService;
  const csv = hasSourceData ? parseCsv(fs.readFileSync(EXTRACT_CSV, 'utf8')) : { header: [], rows: [] };
  const column = (name: string) => csv.header.indexOf(name);

  beforeAll(async () => {
    root = tempDir('hmda-service');
    await extractWarehouse(root);
    service = createHmdaService({
      ...hmdaServiceSettings(root, { HMDA_QUERY_TIMEOUT_MS: '1500', HMDA_MEMORY_LIMIT: '256MB' }),
      logger: silentLogger,
    });
  });
  afterAll(async () => {
    await service?.close();
    fs.rmSync(root, { recursive: true, force: true });
  });

  it('rates: median and mean interest rate of originated loans, with SQL, as-of and source', async () => {
    const result = await service.preset('rates', { year: '2022', state: 'co' });
    const rates = csv.rows
      .filter((row) => row[column('action_taken')] === '1' && !['NA', 'Exempt', ''].includes(row[column('interest_rate')] ?? ''))
      .map((row) => Number(row[column('interest_rate')]));
    const mean = rates.reduce((a, b) => a + b, 0) / rates.length;
    const all = result.rows.find((row) => row.loan_type_label === 'All loan types');
    expect(all?.originations).toBe(csv.rows.filter((row) => row[column('action_taken')] === '1').length);
    expect(all?.with_interest_rate).toBe(rates.length);
    expect(all?.mean_interest_rate).toBeCloseTo(mean, 3);
    expect(result).toMatchObject({
      preset: 'rates',
      as_of: '2022-12-31',
      synthetic: false,
      filters: { year: 2022, state: 'CO' },
      params: [2022, 'CO'],
    });
    expect(result.source).toMatch(/FFIEC HMDA/);
    expect(result.sql).toContain('year = $1 AND state = $2');
    expect(result.sql).not.toContain("'CO'");
  });

  it('approvals, denials, demographics and lender rankings answer with rows from the warehouse', async () => {
    const approvals = await service.preset('approvals', {});
    expect(approvals.rows.at(-1)).toMatchObject({ loan_type_label: 'All loan types' });
    const denials = await service.preset('denials', { limit: 3 });
    expect(denials.rows.length).toBeGreaterThan(0);
    const demographics = await service.preset('demographics', { by: 'sex' });
    const groups = Object.fromEntries(demographics.rows.map((row) => [row.group, row.records]));
    const expectedSex = csv.rows.reduce<Record<string, number>>((acc, row) => {
      const key = row[column('derived_sex')] ?? '';
      acc[key] = (acc[key] ?? 0) + 1;
      return acc;
    }, {});
    expect(groups).toEqual(expectedSex);
    const rankings = await service.preset('lender_rankings', { sort: 'volume', limit: 5 });
    expect(rankings.rows[0]).toMatchObject({ rank: 1, lender: 'Name not in the loaded transmittal sheets' });
  });

  it('refuses bad filters with a 400 naming the parameter, and answers 404 for data not loaded', async () => {
    await expect(service.preset('rates', { state: "CO' OR 1=1 --" })).rejects.toThrow(/Invalid HMDA filter state: must be a 2-letter code/);
    await expect(service.preset('rates', { loan_type: 'balloon' })).rejects.toThrow(
      /loan_type: must be one of conventional, fha, va, usda/,
    );
    await expect(service.preset('rates', { year: 1999 })).rejects.toThrow(/year: must be one of 2018/);
    await expect(service.preset('everything', {})).rejects.toBeInstanceOf(BadRequestError);
    await expect(service.preset('rates', { year: 2019 })).rejects.toBeInstanceOf(NotFoundError);
  });

  it('runs a read-only custom query over lar and lenders', async () => {
    const result = await service.sql(
      "SELECT count(*) AS n, count(*) FILTER (WHERE action_taken = 1) AS originated FROM lar WHERE year = 2022 AND state = 'CO'",
    );
    expect(result.rows).toEqual([{ n: 26_144, originated: csv.rows.filter((row) => row[column('action_taken')] === '1').length }]);
    expect(result).toMatchObject({ truncated: false, synthetic: false, as_of: '2022-12-31' });
    const lenders = await service.sql("SELECT respondent_name FROM lenders WHERE lei = '549300VEXSWLQB1TM843'");
    expect(lenders.rows).toEqual([{ respondent_name: 'Coloramo Federal Credit Union' }]);
  });

  it(`caps a custom query at ${SQL_ROW_CAP} rows and says so`, async () => {
    const result = await service.sql('SELECT * FROM range(25000)');
    expect(result.rows).toHaveLength(SQL_ROW_CAP);
    expect(result.truncated).toBe(true);
  });

  it('refuses every attack query in the fixture with a 400', async () => {
    const attacks = attackQueries();
    expect(attacks.length).toBeGreaterThanOrEqual(40);
    for (const attack of attacks) {
      const error = await service.sql(attack).then(
        () => undefined,
        (caught: unknown) => caught,
      );
      expect(error, `not refused: ${JSON.stringify(attack)}`).toBeInstanceOf(BadRequestError);
    }
    // The warehouse is untouched and nothing was written outside it.
    expect((await service.sql('SELECT count(*) AS n FROM lar')).rows).toEqual([{ n: 26_144 }]);
    expect(fs.existsSync('/tmp/out.csv') || fs.existsSync('/tmp/x.csv') || fs.existsSync('/tmp/dump')).toBe(false);
  });

  it('stops a runaway query at the timeout and keeps answering', async () => {
    const error = await service.sql('SELECT count(*) FROM lar a, lar b, lar c').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(BadRequestError);
    expect((error as Error).message).toMatch(/longer than the 1500 ms limit/);
    expect((await service.sql('SELECT count(*) AS n FROM lar')).rows).toEqual([{ n: 26_144 }]);
    expect((await service.preset('approvals', { year: 2022 })).rows.length).toBeGreaterThan(0);
  });

  it('keeps answers until the warehouse changes, and computes the national ones ahead', async () => {
    const first = await service.preset('approvals', { year: 2022 });
    expect(await service.preset('approvals', { year: '2022' })).toBe(first);
    expect(Object.isFrozen(first.rows)).toBe(true);

    // A publish rewrites the manifest: the next answer is computed again from the files.
    const manifestPath = path.join(root, 'manifest.json');
    const manifest = JSON.parse(fs.readFileSync(manifestPath, 'utf8')) as { partitions: Record<string, { loadedAt: string }> };
    for (const partition of Object.values(manifest.partitions)) partition.loadedAt = new Date().toISOString();
    fs.writeFileSync(manifestPath, JSON.stringify(manifest));
    const recomputed = await service.preset('approvals', { year: 2022 });
    expect(recomputed).not.toBe(first);
    expect(recomputed.rows).toEqual(first.rows);

    // After the warm-up, national answers, each year's and all years' (no filter at all), no longer
    // need the files; a state's answer still does.
    await service.warmNationalPresets();
    const larDir = path.join(root, 'lar');
    fs.renameSync(larDir, `${larDir}.away`);
    try {
      for (const name of ['rates', 'approvals', 'denials', 'demographics', 'lender_rankings']) {
        const yearly = await service.preset(name, { year: 2022 });
        expect(yearly.preset).toBe(name);
        const allYears = await service.preset(name, {});
        expect(allYears.filters).not.toHaveProperty('year');
        expect(allYears.rows).toEqual(yearly.rows); // the extract holds one year
        expect(await service.preset(name)).toBe(allYears);
      }
      const stateError = await service.preset('rates', { year: 2022, state: 'CO' }).catch((caught: unknown) => caught);
      expect(stateError).toBeInstanceOf(Error);
      expect(stateError).not.toBeInstanceOf(NotFoundError);
    } finally {
      fs.renameSync(`${larDir}.away`, larDir);
    }
  });

  it('a new service warms its national answers before any request (as at start-up)', async () => {
    // The warm-up is the first call, so it is what creates the views and notices the version.
    const fresh = createHmdaService({ ...hmdaServiceSettings(root), logger: silentLogger });
    const larDir = path.join(root, 'lar');
    try {
      await fresh.warmNationalPresets();
      fs.renameSync(larDir, `${larDir}.away`);
      for (const name of ['rates', 'approvals', 'denials', 'demographics', 'lender_rankings']) {
        expect((await fresh.preset(name, { year: 2022 })).preset).toBe(name);
        expect((await fresh.preset(name, {})).preset).toBe(name);
      }
    } finally {
      if (fs.existsSync(`${larDir}.away`)) fs.renameSync(`${larDir}.away`, larDir);
      await fresh.close();
    }
  });

  it('summarises what is loaded', () => {
    expect(service.summary()).toMatchObject({
      loaded: true,
      synthetic: false,
      rows: 26_144,
      years: [2022],
      states: ['CO'],
      lender_years: [2020],
    });
    expect(service.asOf()).toBe('2022-12-31');
  });
});
