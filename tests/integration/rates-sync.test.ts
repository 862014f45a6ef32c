// The rates datasets through the real sync runner on both databases: idempotent loads from the mirror,
// a broken file failing with file:line while the earlier load stays, the FRED API and the keyless CSV
// download (served locally from the official files).
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT, loadConfig } from '../../api/config.ts';
import { createLogger } from '../../api/platform/logger.ts';
import { createNationalDatasets } from '../../api/rates/sync/national.ts';
import { SERIES } from '../../api/rates/series.ts';
import { runSync } from '../../api/sync/runner.ts';
import { createSourceReader } from '../../api/sync/source.ts';
import type { DatasetDefinition } from '../../api/sync/types.ts';
import type { Database } from '../../api/platform/db/database.ts';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../support/databases.ts';
import { hasSourceData, SOURCE_DIR } from '../support/source-data.ts';

type Handler = (url: URL) => { status: number; body: string };

async function serve(handler: Handler): Promise<{ url: string; requests: URL[]; close: () => Promise<void> }> {
  const requests: URL[] = [];
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    requests.push(url);
    const { status, body } = handler(url);
    res.writeHead(status, { 'content-type': 'application/json' }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const sync = (db: Database, definitions: readonly DatasetDefinition[], names: string[], env: Record<string, string>, options = {}) =>
  runSync(db, definitions, { names, options, logger: createLogger('silent'), config: loadConfig({ LOG_LEVEL: 'silent', ...env }) });

const seriesCount = async (db: Database, id: string) =>
  Number((await db.query<{ n: number }>('SELECT count(*)::int AS n FROM rate_series_observations WHERE series_id = $1', [id])).rows[0]?.n);

/** The real published values of a series as FRED's JSON observations (CSV '' and '.' become '.'). */
function fredJsonObservations(file: string): { date: string; value: string }[] {
  return fs
    .readFileSync(path.join(SOURCE_DIR, file), 'utf8')
    .split(/\r?\n/)
    .filter((line) => /^\d{4}-/.test(line))
    .map((line) => {
      const [date = '', value = ''] = line.split(',');
      return { date, value: value === '' ? '.' : value };
    });
}

describe.skipIf(!hasSourceData).each(databaseKinds)('rates datasets (%s)', (kind) => {
  let database: TestDatabase;
  let mirror: string;
  const definitions = createNationalDatasets();

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    // A private copy of the rates mirror, so a test can break a file.
    mirror = fs.mkdtempSync(path.join(os.tmpdir(), 'mds-rates-mirror-'));
    fs.cpSync(path.join(SOURCE_DIR, 'rates'), path.join(mirror, 'rates'), {
      recursive: true,
      dereference: true,
      filter: (source) => !source.includes('state_nmdb'),
    });
    fs.chmodSync(mirror, 0o755);
    for (const file of fs.readdirSync(mirror, { recursive: true, withFileTypes: true })) {
      fs.chmodSync(path.join(file.parentPath, file.name), file.isDirectory() ? 0o755 : 0o644);
    }
  });
  afterAll(async () => {
    await database.drop();
    fs.rmSync(mirror, { recursive: true, force: true });
  });

  it('loads every series from the mirror, then a second sync changes nothing', async () => {
    const first = await sync(database.db, definitions, ['pmms', 'optimal_blue'], { MDS_SOURCE_DIR: mirror });
    expect(first.results.map((result) => [result.name, result.status, result.asOf])).toEqual([
      ['pmms', 'ok', '2026-10-08'],
      ['optimal_blue', 'ok', '2025-09-25'],
    ]);
    // The mirror has no copy of the optional Optimal Blue series: recorded as missing, never a failure.
    const { rows: recorded } = await database.db.query<{ details: unknown }>("SELECT details FROM datasets WHERE name = 'optimal_blue'");
    const details = (typeof recorded[0]?.details === 'string' ? JSON.parse(recorded[0].details) : recorded[0]?.details) as {
      missing: string[];
    };
    expect(details.missing).toHaveLength(12);
    expect(details.missing).toEqual(
      expect.arrayContaining(['OBMMIC15YF', 'OBMMIUSDA30YF', 'OBMMIC30YFLVLE80FGE740', 'OBMMIC30YFLVGT80FLT680']),
    );
    expect(await seriesCount(database.db, 'MORTGAGE30US')).toBeGreaterThanOrEqual(2_800);
    expect(await seriesCount(database.db, 'MORTGAGE5US')).toBe(929);
    expect(await seriesCount(database.db, 'OBMMIJUMBO30YF')).toBeGreaterThan(2_000); // history_to_2024 + recent merged
    const second = await sync(database.db, definitions, ['pmms', 'optimal_blue'], { MDS_SOURCE_DIR: mirror });
    expect(second.results.map((result) => result.changed)).toEqual([0, 0]);
    const { rows } = await database.db.query<{ source_url: string; last_on: string }>(
      "SELECT source_url, to_char(last_on, 'YYYY-MM-DD') AS last_on FROM rate_series WHERE series_id = 'MORTGAGE30US'",
    );
    expect(rows[0]).toEqual({ source_url: 'https://fred.stlouisfed.org/series/MORTGAGE30US', last_on: '2026-10-08' });
  });

  it('fails a broken file with its path and line and keeps the earlier load', async () => {
    const file = path.join(mirror, 'rates', 'MORTGAGE30US_weekly_1971_2026.csv');
    const original = fs.readFileSync(file, 'utf8');
    const before = await database.db.query("SELECT as_of, loaded_at, row_count FROM datasets WHERE name = 'pmms'");
    try {
      fs.writeFileSync(file, original.replace('2026-10-08,7.40', '2026-10-08,7.4O'));
      const report = await sync(database.db, definitions, ['pmms'], { MDS_SOURCE_DIR: mirror });
      expect(report.ok).toBe(false);
      expect(report.results[0]?.message).toMatch(
        new RegExp(`${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:2899: value "7.4O" is not a number`),
      );

      fs.writeFileSync(file, original);
      const recent = path.join(mirror, 'rates', 'recent_2020_2025', 'MORTGAGE30US.csv');
      const recentOriginal = fs.readFileSync(recent, 'utf8');
      fs.writeFileSync(recent, recentOriginal.replace('2025-09-25,6.30', '2025-09-25,6.35'));
      const disagreeing = await sync(database.db, definitions, ['pmms'], { MDS_SOURCE_DIR: mirror });
      expect(disagreeing.results[0]?.message).toMatch(
        /MORTGAGE30US 2025-09-25: .* says 6\.3 but .*recent_2020_2025\/MORTGAGE30US\.csv says 6\.35/,
      );
      fs.writeFileSync(recent, recentOriginal);
    } finally {
      fs.writeFileSync(file, original);
    }
    expect((await database.db.query("SELECT as_of, loaded_at, row_count FROM datasets WHERE name = 'pmms'")).rows).toEqual(before.rows);
    const latest = await database.db.query<{ value: number }>(
      "SELECT value::float8 AS value FROM rate_series_observations WHERE series_id = 'MORTGAGE30US' AND observed_on = '2026-10-08'",
    );
    expect(latest.rows[0]?.value).toBe(7.4);
  });

  it('reads the FRED API when FRED_API_KEY is set, paging through recorded responses, never citing the key', async () => {
    const pages = 1_000;
    const server = await serve((url) => {
      if (url.searchParams.get('api_key') !== 'test-key') {
        return { status: 400, body: fs.readFileSync(path.join(PROJECT_ROOT, 'tests/fixtures/rates/fred-api-error-bad-key.json'), 'utf8') };
      }
      const id = url.searchParams.get('series_id') as keyof typeof SERIES;
      const all = SERIES[id].mirrorPaths.flatMap((file) => fredJsonObservations(file));
      const unique = [...new Map(all.map((item) => [item.date, item])).values()].sort((a, b) => a.date.localeCompare(b.date));
      const offset = Number(url.searchParams.get('offset') ?? 0);
      const observations = unique
        .slice(offset, offset + pages)
        .map((item) => ({ realtime_start: '2026-10-09', realtime_end: '2026-10-09', ...item }));
      return {
        status: 200,
        body: JSON.stringify({ units: 'lin', file_type: 'json', count: unique.length, offset, limit: pages, observations }),
      };
    });
    try {
      const api = createNationalDatasets({ fredApiBaseUrl: server.url });
      const scratch = await createTestDatabase(kind);
      try {
        const report = await sync(scratch.db, api, ['pmms'], { FRED_API_KEY: 'test-key' });
        expect(report.results[0]).toMatchObject({
          status: 'ok',
          asOf: '2026-10-08',
          sourceUrl: 'https://fred.stlouisfed.org/series/MORTGAGE30US',
        });
        expect(await seriesCount(scratch.db, 'MORTGAGE30US')).toBe(await seriesCount(database.db, 'MORTGAGE30US'));
        expect(
          server.requests
            .filter((url) => url.searchParams.get('series_id') === 'MORTGAGE30US')
            .map((url) => url.searchParams.get('offset')),
        ).toEqual(['0', '1000', '2000']);
        expect(
          server.requests.every((url) => url.pathname === '/series/observations' && url.searchParams.get('file_type') === 'json'),
        ).toBe(true);

        const refused = await sync(scratch.db, api, ['pmms'], { FRED_API_KEY: 'wrong-key' });
        expect(refused.results[0]?.message).toMatch(
          /FRED API answered 400: Bad Request\. {2}The value for variable api_key is not registered/,
        );
        expect(refused.results[0]?.message).not.toContain('wrong-key');
      } finally {
        await scratch.drop();
      }
    } finally {
      await server.close();
    }
  });

  it('downloads each series once from the keyless FRED CSV when there is no mirror and no key', async () => {
    const downloads: string[] = [];
    const reader = createSourceReader({
      sourceDir: undefined,
      fetch: (async (input: string | URL) => {
        const id = new URL(String(input)).searchParams.get('id') as keyof typeof SERIES;
        downloads.push(id);
        return new Response(fs.readFileSync(path.join(SOURCE_DIR, SERIES[id].mirrorPaths[0] ?? '')));
      }) as typeof fetch,
    });
    const scratch = await createTestDatabase(kind);
    try {
      const report = await runSync(scratch.db, definitions, {
        names: ['pmms'],
        logger: createLogger('silent'),
        config: loadConfig({ LOG_LEVEL: 'silent' }),
        sourceReader: reader,
      });
      expect(report.results[0]).toMatchObject({ status: 'ok', asOf: '2026-10-08' });
      expect(downloads).toEqual(['MORTGAGE30US', 'MORTGAGE15US', 'MORTGAGE5US']);
    } finally {
      await scratch.drop();
    }
  });
});
