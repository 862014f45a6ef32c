// `npm run sync` for the loan-limit datasets on both databases: a full load, an identical second run
// that changes nothing, a broken row that fails only its dataset (file:line in the message, the
// earlier load still served, non-zero exit from the CLI), and the advisory lock refusing a second sync.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../api/config.ts';
import { AdvisoryLocks } from '../../api/platform/db/database.ts';
import { SyncInProgressError } from '../../api/sync/runner.ts';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../support/databases.ts';
import { hasSourceData, SOURCE_DIR } from '../support/source-data.ts';
import { syncInto } from '../support/synced.ts';

const LOAN_LIMITS = ['loan_limits_conforming', 'loan_limits_fha'];

/** A copy of the mirror's geography and loan-limit files with line 42 of the 2025 FHFA file broken. */
function brokenMirror(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mds-broken-mirror-'));
  for (const part of ['geo', 'loan_limits/fhfa_conforming', 'loan_limits/hud_fha']) {
    fs.cpSync(path.join(SOURCE_DIR, part), path.join(dir, part), { recursive: true, dereference: true });
  }
  const file = path.join(dir, 'loan_limits/fhfa_conforming/FullCountyLoanLimitList2025.txt');
  fs.chmodSync(file, 0o644);
  const lines = fs.readFileSync(file, 'utf8').split('\n');
  lines[41] = (lines[41] ?? '').replace(/\|(\d+)\|(\d+)\|(\d+)\|(\d+)$/, '|80650x|$2|$3|$4');
  fs.writeFileSync(file, lines.join('\n'));
  return dir;
}

async function datasetRow(database: TestDatabase, name: string) {
  const { rows } = await database.db.query<{ checksum: string; row_count: number; loaded_at: unknown }>(
    'SELECT checksum, row_count, loaded_at FROM datasets WHERE name = $1',
    [name],
  );
  return rows[0];
}

describe.skipIf(!hasSourceData).each(databaseKinds)('loan-limit sync on %s', (kind) => {
  let database: TestDatabase;
  let mirror: string;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    mirror = brokenMirror();
  });

  afterAll(async () => {
    await database?.drop();
    if (mirror) fs.rmSync(mirror, { recursive: true, force: true });
  });

  it('loads every county for every year, then a second sync reports zero changes', async () => {
    const first = await syncInto(database.db, LOAN_LIMITS);
    expect(first.results.map((result) => [result.name, result.status])).toEqual([
      ['counties', 'ok'],
      ['loan_limits_conforming', 'ok'],
      ['loan_limits_fha', 'ok'],
    ]);
    expect(first.results.every((result) => (result.changed ?? 0) > 3_000)).toBe(true);

    const { rows: perYear } = await database.db.query<{ program: string; year: number; n: string | number }>(
      'SELECT program, year, count(*) AS n FROM loan_limits GROUP BY program, year ORDER BY program, year',
    );
    expect(perYear.filter((row) => row.program === 'conforming').map((row) => Number(row.year))).toEqual([
      2018, 2019, 2020, 2021, 2022, 2023, 2024, 2025, 2026,
    ]);
    expect(perYear.filter((row) => row.program === 'fha').map((row) => Number(row.year))).toEqual([
      2018, 2019, 2021, 2022, 2023, 2024, 2025,
    ]);
    expect(perYear.every((row) => Number(row.n) >= 3_200)).toBe(true);

    const second = await syncInto(database.db, ['counties', ...LOAN_LIMITS]);
    expect(second.results.map((result) => [result.name, result.status, result.changed])).toEqual([
      ['counties', 'ok', 0],
      ['loan_limits_conforming', 'ok', 0],
      ['loan_limits_fha', 'ok', 0],
    ]);
    const { rows: runs } = await database.db.query<{ n: string | number }>("SELECT count(*) AS n FROM sync_runs WHERE status = 'ok'");
    expect(Number(runs[0]?.n)).toBe(6);
  }, 240_000); // two full syncs: slow on a busy two-core machine

  it('fails only the dataset with a broken row, naming file and line, and keeps its earlier load', async () => {
    const before = await datasetRow(database, 'loan_limits_conforming');
    const report = await syncInto(database.db, LOAN_LIMITS, { sourceDir: mirror });
    const conforming = report.results.find((result) => result.name === 'loan_limits_conforming');
    expect(report.ok).toBe(false);
    expect(conforming?.status).toBe('failed');
    expect(conforming?.message).toMatch(/FullCountyLoanLimitList2025\.txt:42: 1-unit limit "80650x" is not a whole number/);
    expect(report.results.find((result) => result.name === 'loan_limits_fha')?.status).toBe('ok');

    expect(await datasetRow(database, 'loan_limits_conforming')).toEqual(before);
    const { rows } = await database.db.query<{ limit_1: number }>(
      "SELECT limit_1 FROM loan_limits WHERE program = 'conforming' AND year = 2025 AND fips = '06037'",
    );
    expect(rows[0]?.limit_1).toBe(1_209_750);
    const { rows: failures } = await database.db.query<{ message: string }>(
      "SELECT message FROM sync_runs WHERE status = 'failed' AND dataset = 'loan_limits_conforming'",
    );
    expect(failures[0]?.message).toMatch(/:42:/);
  }, 120_000);

  it('refuses a second sync while one holds the advisory lock', async () => {
    const outcome = await database.db.withAdvisoryLock(AdvisoryLocks.sync, async () => {
      await expect(syncInto(database.db, ['counties'])).rejects.toThrow(SyncInProgressError);
      return 'held';
    });
    expect(outcome).toEqual({ acquired: true, value: 'held' });
  });

  it.runIf(kind === 'postgres')(
    'exits non-zero from the CLI with the file and line in the summary',
    () => {
      const result = spawnSync(process.execPath, [path.join(PROJECT_ROOT, 'scripts/sync.ts'), 'loan_limits_conforming'], {
        cwd: PROJECT_ROOT,
        env: { ...process.env, DATABASE_URL: database.url, MDS_SOURCE_DIR: mirror, LOG_LEVEL: 'silent' },
        encoding: 'utf8',
        timeout: 120_000,
      });
      expect(result.status).toBe(1);
      expect(result.stdout).toMatch(/loan_limits_conforming\s+failed\s+[\d.]+\s+\S*FullCountyLoanLimitList2025\.txt:42:/);
      expect(result.stderr).toMatch(/loan_limits_conforming: FAILED/);
    },
    150_000,
  );
});
