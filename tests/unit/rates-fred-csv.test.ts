// FRED CSV parsing on every layout in the mirror, plus merging split files and the validation gates.
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseFredCsv } from '../../api/rates/sync/fred-csv.ts';
import { mergeParts, validateSeries } from '../../api/rates/sync/validate.ts';
import path from 'node:path';
import { PROJECT_ROOT } from '../../api/config.ts';
import { GRID_SERIES, SERIES } from '../../api/rates/series.ts';
import { SourceFormatError, ValidationError } from '../../api/sync/errors.ts';
import { hasSourceData, sourceFile } from '../support/source-data.ts';

const read = (...parts: string[]) => fs.readFileSync(sourceFile(...parts), 'utf8');

describe.skipIf(!hasSourceData)('FRED CSV layouts in the official mirror', () => {
  it('reads the observation_date header file up to the 2026-10-08 anchor week', () => {
    const observations = parseFredCsv(read('rates', 'MORTGAGE30US_weekly_1971_2026.csv'), 'f', 'MORTGAGE30US');
    expect(observations.length).toBeGreaterThanOrEqual(2_800);
    expect(observations[0]).toEqual({ date: '1971-04-02', value: 7.33 });
    expect(observations.at(-1)).toEqual({ date: '2026-10-08', value: 7.4 });
  });

  it('reads the date,value CRLF file with trailing zeros dropped, equal to the FRED-header copy', () => {
    const crlf = read('rates', 'pmms_2026', 'MORTGAGE30US_weekly_1971_to_2026-10-08_CRLF.csv');
    expect(crlf).toContain('\r\n');
    const observations = parseFredCsv(crlf, 'f', 'MORTGAGE30US');
    expect(observations.at(-1)).toEqual({ date: '2026-10-08', value: 7.4 });
    expect(observations.find((observation) => observation.date === '2026-10-01')?.value).toBe(7.28);
    const fredHeader = parseFredCsv(read('rates', 'MORTGAGE30US_weekly_1971_2026.csv'), 'f', 'MORTGAGE30US');
    expect(observations).toEqual(fredHeader);
  });

  it('reads the older DATE header and skips "." holiday values', () => {
    const text = read('rates', 'history_to_2024', 'OBMMIJUMBO30YF.csv');
    expect(text.startsWith('DATE,OBMMIJUMBO30YF')).toBe(true);
    const observations = parseFredCsv(text, 'f', 'OBMMIJUMBO30YF');
    const dataLines = text.trim().split('\n').length - 1;
    expect(observations.length).toBe(dataLines - 81); // SOURCES.md: 81 holiday rows are "."
    expect(observations[0]).toEqual({ date: '2017-01-03', value: 4.432 });
  });

  it('skips blank holiday values in the observation_date files', () => {
    const observations = parseFredCsv(read('rates', 'recent_2020_2025', 'OBMMIC30YF.csv'), 'f', 'OBMMIC30YF');
    expect(observations.length).toBe(1_304 - 59);
    expect(observations.some((observation) => observation.date === '2020-10-12')).toBe(false); // Columbus Day, blank
  });

  it('reads the 5/1 ARM file that has no header row', () => {
    const observations = parseFredCsv(read('rates', 'history_to_2022', 'MORTGAGE5US_noheader.csv'), 'f', 'MORTGAGE5US');
    expect(observations[0]).toEqual({ date: '2005-01-06', value: 5.03 });
    expect(observations.at(-1)).toEqual({ date: '2022-10-20', value: 5.71 });
    expect(observations.length).toBe(929);
  });

  it('merges the split 15-year files, which agree on their overlap, into the published merged series', () => {
    const history = parseFredCsv(read('rates', 'history_to_2024', 'MORTGAGE15US.csv'), 'a', 'MORTGAGE15US');
    const recent = parseFredCsv(read('rates', 'recent_2020_2025', 'MORTGAGE15US.csv'), 'b', 'MORTGAGE15US');
    const merged = mergeParts('MORTGAGE15US', [
      { file: 'a', observations: history },
      { file: 'b', observations: recent },
    ]);
    const published = parseFredCsv(read('rates', 'MORTGAGE15US_weekly_1991_2025.csv'), 'c', 'MORTGAGE15US');
    expect(merged).toEqual(published);
    expect(() => validateSeries(SERIES.MORTGAGE15US, merged)).not.toThrow();
  });
});

