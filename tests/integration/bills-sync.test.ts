// The `bills` dataset on both databases: 45 tracked bills from the mirror's BILLSTATUS files, an
// idempotent second run, a corrupted file failing the dataset by name while the earlier load stays;
// then the service's search and get on the synced rows.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBillsService, type BillsService } from '../../api/bills/service.ts';
import { TRACKED_BILL_COUNT } from '../../api/bills/sync.ts';
import { BadRequestError, NotFoundError, ServiceUnavailableError } from '../../api/platform/http/errors.ts';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../support/databases.ts';
import { hasSourceData, SOURCE_DIR } from '../support/source-data.ts';
import { syncInto } from '../support/synced.ts';

/** A copy of the mirror's congress folder (symlinks) with one BILLSTATUS file replaced by broken XML. */
function corruptedMirror(): { dir: string; file: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mds-bills-mirror-'));
  fs.mkdirSync(path.join(dir, 'congress', 'billstatus', '117'), { recursive: true });
  fs.symlinkSync(path.join(SOURCE_DIR, 'congress', 'legislators'), path.join(dir, 'congress', 'legislators'));
  fs.symlinkSync(path.join(SOURCE_DIR, 'congress', 'billstatus', '119'), path.join(dir, 'congress', 'billstatus', '119'));
  const from = path.join(SOURCE_DIR, 'congress', 'billstatus', '117');
  for (const name of fs.readdirSync(from)) fs.symlinkSync(path.join(from, name), path.join(dir, 'congress', 'billstatus', '117', name));
  const file = path.join(dir, 'congress', 'billstatus', '117', 'BILLSTATUS-117hr1532.xml');
  fs.rmSync(file);
  const lines = fs.readFileSync(path.join(from, 'BILLSTATUS-117hr1532.xml'), 'utf8').split('\n');
  lines.splice(20, 0, '    <actions><item>'); // line 21 opens tags that never close
  fs.writeFileSync(file, lines.join('\n'));
  return { dir, file };
}

