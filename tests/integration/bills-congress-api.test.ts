// The congress.gov API v3 path, against the real recorded responses of H.R. 21 (117th Congress)
// served by a local HTTP server that pages every list, so the client must follow pagination.next.
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseBillStatusXml } from '../../api/bills/billstatus-xml.ts';
import { makeBillRef } from '../../api/bills/bill-id.ts';
import { fetchBillFromApi } from '../../api/bills/congress-api.ts';
import { candidatesFromApi } from '../../api/bills/candidates.ts';
import { createBillsDataset } from '../../api/bills/sync.ts';
import { createBillsService } from '../../api/bills/service.ts';
import { createLogger } from '../../api/platform/logger.ts';
import { runSync } from '../../api/sync/runner.ts';
import { SourceFormatError, SourceUnavailableError } from '../../api/sync/errors.ts';
import { testConfig } from '../support/app.ts';
import { createTestDatabase } from '../support/databases.ts';
import { hasSourceData, SOURCE_DIR, sourceFile } from '../support/source-data.ts';

const RECORDED = sourceFile('congress', 'api_v3', 'loc_sample_117_hr_21');
const PAGE = 3;
const KEY = 'test-key-123';
const HR21 = makeBillRef(117, 'hr', 21);

interface Seen {
  path: string;
  search: URLSearchParams;
  key: string | undefined;
}

