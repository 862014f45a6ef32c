// The static files under /data/ are the REST answers byte for byte: for a sample of every
// publication's files, the /data/ body equals the /api/v1 body of the query the index names, both
// satisfy the capability's contract schema, and the file carries a strong ETag (304 on
// If-None-Match) and a Cache-Control a CDN may hold. Before the first sync the synced publications
// answer 503 with the dataset's own words, while escrow (hand-kept schedules) is already there.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { buildTestApp, listen, type TestApp } from '../support/app.ts';
import { createTestDatabase, type TestDatabase } from '../support/databases.ts';
import { rawRequest } from '../support/http.ts';
import { hasSourceData } from '../support/source-data.ts';
import { syncedTestDatabase } from '../support/synced.ts';
import { StatisticsAnswerSchema } from '../../api/statistics/contract.ts';
import { EscrowAnswerSchema } from '../../api/escrow/contract.ts';
import { CalendarAnswerSchema } from '../../api/calendar/contract.ts';
import { LoanLimitsAnswerSchema } from '../../api/loan-limits/contract.ts';
import { startPublishing } from '../../api/publications/route.ts';
import { PublicationStore } from '../../api/publications/store.ts';
import { JSON_TYPE } from '../../api/publications/types.ts';

interface IndexFile {
  path: string;
  content_type: string;
  bytes: number;
  etag: string;
  api: string;
}

const SCHEMAS: Record<string, z.ZodType> = {
  statistics: StatisticsAnswerSchema,
  escrow: EscrowAnswerSchema,
  calendar: CalendarAnswerSchema,
  'loan-limits': LoanLimitsAnswerSchema,
};

/** Up to `count` files spread over the list (first, last and evenly between). */
function spread<T>(items: readonly T[], count: number): T[] {
  if (items.length <= count) return [...items];
  return Array.from({ length: count }, (_, index) => items[Math.round((index * (items.length - 1)) / (count - 1))]!);
}

