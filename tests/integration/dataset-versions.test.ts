// Pinned dataset versions through the real sync runner, on both databases: the weekly survey synced
// from a copy of the mirror, then again with one figure changed, answers each day's figures by
// `as_of` (REST and MCP) with the version ids named; the last 8 loads are kept and an older day
// answers 410 naming the oldest kept version. Figures are checked against Freddie Mac's file, read
// here.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../api/config.ts';
import type { Database } from '../../api/platform/db/database.ts';
import { createLogger } from '../../api/platform/logger.ts';
import { datasetDefinitions } from '../../api/sync/registry.ts';
import { runSync } from '../../api/sync/runner.ts';
import { buildTestApp, listen, type TestApp } from '../support/app.ts';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../support/databases.ts';
import { connectMcp } from '../support/mcp-client.ts';
import { postAsk, readAskStream } from '../support/sse.ts';
import { hasSourceData } from '../support/source-data.ts';
import { copyRates, NEWEST_WEEK, officialWeek, setNewestWeek } from '../support/revised-rates.ts';

const at = (iso: string) => () => new Date(iso);

async function syncAt(db: Database, names: string[], sourceDir: string, iso: string) {
  const report = await runSync(db, datasetDefinitions, {
    names,
    logger: createLogger('silent'),
    config: loadConfig({ LOG_LEVEL: 'silent', NODE_ENV: 'test', MDS_SOURCE_DIR: sourceDir }),
    clock: at(iso),
  });
  const failed = report.results.filter((result) => result.status !== 'ok');
  if (failed.length > 0) throw new Error(failed.map((result) => `${result.name}: ${result.message}`).join('; '));
  return report.results;
}

interface RateBody {
  rate: number;
  survey_rate: number;
  survey_last_updated: string;
  dataset_versions: { dataset: string; version: string; as_of: string | null }[];
}