/** Serves the recorded responses under /v3, slicing each list into pages of PAGE items. */
function recordedApi(): { start(): Promise<string>; stop(): Promise<void>; seen: Seen[]; redirectNextTo?: string } {
  const seen: Seen[] = [];
  const state: { redirectNextTo?: string } = {};
  let base = '';
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    seen.push({ path: url.pathname, search: url.searchParams, key: req.headers['x-api-key'] as string | undefined });
    const match = /^\/v3\/bill\/117\/hr\/21(?:\/([a-z]+))?$/.exec(url.pathname);
    const file = match ? path.join(RECORDED, match[1] ? `bill_117_hr_21_${match[1]}.json` : 'bill_117_hr_21.json') : '';
    if (!match || !fs.existsSync(file)) {
      res.writeHead(404, { 'Content-Type': 'application/json' }).end(JSON.stringify({ error: 'not found' }));
      return;
    }
    const body = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
    const resource = match[1];
    if (resource && body.pagination) {
      const offset = Number(url.searchParams.get('offset') ?? 0);
      const holder = resource === 'subjects' ? (body.subjects as Record<string, unknown>) : body;
      const key = resource === 'subjects' ? 'legislativeSubjects' : resource;
      const all = holder[key] as unknown[];
      holder[key] = all.slice(offset, offset + PAGE);
      const pagination: Record<string, unknown> = { count: all.length };
      if (offset + PAGE < all.length) {
        pagination.next = `${state.redirectNextTo ?? base}${url.pathname}?offset=${offset + PAGE}&limit=${PAGE}&format=json`;
      }
      body.pagination = pagination;
    }
    res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
  });
  return Object.assign(state, {
    seen,
    async start() {
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      return `${base}/v3`;
    },
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}

describe.skipIf(!hasSourceData)('congress.gov API v3 client', () => {
  const api = recordedApi();
  let baseUrl = '';
  beforeAll(async () => {
    baseUrl = await api.start();
  });
  afterAll(() => api.stop());

  it('reads the bill and every paged list, and agrees with the BILLSTATUS XML of the same bill', async () => {
    api.seen.length = 0;
    const { record, requests } = await fetchBillFromApi(HR21, { baseUrl, apiKey: KEY });
    const xmlFile = sourceFile('congress', 'billstatus', '117', 'BILLSTATUS-117hr21.xml');
    const fromXml = parseBillStatusXml(fs.readFileSync(xmlFile, 'utf8'), xmlFile);

    expect(record.sourceFormat).toBe('congress-api-v3');
    expect(record.title).toBe('FedRAMP Authorization Act');
    expect(record.sponsor).toMatchObject({ bioguideId: 'C001078', party: 'D', state: 'VA', district: '11' });
    expect(record.cosponsors.map((c) => c.bioguideId)).toEqual(fromXml.cosponsors.map((c) => c.bioguideId));
    expect(record.cosponsors.every((c) => c.isOriginalCosponsor)).toBe(true);
    expect(record.committees.map((c) => c.systemCode).sort()).toEqual(fromXml.committees.map((c) => c.systemCode).sort());
    expect(record.actions).toHaveLength(10);
    expect(record.actions.map((a) => a.date)).toEqual(fromXml.actions.map((a) => a.date));
    expect(record.subjects.sort()).toEqual([...fromXml.subjects].sort());
    expect(record.titles).toHaveLength(8);
    expect(record.summary?.text).toBe(fromXml.summary?.text);
    expect(record.latestAction).toEqual(fromXml.latestAction);
    expect(record.status).toBe('passed_house');
    expect(record.status).toBe(fromXml.status);

    // 10 actions in pages of 3 → 4 requests; 14 subjects → 5; 8 titles → 3.
    const pages = (resource: string) => api.seen.filter((s) => s.path.endsWith(`/${resource}`)).map((s) => s.search.get('offset'));
    expect(pages('actions')).toEqual(['0', '3', '6', '9']);
    expect(pages('subjects')).toEqual(['0', '3', '6', '9', '12']);
    expect(pages('titles')).toEqual(['0', '3', '6']);
    expect(requests).toBe(api.seen.length);
  });

  it('sends the key in the X-Api-Key header, never in the URL', async () => {
    api.seen.length = 0;
    await fetchBillFromApi(HR21, { baseUrl, apiKey: KEY });
    expect(api.seen.length).toBeGreaterThan(7);
    for (const request of api.seen) {
      expect(request.key).toBe(KEY);
      expect(request.search.has('api_key')).toBe(false);
    }
  });

  it('refuses to follow a pagination link to another host, so the key cannot leak', async () => {
    api.redirectNextTo = 'http://127.0.0.2:9';
    try {
      await expect(fetchBillFromApi(HR21, { baseUrl, apiKey: KEY })).rejects.toThrow(SourceFormatError);
      await expect(fetchBillFromApi(HR21, { baseUrl, apiKey: KEY })).rejects.toThrow(/refusing to send the key/);
    } finally {
      delete api.redirectNextTo;
    }
  });

  it('reports a bill the API does not have as unavailable, naming the URL', async () => {
    await expect(fetchBillFromApi(makeBillRef(117, 'hr', 99999), { baseUrl, apiKey: KEY })).rejects.toThrow(SourceUnavailableError);
    await expect(fetchBillFromApi(makeBillRef(117, 'hr', 99999), { baseUrl, apiKey: KEY })).rejects.toThrow(/bill\/117\/hr\/99999.*404/);
  });

  it('syncs a tracked list through the API when CONGRESS_API_KEY is set', async () => {
    const contentDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mds-bills-'));
    const { db, drop } = await createTestDatabase('pglite');
    try {
      // A one-bill list for this test: H.R. 21 is the bill whose API responses are on record.
      const analysis = Array.from({ length: 14 }, (_, i) => `Test fixture sentence number ${i + 1} for the API path.`).join(' ');
      fs.writeFileSync(
        path.join(contentDir, 'hr21-117.md'),
        `---\nbill_id: hr21-117\ncongress: 117\ntype: hr\nnumber: 21\nshort_title: "FedRAMP Authorization Act"\ntopics: [test]\nwhy_we_track: "Test fixture for the API path only."\n---\n\n${analysis}\n`,
      );
      // H.R. 21 is no housing bill, so the transport is tested with a rule that keeps every record.
      const keepAll = () => ({ reason: 'current congress' as const, basis: 'policy area' as const, explanation: 'Test fixture.' });
      const definition = createBillsDataset({ contentDir, candidates: [HR21], select: keepAll, apiBaseUrl: baseUrl });
      const config = testConfig({ CONGRESS_API_KEY: KEY, MDS_SOURCE_DIR: SOURCE_DIR });
      const run = () => runSync(db, [definition], { names: ['bills'], logger: createLogger('silent'), config });
      const first = await run();
      expect(first.results[0]?.message).toBe('');
      expect(first.results[0]).toMatchObject({ status: 'ok', rows: 1, changed: 1, asOf: '2022-03-25' });
      expect(first.results[0]?.sourceUrl).toBe(`${baseUrl}/bill`);
      const second = await run();
      expect(second.results[0]).toMatchObject({ status: 'ok', changed: 0 });

      const bill = await createBillsService({ db }).get('hr21-117');
      expect(bill.source_format).toBe('congress-api-v3');
      expect(bill.sources.record).toBe(`${baseUrl}/bill/117/hr/21`);
      expect(bill.sponsor).toMatchObject({ bioguide_id: 'C001078', name: 'Gerald E. Connolly', party_name: 'Democrat' });
      expect(bill.cosponsor_count).toBe(2);
    } finally {
      await drop();
      fs.rmSync(contentDir, { recursive: true, force: true });
    }
  });

  it('lists the candidates from the housing committees (sitting Congress only) and the laws since the 115th Congress', async () => {
    const asked: string[] = [];
    const pages: Record<string, unknown> = {
      '/v3/committee/house/hsba00/bills': {
        'committee-bills': {
          bills: [
            { billNumber: '6774', congress: 119, type: 'HR' },
            { billNumber: '1532', congress: 117, type: 'HR' },
          ],
        },
        pagination: {},
      },
      '/v3/committee/senate/ssbk00/bills': {
        'committee-bills': { bills: [{ billNumber: '2651', congress: 119, type: 'S' }] },
        pagination: {},
      },
      '/v3/law/117': { bills: [{ number: '7735', congress: 117, type: 'HR' }], pagination: {} },
    };
    const fetchImpl = (async (input: string | URL) => {
      const url = new URL(String(input));
      asked.push(url.pathname);
      const body = pages[url.pathname] ?? { bills: [], pagination: {} };
      return new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } });
    }) as typeof fetch;
    const { refs } = await candidatesFromApi({ baseUrl: 'http://api.test/v3', apiKey: KEY, fetchImpl }, new Date('2026-11-28T12:00:00Z'));
    expect(refs.map((ref) => ref.billId)).toEqual(['hr6774-119', 'hr7735-117', 's2651-119']);
    expect(asked).toEqual([
      '/v3/committee/house/hsba00/bills',
      '/v3/committee/senate/ssbk00/bills',
      '/v3/law/115',
      '/v3/law/116',
      '/v3/law/117',
      '/v3/law/118',
      '/v3/law/119',
    ]);
  });
});