describe.skipIf(!hasSourceData)('published data files', () => {
  let database: TestDatabase;
  let testApp: TestApp;
  let server: Awaited<ReturnType<typeof listen>>;
  let index: { publications: { name: string; available: boolean }[]; files: IndexFile[] };
  let stop: () => void;
  const writeDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mds-data-'));

  beforeAll(async () => {
    database = await syncedTestDatabase('pglite', ['statistics', 'economic_calendar', 'loan_limits_conforming', 'loan_limits_fha']);
    testApp = await buildTestApp(database.db, { env: { DATA_DIR: writeDir } });
    server = await listen(testApp.app);
    stop = startPublishing(testApp.deps);
    index = (await (await fetch(`${server.url}/data/index.json`)).json()) as typeof index;
  }, 600_000);

  afterAll(async () => {
    stop?.();
    await server?.close();
    await testApp?.close();
    await database?.drop();
    fs.rmSync(writeDir, { recursive: true, force: true });
  });

  it('lists every publication as available, with files in each', () => {
    expect(index.publications.map((publication) => [publication.name, publication.available])).toEqual([
      ['statistics', true],
      ['escrow', true],
      ['calendar', true],
      ['loan-limits', true],
    ]);
    const count = (prefix: string) => index.files.filter((file) => file.path.startsWith(`/data/${prefix}/`)).length;
    expect(count('statistics')).toBeGreaterThan(1);
    // 51 states and DC × 12 months, plus 12 per county override.
    expect(count('escrow')).toBeGreaterThanOrEqual(51 * 12);
    expect(count('calendar') % 10).toBe(0); // a year: JSON and ICS, whole and per category (4)
    expect(count('loan-limits')).toBeGreaterThan(50);
  });

  for (const publication of Object.keys(SCHEMAS)) {
    it(`serves ${publication} files byte-identical to the REST answer, each valid under the contract`, async () => {
      const files = spread(
        index.files.filter((file) => file.path.startsWith(`/data/${publication}/`)),
        12,
      );
      expect(files.length).toBeGreaterThan(0);
      for (const file of files) {
        const [published, rest] = await Promise.all([fetch(`${server.url}${file.path}`), fetch(`${server.url}${file.api}`)]);
        expect(published.status, file.path).toBe(200);
        expect(rest.status, file.api).toBe(200);
        const [publishedBytes, restBytes] = await Promise.all([published.arrayBuffer(), rest.arrayBuffer()]);
        expect(Buffer.from(publishedBytes).equals(Buffer.from(restBytes)), `${file.path} vs ${file.api}`).toBe(true);
        expect(published.headers.get('content-type')).toBe(file.content_type);
        expect(publishedBytes.byteLength).toBe(file.bytes);
        if (file.content_type.startsWith('application/json')) {
          const parsed = SCHEMAS[publication]!.safeParse(JSON.parse(Buffer.from(publishedBytes).toString('utf8')));
          expect(parsed.success, `${file.path}: ${parsed.error?.message}`).toBe(true);
        } else {
          expect(Buffer.from(publishedBytes).toString('utf8')).toMatch(/^BEGIN:VCALENDAR\r\n/);
        }
        // The same bytes were written for a CDN.
        const written = fs.readFileSync(path.join(writeDir, 'generated', file.path.replace(/^\/data\//, '')));
        expect(written.equals(Buffer.from(publishedBytes))).toBe(true);
      }
    });
  }

  it('holds every event of a calendar year in its file (none cut by the page limit)', async () => {
    const years = index.files.filter((file) => /^\/data\/calendar\/\d{4}\.json$/.test(file.path));
    expect(years.length).toBeGreaterThan(0);
    for (const file of years) {
      const answer = (await (await fetch(`${server.url}${file.path}`)).json()) as { events: unknown[]; total: number };
      expect(answer.events.length, file.path).toBe(answer.total);
    }
  });

  it('answers 304 to its strong ETag and lets a CDN hold the file', async () => {
    const file = index.files.find((candidate) => candidate.path === '/data/statistics/all.json')!;
    // A raw request: no Accept-Encoding, so the file as it is, under the tag the index lists.
    const first = await rawRequest(`${server.url}${file.path}`);
    expect(first.headers['etag']).toBe(file.etag);
    expect(file.etag).toMatch(/^"[A-Za-z0-9_-]{32}"$/);
    expect(first.headers['cache-control']).toMatch(/^public, max-age=\d+/);
    expect(first.headers['vary']).toBe('Accept-Encoding');
    expect(first.bytes.length).toBe(file.bytes);
    // fetch() would add `Cache-Control: no-cache` to a conditional request.
    const again = await rawRequest(`${server.url}${file.path}`, { headers: { 'If-None-Match': file.etag } });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
  });

  it('sends the gzip bytes it holds to a client that accepts them, under a tag of their own', async () => {
    const file = index.files.find((candidate) => candidate.path === '/data/statistics/all.json')!;
    const compressed = await rawRequest(`${server.url}${file.path}`, { headers: { 'Accept-Encoding': 'gzip, br' } });
    expect(compressed.status).toBe(200);
    expect(compressed.headers['content-encoding']).toBe('gzip');
    expect(compressed.headers['etag']).toBe(`${file.etag.slice(0, -1)}-gzip"`);
    expect(Number(compressed.headers['content-length'])).toBe(compressed.bytes.length);
    expect(compressed.bytes.length).toBeLessThan(file.bytes / 4);
    const plain = await rawRequest(`${server.url}${file.path}`);
    expect(zlib.gunzipSync(compressed.bytes).equals(plain.bytes)).toBe(true);
    const again = await rawRequest(`${server.url}${file.path}`, {
      headers: { 'Accept-Encoding': 'gzip', 'If-None-Match': compressed.headers['etag'] as string },
    });
    expect(again.status).toBe(304);
  });

  it('stops a regeneration under way at its next file when the service shuts down, keeping none of it', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mds-data-stop-'));
    try {
      const store: PublicationStore = new PublicationStore(
        testApp.deps,
        [
          {
            name: 'halted',
            datasets: ['statistics'],
            async *produce() {
              yield { path: 'halted/1.json', body: '{}', contentType: JSON_TYPE, rest: '/statistics' };
              store.stop(); // the shutdown arrives while the publication is being made
              yield { path: 'halted/2.json', body: '{}', contentType: JSON_TYPE, rest: '/statistics' };
            },
          },
        ],
        { writeDir: dir },
      );
      await store.refresh();
      expect(store.lookup('halted/1.json').kind).not.toBe('file');
      expect(fs.readdirSync(dir)).toEqual([]);
      await store.refresh(); // stopped for good
      // Stopped before its first regeneration ended, it says so rather than that no such file exists.
      expect(store.lookup('halted/1.json')).toEqual({ kind: 'unavailable', message: 'The service is restarting; retry in a minute.' });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('names the index for a path it does not have', async () => {
    const response = await fetch(`${server.url}/data/statistics/nothing.json`);
    expect(response.status).toBe(404);
    expect(((await response.json()) as { error: string }).error).toContain('/data/index.json');
  });
});

describe('published data files before the first sync', () => {
  let database: TestDatabase;
  let testApp: TestApp;
  let server: Awaited<ReturnType<typeof listen>>;

  beforeAll(async () => {
    database = await createTestDatabase('pglite');
    testApp = await buildTestApp(database.db);
    server = await listen(testApp.app);
  }, 120_000);

  afterAll(async () => {
    await server?.close();
    await testApp?.close();
    await database?.drop();
  });

  it('answers 503 saying the dataset is not loaded, and serves escrow already', async () => {
    const statistics = await fetch(`${server.url}/data/statistics/all.json`);
    expect(statistics.status).toBe(503);
    const body = (await statistics.json()) as { error: string };
    expect(body.error).toMatch(/statistics/);
    expect(body.error).not.toMatch(/npm|stack|SELECT/i);
    const escrow = await fetch(`${server.url}/data/escrow/TX/03.json`);
    expect(escrow.status).toBe(200);
    const rest = await fetch(`${server.url}/api/v1/escrow?state=TX&closing_month=3`);
    expect(await escrow.text()).toBe(await rest.text());
  });
});