describe("Optimal Blue's FICO × LTV grid in FRED's download layout", () => {
  const grid = fs.readFileSync(path.join(PROJECT_ROOT, 'tests', 'fixtures', 'rates', 'fred-csv-OBMMIC30YFLVLE80FB720A739.csv'), 'utf8');

  it('reads a grid series under its own FRED header with the published values', () => {
    expect(grid.startsWith('observation_date,OBMMIC30YFLVLE80FB720A739\n')).toBe(true);
    expect(parseFredCsv(grid, 'f', 'OBMMIC30YFLVLE80FB720A739')).toEqual([
      { date: '2024-12-04', value: 6.614 },
      { date: '2025-01-07', value: 6.966 },
      { date: '2025-12-02', value: 6.259 },
      { date: '2025-12-03', value: 6.165 },
      { date: '2026-01-05', value: 6.085 },
      { date: '2026-01-06', value: 6.189 },
    ]);
  });

  it('refuses the file as another grid cell, and knows every grid series with its FRED page', () => {
    expect(() => parseFredCsv(grid, 'f', 'OBMMIC30YFLVGT80FB720A739')).toThrowError(
      /holds series OBMMIC30YFLVLE80FB720A739, not OBMMIC30YFLVGT80FB720A739/,
    );
    expect(GRID_SERIES).toHaveLength(10);
    for (const id of GRID_SERIES) {
      expect(SERIES[id]).toMatchObject({
        optional: true,
        publisher: 'Optimal Blue',
        frequency: 'daily',
        pageUrl: `https://fred.stlouisfed.org/series/${id}`,
        mirrorPaths: [`rates/fred/${id}.csv`],
      });
    }
    expect(SERIES.OBMMIC30YFLVGT80FB720A739.title).toBe('30-year fixed conforming, LTV > 80, FICO 720–739');
    expect(SERIES.OBMMIC30YFLVLE80FGE740.title).toBe('30-year fixed conforming, LTV ≤ 80, FICO 740 or higher');
  });
});

describe('FRED CSV errors name the file and line', () => {
  it('rejects a value that is not a number', () => {
    const text = 'observation_date,MORTGAGE30US\n2026-10-01,7.28\n2026-10-08,7.4O\n';
    expect(() => parseFredCsv(text, 'rates/x.csv', 'MORTGAGE30US')).toThrowError(/^rates\/x\.csv:3: value "7\.4O" is not a number/);
  });

  it('rejects a truncated row and an impossible date', () => {
    expect(() => parseFredCsv('DATE,MORTGAGE30US\n2026-10-01\n', 'x.csv', 'MORTGAGE30US')).toThrowError(/x\.csv:2: expected 2 fields/);
    expect(() => parseFredCsv('2026-02-30,6.1\n', 'x.csv', 'MORTGAGE30US')).toThrowError(/x\.csv:1: "2026-02-30" is not a date/);
  });

  it('rejects dates out of order and a file of another series', () => {
    expect(() => parseFredCsv('date,value\n2026-10-08,7.4\n2026-10-01,7.28\n', 'x.csv', 'MORTGAGE30US')).toThrowError(
      /x\.csv:3: date 2026-10-01 is not after/,
    );
    expect(() => parseFredCsv('observation_date,MORTGAGE15US\n2026-10-08,6.4\n', 'x.csv', 'MORTGAGE30US')).toThrowError(SourceFormatError);
  });

  it('accepts a BOM and quoted fields', () => {
    expect(parseFredCsv('\uFEFF"DATE","MORTGAGE30US"\r\n"2026-10-08","7.40"\r\n', 'x', 'MORTGAGE30US')).toEqual([
      { date: '2026-10-08', value: 7.4 },
    ]);
  });
});

describe('merge and validation gates', () => {
  const weekly = (count: number, value = 6.5) =>
    Array.from({ length: count }, (_, index) => ({
      date: new Date(Date.UTC(1971, 3, 2) + index * 7 * 86_400_000).toISOString().slice(0, 10),
      value,
    }));

  it('fails when overlapping files disagree, naming both files', () => {
    const a = { file: 'history.csv', observations: [{ date: '2024-01-04', value: 6.62 }] };
    const b = { file: 'recent.csv', observations: [{ date: '2024-01-04', value: 6.66 }] };
    expect(() => mergeParts('MORTGAGE30US', [a, b])).toThrowError(/history\.csv says 6\.62 but recent\.csv says 6\.66/);
  });

  it('fails a series with too few rows, a value out of range, or a missing week', () => {
    expect(() => validateSeries(SERIES.MORTGAGE30US, weekly(100))).toThrowError(/expected at least 2800/);
    const outOfRange = weekly(2_900);
    outOfRange[50] = { date: outOfRange[50]?.date ?? '', value: 66.5 };
    expect(() => validateSeries(SERIES.MORTGAGE30US, outOfRange)).toThrowError(/66\.5% is outside/);
    const gap = weekly(2_900).filter((_, index) => index !== 1_000);
    expect(() => validateSeries(SERIES.MORTGAGE30US, gap)).toThrowError(ValidationError);
    expect(() => validateSeries(SERIES.MORTGAGE30US, weekly(2_900))).not.toThrow();
  });
});
