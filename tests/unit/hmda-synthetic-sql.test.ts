// The SQL generator of the seed-scale SYNTHETIC warehouse: each state-year file's counts by action
// taken, loan type, purpose and county equal the official aggregates times the scale to within one
// record (largest-remainder quotas: the only difference is rounding), states keep their proportions,
// and at scale 1 the files pass the real loader's aggregate gate.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCalibration, type Calibration } from '../../api/hmda/calibration.ts';
import { literal, openInstance } from '../../api/hmda/duck.ts';
import { LAR_HEADER } from '../../api/hmda/synthetic.ts';
import { planStateYear, slotCase, slots, stateYearFileName, writeSyntheticStateYears } from '../../api/hmda/synthetic-sql.ts';
import { loadLar } from '../../api/hmda/warehouse.ts';
import { hasSourceData, SOURCE_DIR } from '../support/source-data.ts';

describe('slots', () => {
  it('lays exact proportional quotas end to end', () => {
    expect(slots({ a: 1, b: 1, c: 1 }, 10)).toEqual([
      { code: 'a', start: 0 },
      { code: 'b', start: 4 },
      { code: 'c', start: 7 },
    ]);
    expect(slots({ a: 0, b: 5 }, 3)).toEqual([{ code: 'b', start: 0 }]);
  });

  it('builds a CASE that picks the slot holding the key', () => {
    const list = slots({ a: 2, b: 3, c: 5 }, 10);
    expect(slotCase('k', list)).toBe("CASE WHEN k < 2 THEN 'a' ELSE CASE WHEN k < 5 THEN 'b' ELSE 'c' END END");
  });
});

/** Counts of one column per state in the generated CSVs. */
async function countsBy(connection: DuckDBConnection, files: string[], column: string): Promise<Map<string, Record<string, number>>> {
  const list = files.map(literal).join(', ');
  const reader = await connection.runAndReadAll(
    `SELECT state_code, CAST("${column}" AS VARCHAR), count(*) FROM read_csv([${list}], header = true, all_varchar = true, nullstr = 'NA') GROUP BY ALL`,
  );
  const result = new Map<string, Record<string, number>>();
  for (const [state, code, n] of reader.getRowsJS()) {
    const entry = result.get(String(state)) ?? {};
    entry[String(code)] = Number(n);
    result.set(String(state), entry);
  }
  return result;
}

/** Whether every generated count is within one record of the official count times the scale. */
function withinOneRecord(official: Record<string, number>, generated: Record<string, number>, rows: number): string[] {
  const total = Object.values(official).reduce((a, b) => a + b, 0);
  return Object.entries(official)
    .filter(([code, count]) => Math.abs((generated[code] ?? 0) - (count * rows) / total) >= 1)
    .map(([code, count]) => `${code}: generated ${generated[code] ?? 0}, expected ${(count * rows) / total}`);
}

describe.skipIf(!hasSourceData)('seed-scale SQL generator', () => {
  let instance: DuckDBInstance;
  let connection: DuckDBConnection;
  let work: string;
  beforeAll(async () => {
    instance = await openInstance({ threads: 2, memoryLimit: '1GB' });
    connection = await instance.connect();
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'mds-synthetic-sql-'));
  });
  afterAll(() => {
    connection.closeSync();
    instance.closeSync();
    fs.rmSync(work, { recursive: true, force: true });
  });

  it.each([
    [2019, 0.02],
    [2023, 0.05],
  ])('matches the %i aggregates by state, action taken, loan type, purpose and county at scale %f', async (year, scale) => {
    const calibration: Calibration = loadCalibration(SOURCE_DIR, year);
    const states = ['DE', 'NM', 'VT', 'WY'];
    const outDir = path.join(work, String(year));
    fs.mkdirSync(outDir);
    const files = await writeSyntheticStateYears(connection, { calibration, states, scale, outDir });
    expect(files.map((file) => path.basename(file.csvPath))).toEqual(states.map((state) => stateYearFileName(year, state)));
    expect(fs.readFileSync(files[0]!.csvPath, 'utf8').split('\n', 1)[0]).toBe(LAR_HEADER);
    const paths = files.map((file) => file.csvPath);

    // States in proportion: each state's rows are its official record count times the scale, rounded.
    const officialTotal = (state: string) => Object.values(calibration.states[state]!.actionTaken).reduce((a, b) => a + b, 0);
    for (const file of files) expect(Math.abs(file.rows - officialTotal(file.state) * scale)).toBeLessThanOrEqual(0.5);

    const checks: [string, (state: string) => Record<string, number>][] = [
      ['action_taken', (state) => calibration.states[state]!.actionTaken],
      ['loan_type', (state) => calibration.states[state]!.loanType],
      ['loan_purpose', (state) => calibration.states[state]!.loanPurpose ?? {}],
      ['county_code', (state) => Object.fromEntries(calibration.counties[state] ?? [])],
    ];
    for (const [column, official] of checks) {
      const generated = await countsBy(connection, paths, column);
      for (const file of files) {
        expect(withinOneRecord(official(file.state), generated.get(file.state) ?? {}, file.rows), `${column} ${file.state}`).toEqual([]);
      }
    }
    const leis = await connection.runAndReadAll(
      `SELECT count(*) FILTER (WHERE NOT starts_with(lei, 'SYNTHETIC') OR length(lei) <> 20) FROM read_csv([${paths.map(literal).join(', ')}], header = true, all_varchar = true)`,
    );
    expect(Number(leis.getRowsJS()[0]?.[0])).toBe(0);
  });

  it('writes files the loader publishes through the aggregate gate at scale 1, and the gate can refuse them', async () => {
    const calibration = loadCalibration(SOURCE_DIR, 2022);
    const outDir = path.join(work, 'gate');
    fs.mkdirSync(outDir);
    const files = await writeSyntheticStateYears(connection, { calibration, states: ['WY'], scale: 1, outDir });
    const larFiles = files.map((file) => ({
      csvPath: file.csvPath,
      sourceUrl: 'synthetic',
      checksum: 'synthetic',
      expect: { year: 2022, state: 'WY' },
    }));
    const load = (root: string, aggregates: Calibration['states']) =>
      loadLar(connection, { root, synthetic: true, files: larFiles, aggregatesFor: (year) => (year === 2022 ? aggregates : undefined) });

    const published = await load(path.join(work, 'warehouse'), calibration.states);
    expect(published.rows).toBe(planStateYear(calibration, 'WY', 1).rows);

    const wy = calibration.states.WY!;
    const altered = { ...calibration.states, WY: { ...wy, actionTaken: { ...wy.actionTaken, '1': (wy.actionTaken['1'] ?? 0) + 1 } } };
    await expect(load(path.join(work, 'refused'), altered)).rejects.toThrow(/do not match the official FFIEC state aggregates/);
  });
});
