// The HMDA warehouse on real Parquet: the real 26k-row extract round-trips, transmittal sheets load,
// the aggregate gate publishes matching state-years and refuses mismatches (old data stays), and
// the presets computed from counts agree with the plain SQL they replace.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { literal, readerRows } from '../../api/hmda/duck.ts';
import { loadCalibration } from '../../api/hmda/calibration.ts';
import { larColumn } from '../../api/hmda/schema.ts';
import { writeSyntheticLar } from '../../api/hmda/synthetic.ts';
import { SourceFormatError, ValidationError } from '../../api/sync/errors.ts';
import { larGlob, layout, loadLar, readManifest } from '../../api/hmda/warehouse.ts';
import { hasSourceData, SOURCE_DIR } from '../support/source-data.ts';
import { EXTRACT_CSV, extractWarehouse, hmdaServiceSettings, parseCsv, silentLogger, tempDir, withConnection } from './hmda-fixtures.ts';
import { createHmdaService, type HmdaService } from '../../api/hmda/service.ts';

const folders: string[] = [];
const scratch = (name: string) => {
  const dir = tempDir(name);
  folders.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of folders) fs.rmSync(dir, { recursive: true, force: true });
});

/** One CSV cell as the warehouse should hold it: NA/Exempt/empty → null, numbers as numbers. */
function expected(name: string, cell: string): string | number | null {
  if (cell === 'NA' || cell === 'Exempt' || cell === '') return null;
  return larColumn(name)?.type === 'VARCHAR' ? cell : Number(cell);
}

async function writeSynthetic(file: string, state: string, year: number, scale = 1): Promise<number> {
  const calibration = loadCalibration(SOURCE_DIR, year);
  const out = fs.createWriteStream(file);
  const counts = await writeSyntheticLar(out, {
    year,
    states: [state],
    aggregates: calibration.states,
    counties: calibration.counties,
    scale,
    seed: 3,
  });
  await new Promise<void>((resolve) => out.end(resolve));
  return counts[state] ?? 0;
}