describe.skipIf(!hasSourceData).each(databaseKinds)('pinned dataset versions (%s)', (kind) => {
  let database: TestDatabase;
  let folder: string;
  let testApp: TestApp;
  let server: Awaited<ReturnType<typeof listen>>;
  const official = hasSourceData ? officialWeek(NEWEST_WEEK) : 0;
  const changed = Math.round((official - 0.25) * 100) / 100;
  let first: string | undefined;
  let second: string | undefined;

  const get = async (query: string) => {
    const response = await fetch(`${server.url}/api/v1/rates?${query}`);
    return { status: response.status, body: (await response.json()) as RateBody & { error?: string } };
  };
  const versionOf = (body: RateBody, dataset: string) => body.dataset_versions.find((entry) => entry.dataset === dataset)?.version;

  beforeAll(async () => {
    folder = fs.mkdtempSync(path.join(os.tmpdir(), 'mds-versions-'));
    copyRates(folder);
    database = await createTestDatabase(kind);
    // Day 1: the mirror as published; day 3: the newest week revised.
    const [pmms] = await syncAt(database.db, ['pmms', 'optimal_blue'], folder, '2026-11-02T10:00:00Z');
    first = pmms?.version;
    setNewestWeek(folder, changed);
    second = (await syncAt(database.db, ['pmms'], folder, '2026-11-04T10:00:00Z'))[0]?.version;
    testApp = await buildTestApp(database.db, { clock: at('2026-11-05T12:00:00Z') });
    server = await listen(testApp.app);
  }, 180_000);

  afterAll(async () => {
    await server?.close();
    await testApp?.close();
    await database?.drop();
    fs.rmSync(folder, { recursive: true, force: true });
  });

  it('names each load by its vintage and content checksum', () => {
    expect(first).toMatch(new RegExp(`^${NEWEST_WEEK}\\.[0-9a-f]{8}$`));
    expect(second).toMatch(new RegExp(`^${NEWEST_WEEK}\\.[0-9a-f]{8}$`));
    expect(second).not.toBe(first);
  });

  it('answers each day with the figures served that day, naming the versions', async () => {
    const current = await get('state=TX');
    expect(current.status).toBe(200);
    expect(current.body.survey_last_updated).toBe(NEWEST_WEEK);
    expect(current.body.survey_rate).toBe(changed);
    expect(versionOf(current.body, 'pmms')).toBe(second);

    for (const day of ['2026-11-02', '2026-11-03']) {
      const pinned = await get(`state=TX&as_of=${day}`);
      expect(pinned.status).toBe(200);
      expect(pinned.body.survey_rate).toBe(official);
      expect(pinned.body.rate).toBe(official);
      expect(versionOf(pinned.body, 'pmms')).toBe(first);
      expect(versionOf(pinned.body, 'optimal_blue')).toMatch(/^\d{4}-\d{2}-\d{2}\.[0-9a-f]{8}$/);
    }
    const later = await get('state=TX&as_of=2026-11-04');
    expect(later.body.survey_rate).toBe(changed);
    expect(versionOf(later.body, 'pmms')).toBe(second);
  });

  it('names the version behind a series answer too', async () => {
    const response = await fetch(`${server.url}/api/v1/series/pmms/30-year?from=${NEWEST_WEEK}`);
    const body = (await response.json()) as { observations: { value: number }[]; dataset_versions: RateBody['dataset_versions'] };
    expect(body.observations.map((observation) => observation.value)).toEqual([changed]);
    expect(body.dataset_versions).toEqual([{ dataset: 'pmms', version: second, as_of: NEWEST_WEEK }]);
  });

  it('pins MCP answers the same way', async () => {
    const client = await connectMcp(server.url);
    try {
      const result = await client.callTool({ name: 'get_mortgage_rates', arguments: { state: 'TX', as_of: '2026-11-02' } });
      expect(result.isError).toBeFalsy();
      const record = result.structuredContent as unknown as RateBody;
      expect(record.survey_rate).toBe(official);
      expect(versionOf(record, 'pmms')).toBe(first);
    } finally {
      await client.close();
    }
  });

  it('cites the versions behind an /ask answer beside its sources', async () => {
    const { messages, answer } = await readAskStream(
      await postAsk(server.url, { message: 'What is the latest Freddie Mac 30-year fixed rate?' }),
    );
    expect(answer).toContain(`${changed.toFixed(2)}%`);
    const sources = messages.find((message) => message.type === 'sources');
    expect(sources?.type === 'sources' ? sources.dataset_versions : undefined).toContainEqual({
      dataset: 'pmms',
      version: second,
      as_of: NEWEST_WEEK,
    });
  });

  it('refuses a future or malformed day and a day before the first load, saying why', async () => {
    const future = await get('state=TX&as_of=2026-11-06');
    expect(future.status).toBe(400);
    expect(future.body.error).toContain('future');
    expect((await get('state=TX&as_of=yesterday')).status).toBe(400);
    const before = await get('state=TX&as_of=2026-11-01');
    expect(before.status).toBe(404);
    expect(before.body.error).toContain(`oldest version of pmms kept is ${first}`);
  });

  it('records no new version when a load changes nothing', async () => {
    const count = async () =>
      Number((await database.db.query<{ n: number }>("SELECT count(*)::int AS n FROM dataset_versions WHERE dataset = 'pmms'")).rows[0]?.n);
    const before = await count();
    const again = await syncAt(database.db, ['pmms'], folder, '2026-11-05T08:00:00Z');
    expect(again[0]?.version).toBe(second);
    expect(await count()).toBe(before);
  });

  it('keeps the last 8 loads and says which is the oldest kept when a day is older', async () => {
    // Eight more revisions, one a day from 2026-11-06: the first two loads fall out of the window.
    const revisions: { day: string; value: number; version: string | undefined }[] = [];
    for (let index = 0; index < 8; index += 1) {
      const day = `2026-11-${String(6 + index).padStart(2, '0')}`;
      const value = Math.round((changed + 0.01 * (index + 1)) * 100) / 100;
      setNewestWeek(folder, value);
      const [result] = await syncAt(database.db, ['pmms'], folder, `${day}T10:00:00Z`);
      revisions.push({ day, value, version: result?.version });
    }
    const kept = await database.db.query<{ version: string; kept: boolean }>(
      "SELECT version, snapshot IS NOT NULL AS kept FROM dataset_versions WHERE dataset = 'pmms' ORDER BY published_at",
    );
    expect(kept.rows.map((row) => row.version)).toEqual([first, second, ...revisions.map((revision) => revision.version)]);
    expect(kept.rows.map((row) => row.kept)).toEqual([false, false, true, true, true, true, true, true, true, true]);

    const later = await buildTestApp(database.db, { clock: at('2026-11-20T12:00:00Z') });
    const laterServer = await listen(later.app);
    try {
      const gone = await fetch(`${laterServer.url}/api/v1/rates?state=TX&as_of=2026-11-03`);
      expect(gone.status).toBe(410);
      const message = ((await gone.json()) as { error: string }).error;
      expect(message).toContain(`version ${first}`);
      expect(message).toContain(`oldest version of pmms kept is ${revisions[0]?.version}, served since 2026-11-06 at 10:00 UTC`);
      for (const revision of [revisions[0], revisions[4]]) {
        const response = await fetch(`${laterServer.url}/api/v1/rates?state=TX&as_of=${revision?.day}`);
        const body = (await response.json()) as RateBody;
        expect(response.status).toBe(200);
        expect(body.survey_rate).toBe(revision?.value);
        expect(versionOf(body, 'pmms')).toBe(revision?.version);
      }
    } finally {
      await laterServer.close();
      await later.close();
    }
  }, 180_000);
});
