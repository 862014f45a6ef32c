// Pinned loan limits through the real sync runner: FHFA's files through 2025 loaded on one day, then
// with 2026 on a later day. Asked `as_of` the first day, every face answers from that load's archived
// snapshot (2025's limits, its version named), the same as the tables answered then; the current
// answer has 2026's. Figures are checked against FHFA's files, read here.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../api/config.ts';
import type { Database } from '../../api/platform/db/database.ts';
import { createLogger } from '../../api/platform/logger.ts';
import { datasetDefinitions } from '../../api/sync/registry.ts';
import { runSync } from '../../api/sync/runner.ts';
import { buildTestApp, listen, type TestApp } from '../support/app.ts';
import { createTestDatabase, type TestDatabase } from '../support/databases.ts';
import { connectMcp } from '../support/mcp-client.ts';
import { hasSourceData, SOURCE_DIR } from '../support/source-data.ts';

const FHFA = 'loan_limits/fhfa_conforming';

/** A county's four limits in FHFA's pipe-delimited file of a year. */
function fhfaLimits(year: number, stateFips: string, countyFips: string): number[] {
  const text = fs.readFileSync(path.join(SOURCE_DIR, FHFA, `FullCountyLoanLimitList${year}.txt`), 'utf8');
  const line = text.split(/\r?\n/).find((candidate) => candidate.startsWith(`${stateFips}|${countyFips}|`));
  if (!line) throw new Error(`${stateFips}${countyFips} is not in FHFA's ${year} file`);
  return line.split('|').slice(5, 9).map(Number);
}

/** The national one-unit ceiling of a year, from the mirror's summary of FHFA's announcements. */
function ceiling(year: number): number {
  const lines = fs
    .readFileSync(path.join(SOURCE_DIR, 'loan_limits', 'national_limits_summary_2018_2026_DERIVED.csv'), 'utf8')
    .trim()
    .split(/\r?\n/);
  const columns = (lines[0] ?? '').split(',');
  const row = lines.find((line) => line.startsWith(`${year},`))?.split(',') ?? [];
  return Number(row[columns.indexOf('gse_ceiling_1unit')]);
}

async function syncAt(db: Database, names: string[], iso: string, options: Record<string, string> = {}) {
  const report = await runSync(db, datasetDefinitions, {
    names,
    options,
    logger: createLogger('silent'),
    config: loadConfig({ LOG_LEVEL: 'silent', NODE_ENV: 'test', MDS_SOURCE_DIR: SOURCE_DIR }),
    clock: () => new Date(iso),
  });
  const failed = report.results.filter((result) => result.status !== 'ok');
  if (failed.length > 0) throw new Error(failed.map((result) => `${result.name}: ${result.message}`).join('; '));
  return report.results;
}

interface LimitsBody {
  years: { conforming?: number };
  counties: { fips: string; conforming?: { year?: number; limits: Record<string, number> | null } }[];
  sources: { url: string; as_of: string | null; loan_type: string }[];
  dataset_versions: { dataset: string; version: string; as_of: string | null }[];
  error?: string;
}

describe.skipIf(!hasSourceData)('pinned loan limits', () => {
  let database: TestDatabase;
  let testApp: TestApp;
  let server: Awaited<ReturnType<typeof listen>>;
  let through2025: string | undefined;
  let with2026: string | undefined;

  const get = async (query: string) => {
    const response = await fetch(`${server.url}/api/v1/loan-limits?${query}`);
    return { status: response.status, body: (await response.json()) as LimitsBody };
  };
  const versionOf = (body: LimitsBody, dataset: string) => body.dataset_versions.find((entry) => entry.dataset === dataset)?.version;

  beforeAll(async () => {
    database = await createTestDatabase('pglite');
    const first = await syncAt(database.db, ['counties', 'loan_limits_conforming'], '2026-01-05T09:00:00Z', { years: '2018-2025' });
    through2025 = first.find((result) => result.name === 'loan_limits_conforming')?.version;
    with2026 = (await syncAt(database.db, ['loan_limits_conforming'], '2026-01-07T09:00:00Z'))[0]?.version;
    testApp = await buildTestApp(database.db, { clock: () => new Date('2026-01-08T12:00:00Z') });
    server = await listen(testApp.app);
  }, 240_000);

  afterAll(async () => {
    await server?.close();
    await testApp?.close();
    await database?.drop();
  });

  it('answers the day of the first load with its 2025 limits, and today with 2026', async () => {
    expect(through2025).toMatch(/^2025-01-01\.[0-9a-f]{8}$/);
    expect(with2026).toMatch(/^2026-01-01\.[0-9a-f]{8}$/);
    const query = 'state=CA&county=Los%20Angeles&loan_type=conforming';
    const pinned = await get(`${query}&as_of=2026-01-05`);
    expect(pinned.status).toBe(200);
    expect(pinned.body.years.conforming).toBe(2025);
    expect(Object.values(pinned.body.counties[0]?.conforming?.limits ?? {})).toEqual(fhfaLimits(2025, '06', '037'));
    expect(versionOf(pinned.body, 'loan_limits_conforming')).toBe(through2025);
    expect(versionOf(pinned.body, 'counties')).toMatch(/^\d{4}-\d{2}-\d{2}\.[0-9a-f]{8}$/);

    const current = await get(query);
    expect(current.body.years.conforming).toBe(2026);
    expect(current.body.counties[0]?.conforming?.limits?.['1']).toBe(ceiling(2026));
    expect(versionOf(current.body, 'loan_limits_conforming')).toBe(with2026);
    expect((await get(`${query}&as_of=2026-01-07`)).body).toEqual(current.body);
  });

  it('gives the same answer from the archive as the tables gave for that load', async () => {
    // 2019 is in both loads: the pinned answer (archived snapshot) and the current one (tables) differ only in the versions named.
    const query = 'state=DE&year=2019&loan_type=conforming';
    const pinned = await get(`${query}&as_of=2026-01-06`);
    const current = await get(query);
    expect(pinned.status).toBe(200);
    expect(pinned.body.counties.length).toBeGreaterThan(0);
    const { dataset_versions: pinnedVersions, ...pinnedRest } = pinned.body;
    const { dataset_versions: currentVersions, ...currentRest } = current.body;
    expect(pinnedRest).toEqual(currentRest);
    expect(pinnedVersions).not.toEqual(currentVersions);
    for (const county of pinned.body.counties) {
      expect(Object.values(county.conforming?.limits ?? {})).toEqual(fhfaLimits(2019, county.fips.slice(0, 2), county.fips.slice(2)));
    }
  });

  it('says which years a pinned load held, and pins the MCP tool the same way', async () => {
    const missing = await get('state=CA&county=Los%20Angeles&loan_type=conforming&year=2026&as_of=2026-01-05');
    expect(missing.status).toBe(404);
    expect(missing.body.error).toContain('2025');
    const client = await connectMcp(server.url);
    try {
      const result = await client.callTool({
        name: 'get_loan_limits',
        arguments: { state: 'CA', county: 'Los Angeles', loan_type: 'conforming', as_of: '2026-01-05' },
      });
      expect(result.isError).toBeFalsy();
      const answer = result.structuredContent as unknown as LimitsBody;
      expect(answer.years.conforming).toBe(2025);
      expect(versionOf(answer, 'loan_limits_conforming')).toBe(through2025);
    } finally {
      await client.close();
    }
  });
});