describe.skipIf(!hasSourceData).each(databaseKinds)('bills dataset and service on %s', (kind) => {
  let test: TestDatabase;
  let service: BillsService;
  beforeAll(async () => {
    test = await createTestDatabase(kind);
    service = createBillsService(test.db, { baseUrl: 'http://localhost:3000' });
  });
  afterAll(() => test.drop());

  it('answers 503 before the first sync', async () => {
    await expect(service.search({ query: 'FHA' })).rejects.toThrow(ServiceUnavailableError);
  });

  it('loads all 45 tracked bills, and a second run changes nothing', async () => {
    const first = await syncInto(test.db, ['bills']);
    const result = first.results.find((entry) => entry.name === 'bills');
    expect(result?.message).toBe('');
    expect(result).toMatchObject({ status: 'ok', rows: TRACKED_BILL_COUNT, changed: TRACKED_BILL_COUNT, asOf: '2026-09-09' });
    expect(result?.sourceUrl).toBe('https://www.govinfo.gov/bulkdata/BILLSTATUS');
    const { rows } = await test.db.query<{ n: string | number }>('SELECT count(*) AS n FROM bills');
    expect(Number(rows[0]?.n)).toBe(TRACKED_BILL_COUNT);

    const before = await test.db.query<{ bill_id: string; synced_at: unknown }>('SELECT bill_id, synced_at::text FROM bills ORDER BY bill_id');
    const second = await syncInto(test.db, ['bills']);
    expect(second.results.find((entry) => entry.name === 'bills')).toMatchObject({ status: 'ok', changed: 0 });
    const after = await test.db.query('SELECT bill_id, synced_at::text FROM bills ORDER BY bill_id');
    expect(after.rows).toEqual(before.rows);
  });

  it('puts the tracked bills into the site-wide search index', async () => {
    const { rows } = await test.db.query<{ id: string; type: string; path: string; title: string }>(
      "SELECT id, type, path, title FROM search_documents WHERE source = 'bills' ORDER BY id",
    );
    expect(rows).toHaveLength(TRACKED_BILL_COUNT);
    expect(rows).toContainEqual({
      id: 'bill:hr1395-117',
      type: 'bill',
      path: '/bills/hr1395-117',
      title: 'Housing Financial Literacy Act of 2021 (H.R. 1395)',
    });
  });

  it('fails the dataset on a corrupted file, naming file and line, and keeps the earlier load', async () => {
    const { dir, file } = corruptedMirror();
    try {
      const report = await syncInto(test.db, ['bills'], { sourceDir: dir });
      const result = report.results.find((entry) => entry.name === 'bills');
      expect(result?.status).toBe('failed');
      expect(result?.message).toContain(file);
      expect(result?.message).toMatch(/BILLSTATUS-117hr1532\.xml:\d+: malformed XML/);
      const bill = await service.get('hr1532-117');
      expect(bill.status).toBe('passed_house');
      expect((await service.list()).length).toBe(TRACKED_BILL_COUNT);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('stores status, sponsor (resolved from the legislators tables), cosponsors, committees, actions and summary', async () => {
    const bill = await service.get('HR1395-117');
    expect(bill).toMatchObject({
      bill_id: 'hr1395-117',
      citation: 'H.R. 1395 (117th Congress)',
      title: 'Housing Financial Literacy Act of 2021',
      status: 'passed_house',
      status_label: 'Passed House',
      introduced_date: '2021-02-26',
      cosponsor_count: 2,
      latest_action: { date: '2021-04-22' },
      url: 'http://localhost:3000/bills/hr1395-117',
      sources: {
        congress_gov: 'https://www.congress.gov/bill/117th-congress/house-bill/1395',
        govinfo_billstatus: 'https://www.govinfo.gov/bulkdata/BILLSTATUS/117/hr/BILLSTATUS-117hr1395.xml',
      },
    });
    expect(bill.sponsor).toMatchObject({ bioguide_id: 'B001281', name: 'Joyce Beatty', party: 'D', party_name: 'Democrat', state: 'OH' });
    expect(bill.committees.map((committee) => committee.system_code).sort()).toEqual(['hsba00', 'ssbk00']);
    expect(bill.summary?.text).toContain('25 basis points');
    expect(bill.analysis).toMatch(/first-time homebuyers/);
    expect(bill.as_of).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    // The publisher lists "Introduced in House" twice (two action codes); the timeline shows it once.
    const intro = bill.actions.filter((action) => action.text === 'Introduced in House');
    expect(intro).toHaveLength(1);
    expect(bill.actions[0]?.date).toBe('2021-04-22');

    const law = await service.get('hr7735-117');
    expect(law).toMatchObject({ status: 'became_law', laws: [{ type: 'Public Law', number: '117-308' }] });
    // A member who has left Congress resolves through the historical table.
    expect((await service.get('hr5756-117')).sponsor).toMatchObject({ name: 'Ed Perlmutter', state: 'CO' });
  });

  it('finds FHA bills by keyword', async () => {
    const result = await service.search({ query: 'FHA', limit: 20 });
    const ids = result.bills.map((bill) => bill.bill_id);
    for (const id of ['hr1395-117', 'hr1532-117', 's2131-117', 'hr6774-119', 'hr123-117', 'hr3008-117']) expect(ids).toContain(id);
    expect(ids).not.toContain('hr2275-117'); // a tax bill that never mentions FHA
    expect(result.bills[0]?.title).toMatch(/FHA/);
    expect(result.bills[0]?.excerpt).toMatch(/\*\*FHA\*\*|\*\*Federal\*\*/);
    expect(result.as_of).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it('ranks the housing-supply bills first for "housing supply"', async () => {
    const result = await service.search({ query: 'housing supply' });
    const ids = result.bills.map((bill) => bill.bill_id);
    expect(ids[0]).toBe('hr2126-117');
    expect(ids.slice(0, 3)).toContain('s2651-119');
  });

  it('finds a bill by id, by cited number and by sponsor', async () => {
    expect((await service.search({ bill_id: 's2651-119' })).bills.map((bill) => bill.bill_id)).toEqual(['s2651-119']);
    expect((await service.search({ query: 'H.R. 1532' })).bills[0]?.bill_id).toBe('hr1532-117');
    expect((await service.search({ query: 'hr7735-117' })).bills[0]?.bill_id).toBe('hr7735-117');
    const waters = (await service.search({ query: 'Maxine Waters', limit: 45 })).bills.map((bill) => bill.bill_id);
    expect(waters).toEqual(expect.arrayContaining(['hr4495-117', 'hr6774-119']));
  });

  it('filters by status and lists every tracked bill', async () => {
    const reported = await service.search({ status: 'reported', limit: 45 });
    expect(reported.bills.map((bill) => bill.bill_id).sort()).toEqual(['hr3009-117', 's2651-119', 's3381-117']);
    expect((await service.search({ limit: 45 })).count).toBe(45);
    const list = await service.list();
    expect(list).toHaveLength(45);
    const dates = list.map((bill) => bill.latest_action.date);
    expect(dates).toEqual([...dates].sort().reverse());
    expect(dates[0]).toBe('2025-12-17');
  });

  it('rejects bad input with messages that say how to fix it', async () => {
    await expect(service.get('hr-1234')).rejects.toThrow(BadRequestError);
    await expect(service.get('hr-1234')).rejects.toThrow(/"hr1234-119"/);
    await expect(service.search({ bill_id: 'H.R.1' })).rejects.toThrow(/"hr1234-119"/);
    await expect(service.search({ status: 'pending' })).rejects.toThrow(/status must be one of introduced, in_committee/);
    await expect(service.search({ limit: 0 })).rejects.toThrow(/limit must be a whole number from 1 to 45/);
    await expect(service.search({ query: 'x'.repeat(201) })).rejects.toThrow(BadRequestError);
    await expect(service.get('hr9999-119')).rejects.toThrow(NotFoundError);
  });

  it('treats SQL and LIKE syntax in a query as plain text', async () => {
    const injection = await service.search({ query: "'; DROP TABLE bills; --" });
    expect(injection.count).toBe(0);
    expect((await service.search({ query: '%' })).count).toBe(0);
    expect((await service.search({ query: '_' })).count).toBe(0);
    expect((await service.list()).length).toBe(TRACKED_BILL_COUNT);
  });
});
