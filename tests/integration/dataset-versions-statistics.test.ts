// Pinned statistics: the catalogue as first computed from the mirror, then recomputed after the
// weekly survey's newest week was revised. `as_of` the day of the first catalogue answers its PMMS
// statistic (Freddie Mac's figure, read here from the file) and names its version; today's answer has
// the revision.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../api/config.ts';
import { createLogger } from '../../api/platform/logger.ts';
import { datasetDefinitions } from '../../api/sync/registry.ts';
import { runSync } from '../../api/sync/runner.ts';
import { buildTestApp, listen, type TestApp } from '../support/app.ts';
import type { TestDatabase } from '../support/databases.ts';
import { connectMcp } from '../support/mcp-client.ts';
import { copyRates, NEWEST_WEEK, officialWeek, setNewestWeek } from '../support/revised-rates.ts';
import { hasSourceData } from '../support/source-data.ts';
import { syncedTestDatabase } from '../support/synced.ts';

interface StatisticsBody {
  stat?: { id: string; value: string; as_of: string };
  dataset_versions: { dataset: string; version: string; as_of: string | null }[];
}

/** The id of a statistic without a year, as catalogues archived before migration 0411 could hold. */
const UNDATED_ID = 'sample_share_20pct_down';

/** Makes the first archived catalogue look like one written while undated statistics were kept. */
async function addUndatedRowToArchive(database: TestDatabase): Promise<void> {
  const { rows } = await database.db.query<{ id: string; snapshot: Uint8Array | null }>(
    "SELECT id, snapshot FROM dataset_versions WHERE dataset = 'statistics'",
  );
  const archived = rows[0];
  expect(archived?.snapshot).toBeTruthy();
  const archive = JSON.parse(gunzipSync(archived?.snapshot as Uint8Array).toString('utf8')) as { rows: Record<string, unknown>[] };
  const dated = archive.rows.find((row) => row.category === 'down_payment') as Record<string, unknown>;
  archive.rows.push({
    ...dated,
    id: UNDATED_ID,
    data_year: null,
    data_year_note: 'The publisher states neither the year nor the state of its records.',
  });
  await database.db.query('UPDATE dataset_versions SET snapshot = $1 WHERE id = $2', [gzipSync(JSON.stringify(archive)), archived?.id]);
}

describe.skipIf(!hasSourceData)('pinned statistics', () => {
  let database: TestDatabase;
  let folder: string;
  let testApp: TestApp;
  let server: Awaited<ReturnType<typeof listen>>;
  let first: string | undefined;
  let revised: string | undefined;
  const firstDay = new Date().toISOString().slice(0, 10);
  const later = (days: number, time = '10:00:00') =>
    `${new Date(Date.parse(`${firstDay}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10)}T${time}Z`;
  const official = hasSourceData ? officialWeek(NEWEST_WEEK) : 0;
  const changed = Math.round((official - 0.3) * 100) / 100;

  const get = async (query: string) => {
    const response = await fetch(`${server.url}/api/v1/statistics?id=pmms_30yr_latest${query}`);
    return { status: response.status, body: (await response.json()) as StatisticsBody };
  };
  const statisticsVersion = (body: StatisticsBody) => body.dataset_versions.find((entry) => entry.dataset === 'statistics')?.version;

  beforeAll(async () => {
    // The catalogue as first computed (today, from the mirror), then the survey revised two days later.
    database = await syncedTestDatabase('pglite', ['statistics']);
    first = (await database.db.query<{ version: string }>("SELECT version FROM dataset_versions WHERE dataset = 'statistics'")).rows[0]
      ?.version;
    await addUndatedRowToArchive(database);
    folder = fs.mkdtempSync(path.join(os.tmpdir(), 'mds-statistics-versions-'));
    copyRates(folder);
    setNewestWeek(folder, changed);
    const report = await runSync(database.db, datasetDefinitions, {
      names: ['pmms', 'statistics'],
      logger: createLogger('silent'),
      config: loadConfig({ LOG_LEVEL: 'silent', NODE_ENV: 'test', MDS_SOURCE_DIR: folder }),
      clock: () => new Date(later(2)),
    });
    expect(report.results.map((result) => result.status)).toEqual(['ok', 'ok']);
    revised = report.results.find((result) => result.name === 'statistics')?.version;
    testApp = await buildTestApp(database.db, { clock: () => new Date(later(3, '12:00:00')) });
    server = await listen(testApp.app);
  }, 300_000);

  afterAll(async () => {
    await server?.close();
    await testApp?.close();
    await database?.drop();
    if (folder) fs.rmSync(folder, { recursive: true, force: true });
  });

  it('answers the first day from the first catalogue, and today from the recomputed one', async () => {
    expect(first).toMatch(/^\d{4}-\d{2}-\d{2}\.[0-9a-f]{8}$/);
    expect(revised).not.toBe(first);

    const pinned = await get(`&as_of=${firstDay}`);
    expect(pinned.status).toBe(200);
    expect(pinned.body.stat?.value).toBe(`${official.toFixed(2)}%`);
    expect(pinned.body.stat?.as_of).toBe(NEWEST_WEEK);
    expect(statisticsVersion(pinned.body)).toBe(first);

    const current = await get('');
    expect(current.body.stat?.value).toBe(`${changed.toFixed(2)}%`);
    expect(statisticsVersion(current.body)).toBe(revised);
    expect((await get(`&as_of=${later(2).slice(0, 10)}`)).body).toEqual(current.body);
  });

  it('leaves a statistic without a year out of an archived catalogue, so every record states one', async () => {
    const response = await fetch(`${server.url}/api/v1/statistics?category=down_payment&all=true&as_of=${firstDay}`);
    expect(response.status).toBe(200);
    const body = (await response.json()) as { stats: { id: string; data_year: unknown }[] };
    expect(body.stats.length).toBeGreaterThan(0);
    expect(body.stats.map((stat) => stat.id)).not.toContain(UNDATED_ID);
    for (const stat of body.stats) expect(Number.isInteger(stat.data_year), stat.id).toBe(true);
  });

  it('pins get_statistics the same way, and refuses a day before the first catalogue', async () => {
    const client = await connectMcp(server.url);
    try {
      const result = await client.callTool({ name: 'get_statistics', arguments: { id: 'pmms_30yr_latest', as_of: firstDay } });
      expect(result.isError).toBeFalsy();
      const answer = result.structuredContent as unknown as {
        stats: { value: string }[];
        dataset_versions: StatisticsBody['dataset_versions'];
      };
      expect(answer.stats[0]?.value).toBe(`${official.toFixed(2)}%`);
      expect(answer.dataset_versions).toEqual([expect.objectContaining({ dataset: 'statistics', version: first })]);
    } finally {
      await client.close();
    }
    const before = await get(`&as_of=${later(-1).slice(0, 10)}`);
    expect(before.status).toBe(404);
  });
});