describe.skipIf(!hasSourceData)('HMDA warehouse', () => {
  it('round-trips the real 26,144-row extract: CSV → typed Parquet → the same values back', async () => {
    const root = scratch('hmda-extract');
    await extractWarehouse(root);
    const { header, rows } = parseCsv(fs.readFileSync(EXTRACT_CSV, 'utf8'));
    expect(rows).toHaveLength(26_144);
    const names = header.map((cell) => cell.toLowerCase().replace(/-/g, '_'));
    const fromCsv = rows.map((row) => JSON.stringify(names.map((name, index) => expected(name, row[index] ?? '')))).sort();
    const fromParquet = await withConnection(async (connection) => {
      const reader = await connection.runAndReadAll(
        `SELECT ${names.map((n) => `"${n}"`).join(', ')} FROM read_parquet(${literal(larGlob(root))})`,
      );
      return reader
        .getRowsJS()
        .map((row) => JSON.stringify(row.map((value) => (typeof value === 'bigint' ? Number(value) : value))))
        .sort();
    });
    expect(fromParquet).toHaveLength(fromCsv.length);
    expect(fromParquet).toEqual(fromCsv);
    const manifest = readManifest(root);
    expect(manifest?.partitions['2022/CO']?.rows).toBe(26_144);
    expect(fs.existsSync(path.join(layout(root).larDir, 'year=2022', 'state=CO', 'data.parquet'))).toBe(true);
  });

  it('loads the 2020 transmittal sheet: 4,475 filers whose lar_count sums to the national 25,551,868', async () => {
    const root = scratch('hmda-lenders');
    await extractWarehouse(root);
    const [count, total, name] = await withConnection(async (connection) => {
      const reader = await connection.runAndReadAll(
        `SELECT count(*), sum(lar_count), max(respondent_name) FILTER (WHERE lei = '549300VEXSWLQB1TM843') FROM read_parquet(${literal(path.join(root, 'lenders', '*', '*.parquet'))})`,
      );
      return reader.getRowsJS()[0] ?? [];
    });
    expect(Number(count)).toBe(4475);
    expect(Number(total)).toBe(25_551_868);
    expect(name).toBe('Coloramo Federal Credit Union');
  });

  it('publishes a state-year whose counts by action taken and loan type equal the official aggregates', async () => {
    const root = scratch('hmda-gate-pass');
    const csv = path.join(root, 'wy-2022.csv');
    const rows = await writeSynthetic(csv, 'WY', 2022);
    const calibration = loadCalibration(SOURCE_DIR, 2022);
    const result = await withConnection((connection) =>
      loadLar(connection, {
        root: path.join(root, 'warehouse'),
        synthetic: true,
        aggregatesFor: (year) => (year === 2022 ? calibration.states : undefined),
        files: [{ csvPath: csv, sourceUrl: 'synthetic WY 2022', checksum: 'a', expect: { year: 2022, state: 'WY' } }],
      }),
    );
    expect(result.published.map((p) => `${p.state} ${p.year}`)).toEqual(['WY 2022']);
    expect(result.rows).toBe(rows);
    expect(rows).toBe(Object.values(calibration.states.WY?.actionTaken ?? {}).reduce((a, b) => a + b, 0));
  });

  it('refuses a state-year that does not match the aggregates, with both figures, and keeps serving the previous one', async () => {
    const root = scratch('hmda-gate-fail');
    const warehouse = path.join(root, 'warehouse');
    const calibration = loadCalibration(SOURCE_DIR, 2022);
    const good = path.join(root, 'good.csv');
    await writeSynthetic(good, 'WY', 2022);
    const options = { root: warehouse, synthetic: true, aggregatesFor: (year: number) => (year === 2022 ? calibration.states : undefined) };
    await withConnection((connection) =>
      loadLar(connection, {
        ...options,
        files: [{ csvPath: good, sourceUrl: 'good', checksum: 'good', expect: { year: 2022, state: 'WY' } }],
      }),
    );
    const published = path.join(layout(warehouse).larDir, 'year=2022', 'state=WY', 'data.parquet');
    const before = fs.readFileSync(published);

    // Drop every denied application (action taken 3) after the header.
    const lines = fs.readFileSync(good, 'utf8').split('\n');
    const kept = lines.filter((line, index) => index === 0 || line.split(',')[12] !== '3');
    const bad = path.join(root, 'bad.csv');
    fs.writeFileSync(bad, kept.join('\n'));
    const official = calibration.states.WY?.actionTaken['3'] ?? 0;
    expect(official).toBeGreaterThan(0);

    const failure = await withConnection((connection) =>
      loadLar(connection, {
        ...options,
        files: [{ csvPath: bad, sourceUrl: 'bad', checksum: 'bad', expect: { year: 2022, state: 'WY' } }],
      }),
    ).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ValidationError);
    const message = (failure as Error).message;
    expect(message).toContain(
      `2022 WY action_taken 3: official aggregates say ${official.toLocaleString('en-US')} records, the loaded file has 0`,
    );
    expect(message).toMatch(/loan_type \d: official aggregates say [\d,]+ records, the loaded file has [\d,]+/);
    expect(fs.readFileSync(published).equals(before)).toBe(true);
    expect(readManifest(warehouse)?.partitions['2022/WY']?.sourceChecksum).toBe('good');
    expect(fs.readdirSync(layout(warehouse).stagingRoot)).toEqual([]);
  });

  it('never loads synthetic rows into the real warehouse', async () => {
    const root = scratch('hmda-guard');
    const csv = path.join(root, 'wy.csv');
    await writeSynthetic(csv, 'WY', 2022, 0.05);
    const failure = await withConnection((connection) =>
      loadLar(connection, {
        root: path.join(root, 'warehouse'),
        synthetic: false,
        partial: true,
        aggregatesFor: () => undefined,
        files: [{ csvPath: csv, sourceUrl: 'x', checksum: 'x' }],
      }),
    ).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ValidationError);
    expect((failure as Error).message).toMatch(/synthetic rows are never loaded into the real warehouse/);
    expect(fs.existsSync(path.join(root, 'warehouse', 'lar'))).toBe(false);
  });

  it('names the file and line of a value that does not fit its column type', async () => {
    const root = scratch('hmda-bad-cell');
    const { header, rows } = parseCsv(fs.readFileSync(EXTRACT_CSV, 'utf8'));
    const amount = header.indexOf('loan_amount');
    const broken = rows.slice(0, 50).map((row) => [...row]);
    const victim = broken[9];
    if (victim) victim[amount] = 'lots';
    const csv = path.join(root, 'broken.csv');
    fs.writeFileSync(csv, [header.join(','), ...broken.map((row) => row.join(','))].join('\n'));
    const failure = await withConnection((connection) =>
      loadLar(connection, {
        root: path.join(root, 'warehouse'),
        synthetic: false,
        partial: true,
        aggregatesFor: () => undefined,
        files: [{ csvPath: csv, sourceUrl: 'broken.csv', checksum: 'x', year: 2022, state: 'CO' }],
      }),
    ).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(SourceFormatError);
    expect((failure as Error).message).toMatch(/^broken\.csv:11: /);
  });

  it('refuses an official file that lacks public LAR columns', async () => {
    const root = scratch('hmda-partial');
    const failure = await withConnection((connection) =>
      loadLar(connection, {
        root,
        synthetic: false,
        aggregatesFor: () => undefined,
        files: [{ csvPath: EXTRACT_CSV, sourceUrl: 'extract.csv', checksum: 'x', year: 2022, state: 'CO' }],
      }),
    ).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(SourceFormatError);
    expect((failure as Error).message).toMatch(/extract\.csv:1: the header lacks 75 public LAR column\(s\): activity_year, lei/);
  });

  it('reads the 99 dictionary columns with DuckDB in the documented order', async () => {
    const rows = await withConnection(async (connection) =>
      readerRows(
        await connection.runAndReadAll(
          `SELECT "Data Field Number" AS n, "Data Field Name" AS name FROM read_csv(${literal(path.join(SOURCE_DIR, 'hmda', 'dictionary', 'hmda_data_science_kit', 'lar_2018_2019.csv'))}, header = true) ORDER BY n`,
        ),
      ),
    );
    expect(rows).toHaveLength(99);
    for (const row of rows) expect(larColumn(String(row.name)), String(row.name)).toBeDefined();
  });
});

