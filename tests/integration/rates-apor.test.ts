// The FFIEC's APOR table as a dataset: on the shared mirror (no copy of the table) it is missing in
// /healthz, not failed, and so is the state estimate without HMDA loans, so a fresh install has no
// dataset in a failed state; from a table in the published layout (synthetic values) the 10- and
// 20-year terms answer from it, labelled not tier-specific, with its weekly schedule.
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readHealth } from '../../api/health/route.ts';
import { DetailedRateRecordSchema } from '../../api/rates/contract.ts';
import type { TestDatabase } from '../support/databases.ts';
import { buildTestApp, listen, type TestApp } from '../support/app.ts';
import { writeAporMirror, syntheticApor } from '../support/apor-fixture.ts';
import { hasSourceData, SOURCE_DIR } from '../support/source-data.ts';
import { syncedTestDatabase, syncInto } from '../support/synced.ts';
import { tempDir } from './hmda-fixtures.ts';

const LAST_MONDAY = '2026-11-23';
const WEEKS = 120;

describe.skipIf(!hasSourceData)('APOR terms and a fresh install without failed datasets', () => {
  let database: TestDatabase;
  let testApp: TestApp;
  let server: Awaited<ReturnType<typeof listen>>;
  const folders: string[] = [];

  beforeAll(async () => {
    database = await syncedTestDatabase('pglite', ['pmms', 'optimal_blue']);
    const hmdaDir = tempDir('apor-hmda');
    folders.push(hmdaDir);
    testApp = await buildTestApp(database.db, { env: { HMDA_DIR: hmdaDir }, clock: () => new Date('2026-11-27T15:00:00Z') });
    server = await listen(testApp.app);
  }, 300_000);

  afterAll(async () => {
    await server?.close();
    await testApp?.close();
    await database?.drop();
    for (const dir of folders) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('reports the APOR table and the state estimate missing on the shared mirror, not failed, and 10/20-year terms as not loaded', async () => {
    const report = await syncInto(database.db, ['apor']);
    expect(report.results[0]).toMatchObject({ status: 'skipped' });
    expect(report.results[0]?.message).toMatch(/not available from the source folder \(rates\/apor\/YieldTableFixed\.txt\)/);
    const estimates = await syncInto(database.db, ['state_rate_estimates']);
    expect(estimates.results[0]).toMatchObject({ status: 'skipped' });
    testApp.deps.services.datasets.invalidate();
    const health = await readHealth(testApp.deps);
    expect(health.datasets.apor).toMatchObject({ state: 'missing', missing: [expect.stringMatching(/APOR table is not available/)] });
    expect(health.datasets.state_rate_estimates).toMatchObject({ state: 'missing' });
    expect(Object.entries(health.datasets).filter(([, entry]) => entry.state === 'failed')).toEqual([]);
    const response = await fetch(`${server.url}/api/v1/rates?loan_term=20`);
    expect(response.status).toBe(404);
    expect(((await response.json()) as { error: string }).error).toMatch(
      /the FFIEC Average Prime Offer Rate \(20-year fixed\) is not loaded/,
    );
  });

  it('answers 10- and 20-year terms from a loaded table, labelled as the APOR and not tier-specific', async () => {
    const mirror = tempDir('apor-mirror');
    folders.push(mirror);
    fs.cpSync(SOURCE_DIR, mirror, {
      recursive: true,
      filter: (source) => !source.includes('hmda') && !source.includes('state_nmdb') && !source.includes('congress'),
    });
    writeAporMirror(mirror, LAST_MONDAY, WEEKS);
    const report = await syncInto(database.db, ['apor'], { sourceDir: mirror });
    expect(report.results[0]).toMatchObject({ status: 'ok', asOf: LAST_MONDAY, rows: WEEKS * 50 });
    testApp.deps.services.rates.invalidate();
    for (const term of [20, 10] as const) {
      const body = DetailedRateRecordSchema.strict().parse(
        await (await fetch(`${server.url}/api/v1/rates?state=TX&fico=4&ltv=2&loan_term=${term}`)).json(),
      );
      // The newest week on or before the latest national figure (2026-10-08): the table's dates run ahead.
      expect(body.loan_term).toBe(term);
      expect(body.source).toBe(`FFIEC Average Prime Offer Rate (${term}-year fixed), national`);
      expect(body).toMatchObject({ tier_specific: false, rate_kind: 'national' });
      expect(body.last_updated).toBe('2026-10-05');
      const week = WEEKS - 1 - 7; // 2026-10-05 is seven Mondays before 2026-11-23
      expect(body.rate).toBe(syntheticApor(week, term));
      expect(body.freshness[0]).toMatchObject({
        field: 'rate',
        schedule: expect.stringMatching(/^weekly, for the week starting each Monday/),
      });
      expect(body.disclaimer).toMatch(/not specific to the FICO or LTV tier asked for/);
    }
  }, 300_000);
});
