// The series service before and after syncs: a family whose dataset was never loaded answers 503
// (the dataset-state words, Retry-After) while the catalogue lists it as unavailable and the other
// families still answer; after a sync it answers, and a later sync that adds a week is noticed in
// the background and served without any call to invalidate().
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatasetStatus } from '../../api/platform/datasets.ts';
import { createSeriesService, type SeriesService } from '../../api/series/service.ts';
import { buildTestApp, listen, testConfig, type TestApp } from '../support/app.ts';
import { createTestDatabase, type TestDatabase } from '../support/databases.ts';
import { createLogger } from '../../api/platform/logger.ts';
import { hasSourceData, SOURCE_DIR } from '../support/source-data.ts';
import { syncInto } from '../support/synced.ts';

describe.skipIf(!hasSourceData)('series before and after a sync', () => {
  let database: TestDatabase;
  let testApp: TestApp;
  let server: Awaited<ReturnType<typeof listen>>;
  let mirror: string;

  beforeAll(async () => {
    database = await createTestDatabase('pglite');
    testApp = await buildTestApp(database.db);
    server = await listen(testApp.app);
    mirror = fs.mkdtempSync(path.join(os.tmpdir(), 'mds-series-mirror-'));
    fs.cpSync(path.join(SOURCE_DIR, 'rates'), path.join(mirror, 'rates'), {
      recursive: true,
      dereference: true,
      filter: (source) => !source.includes('state_nmdb'),
    });
    for (const file of fs.readdirSync(mirror, { recursive: true, withFileTypes: true })) {
      fs.chmodSync(path.join(file.parentPath, file.name), file.isDirectory() ? 0o755 : 0o644);
    }
  });
  afterAll(async () => {
    await server?.close();
    await testApp?.close();
    await database?.drop();
    if (mirror) fs.rmSync(mirror, { recursive: true, force: true });
  });

  it('answers 503 for a family never loaded, and lists it as unavailable beside the families that answer', async () => {
    const response = await fetch(`${server.url}/api/v1/series/pmms/30-year`);
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe('300');
    expect(((await response.json()) as { error: string }).error).toBe(
      'The pmms dataset is not loaded yet: this service has never loaded it.',
    );

    const catalogue = (await (await fetch(`${server.url}/api/v1/series`)).json()) as {
      families: { id: string; available: boolean; message?: string }[];
      series: { id: string }[];
    };
    expect(catalogue.families.find((family) => family.id === 'pmms')).toMatchObject({
      available: false,
      message: 'The pmms dataset is not loaded yet: this service has never loaded it.',
    });
    // The national loan-limit history ships with the service: it answers without any dataset.
    expect(catalogue.families.find((family) => family.id === 'loan-limits-national')).toMatchObject({ available: true });
    expect(catalogue.series.map((series) => series.id)).toEqual([
      'loan-limits/conforming/baseline',
      'loan-limits/conforming/ceiling',
      'loan-limits/fha/floor',
      'loan-limits/fha/ceiling',
    ]);
    expect((await fetch(`${server.url}/api/v1/series/loan-limits/fha/floor?from=2008&to=2008`)).status).toBe(200);
  });

  it('serves a sync, and notices a later one in the background', async () => {
    const first = await syncInto(database.db, ['pmms'], { sourceDir: mirror });
    expect(first.results[0]?.status).toBe('ok');
    // A service that checks the datasets on every request, so the test need not wait five seconds.
    const config = testConfig();
    const service: SeriesService = createSeriesService({
      baseUrl: config.baseUrl,
      db: database.db,
      logger: createLogger('silent'),
      datasets: createDatasetStatus({ db: database.db, cacheMs: 0 }),
      checkIntervalMs: 0,
    });
    const before = await service.answer('pmms/30-year', { from: '2026-10' });
    expect(before.observations.map((row) => row.date)).toEqual(['2026-10-01', '2026-10-08']);

    const file = path.join(mirror, 'rates/MORTGAGE30US_weekly_1971_2026.csv');
    fs.appendFileSync(file, '2026-10-15,7.45\n');
    const second = await syncInto(database.db, ['pmms'], { sourceDir: mirror });
    expect(second.results[0]).toMatchObject({ status: 'ok', asOf: '2026-10-15' });

    const deadline = Date.now() + 10_000;
    let after = await service.answer('pmms/30-year', { from: '2026-10' });
    while (after.observations.length < 3 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      after = await service.answer('pmms/30-year', { from: '2026-10' });
    }
    expect(after.observations.at(-1)).toEqual({ date: '2026-10-15', value: 7.45 });
    expect(after.as_of).toBe('2026-10-15');
  });
});