describe.skipIf(!hasSourceData)('HMDA presets against the plain SQL they replace (synthetic WY 2022)', () => {
  let service: HmdaService;
  const filterSets = [
    [{ year: 2022 }, ''],
    [{ year: 2022, loan_purpose: 'refinance' }, ' AND loan_purpose = 31'],
    [{ year: 2022, lei: 'NOSUCHLEI00000000000' }, " AND lei = 'NOSUCHLEI00000000000'"],
  ] as const;

  beforeAll(async () => {
    const root = scratch('hmda-presets');
    const csv = path.join(root, 'wy-2022.csv');
    await writeSynthetic(csv, 'WY', 2022);
    const warehouse = path.join(root, 'warehouse');
    await withConnection((connection) =>
      loadLar(connection, {
        root: warehouse,
        synthetic: true,
        skipValidation: true,
        aggregatesFor: () => undefined,
        files: [{ csvPath: csv, sourceUrl: 'synthetic', checksum: 'a' }],
      }),
    );
    service = createHmdaService({ ...hmdaServiceSettings(warehouse), logger: silentLogger, keepAnswers: false });
  });
  afterAll(() => service?.close());

  it('approvals: the per-cell counts equal counting every record', async () => {
    const direct = (where: string) => `SELECT loan_type, count(*) AS applications,
  count(*) FILTER (WHERE action_taken = 1) AS originated, count(*) FILTER (WHERE action_taken = 2) AS approved_not_accepted,
  count(*) FILTER (WHERE action_taken = 3) AS denied, count(*) FILTER (WHERE action_taken = 4) AS withdrawn,
  count(*) FILTER (WHERE action_taken = 5) AS incomplete,
  round(count(*) FILTER (WHERE action_taken IN (1, 2)) / nullif(count(*) FILTER (WHERE action_taken IN (1, 2, 3)), 0), 4) AS approval_rate,
  round(count(*) FILTER (WHERE action_taken = 1) / nullif(count(*), 0), 4) AS origination_rate
FROM lar WHERE action_taken IN (1, 2, 3, 4, 5)${where} GROUP BY GROUPING SETS ((loan_type), ()) ORDER BY grouping(loan_type), loan_type`;
    for (const [filters, where] of filterSets) {
      const preset = await service.preset('approvals', filters);
      const expected = (await service.sql(direct(where))).rows;
      expect(preset.rows.map(({ loan_type_label: _label, ...figures }) => figures)).toEqual(expected);
    }
    expect((await service.preset('approvals', { year: 2022 })).rows.length).toBeGreaterThan(3);
  });

  it('rates: medians from value counts equal median() over every loan; means agree to the rounding', async () => {
    const direct = (where: string) => `SELECT loan_type, count(*) AS originations, count(interest_rate) AS with_interest_rate,
  round(median(interest_rate), 3) AS median_interest_rate, round(avg(interest_rate), 3) AS mean_interest_rate,
  round(median(rate_spread), 3) AS median_rate_spread, round(avg(rate_spread), 3) AS mean_rate_spread
FROM lar WHERE action_taken = 1${where} GROUP BY GROUPING SETS ((loan_type), ()) ORDER BY grouping(loan_type), loan_type`;
    for (const [filters, where] of filterSets) {
      const preset = (await service.preset('rates', filters)).rows;
      const expected = (await service.sql(direct(where))).rows;
      expect(
        preset.map((row) => [row.loan_type, row.originations, row.with_interest_rate, row.median_interest_rate, row.median_rate_spread]),
      ).toEqual(
        expected.map((row) => [row.loan_type, row.originations, row.with_interest_rate, row.median_interest_rate, row.median_rate_spread]),
      );
      preset.forEach((row, index) => {
        for (const mean of ['mean_interest_rate', 'mean_rate_spread']) {
          const want = expected[index]?.[mean];
          if (want === null) expect(row[mean]).toBeNull();
          else expect(Math.abs(Number(row[mean]) - Number(want))).toBeLessThanOrEqual(0.0010001);
        }
      });
    }
    const national = (await service.preset('rates', { year: 2022 })).rows;
    expect(national.length).toBeGreaterThan(3);
    expect(national.at(-1)).toMatchObject({ loan_type_label: 'All loan types' });
  });
});
