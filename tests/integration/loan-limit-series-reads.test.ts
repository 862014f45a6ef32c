// The county loan limits as series, read from a database synced from FHFA's and HUD's files: each
// county's figures as its rows give them, and what counties share (a year's baseline, the same
// years) held once and frozen, so the research pages do not keep a copy per county and year.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readCountyLimitSeries } from '../../api/loan-limits/series-reads.ts';
import type { TestDatabase } from '../support/databases.ts';
import { syncedTestDatabase } from '../support/synced.ts';

describe('county loan-limit series', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await syncedTestDatabase('pglite', ['counties', 'loan_limits_conforming', 'loan_limits_fha']);
  }, 900_000);
  afterAll(async () => {
    await database?.drop();
  });

  it("gives every county's limits as its rows do, year by year", async () => {
    const series = await readCountyLimitSeries(database.db);
    const { rows } = await database.db.query<{ program: string; fips: string; year: number; limit_1: number; limit_4: number }>(
      `SELECT program, fips, year, limit_1, limit_4 FROM loan_limits WHERE fips IN ('06037', '48201', '01001') ORDER BY program, fips, year`,
    );
    expect(rows.length).toBeGreaterThan(10);
    for (const row of rows) {
      const entry = series.get(`${row.program}|${row.fips}`);
      const at = entry?.years.indexOf(Number(row.year)) ?? -1;
      expect(at, `${row.program} ${row.fips} ${row.year}`).toBeGreaterThanOrEqual(0);
      expect(entry?.limits[at]?.[0]).toBe(Number(row.limit_1));
      expect(entry?.limits[at]?.[3]).toBe(Number(row.limit_4));
    }
  });

  it('holds equal figures once, frozen', async () => {
    const series = await readCountyLimitSeries(database.db, 'conforming');
    const entries = [...series.values()];
    const latest = Math.max(...entries.flatMap((entry) => entry.years));
    const current = entries.filter((entry) => entry.years.at(-1) === latest);
    const baseline = Math.min(...current.map((entry) => entry.limits.at(-1)?.[0] ?? Infinity));
    const atBaseline = current.filter((entry) => entry.limits.at(-1)?.[0] === baseline);
    expect(atBaseline.length).toBeGreaterThan(1_000);
    // Every county at the baseline holds the one tuple of that year, and counties with the same years one array of them.
    expect(new Set(atBaseline.map((entry) => entry.limits.at(-1))).size).toBe(1);
    expect(new Set(entries.map((entry) => entry.years)).size).toBeLessThan(20);
    const [first] = atBaseline;
    expect(Object.isFrozen(first!.limits)).toBe(true);
    expect(Object.isFrozen(first!.limits.at(-1))).toBe(true);
    expect(Object.isFrozen(first!.years)).toBe(true);
  });
});
