// The `bills` dataset on both databases: the bills the selection rule tracks among the mirror's
// BILLSTATUS files (housing bills of the 119th Congress, housing laws since 2018, and the archive of
// 117th-Congress bills we wrote an analysis of), an idempotent
// second run, a corrupted file failing the dataset by name while the earlier load stays; then the
// service's search and get on the synced rows, and the statuses it answers once the 119th has ended.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBillsService, type BillsService } from '../../api/bills/service.ts';
import { BadRequestError, NotFoundError, ServiceUnavailableError } from '../../api/platform/errors.ts';
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

/** The day the suite runs as (the 119th Congress sits), so the selection does not move with the wall clock. */
const TODAY = new Date('2026-11-28T12:00:00Z');
const clock = () => TODAY;
/** What the rule tracks among the mirror's records on that day (tests/unit/bills-selection.test.ts derives it). */
const CURRENT_AND_LAWS = ['hr2471-117', 'hr4385-119', 'hr6774-119', 'hr7735-117', 's2651-119'];
/** The archive: the 117th Congress's bills we wrote an analysis of, none of which became law. */
const ARCHIVE = fs
  .readdirSync(path.join(import.meta.dirname, '..', '..', 'content', 'bills'))
  .map((name) => name.replace(/\.md$/, ''))
  .filter((billId) => billId.endsWith('-117') && !CURRENT_AND_LAWS.includes(billId));
const TRACKED = [...CURRENT_AND_LAWS, ...ARCHIVE].sort();

describe.skipIf(!hasSourceData).each(databaseKinds)('bills dataset and service on %s', (kind) => {
  let test: TestDatabase;
  let service: BillsService;
  beforeAll(async () => {
    test = await createTestDatabase(kind);
    service = createBillsService({ db: test.db, baseUrl: 'http://localhost:3000', clock });
  });
  afterAll(() => test.drop());

  it('answers 503 before the first sync', async () => {
    await expect(service.search({ query: 'FHA' })).rejects.toThrow(ServiceUnavailableError);
  });

  it('loads the bills the rule selects, and a second run changes nothing', async () => {
    const first = await syncInto(test.db, ['bills'], { clock });
    const result = first.results.find((entry) => entry.name === 'bills');
    expect(result?.message).toBe('');
    expect(result).toMatchObject({ status: 'ok', rows: TRACKED.length, changed: TRACKED.length, asOf: '2026-09-09' });
    expect(result?.sourceUrl).toBe('https://www.govinfo.gov/bulkdata/BILLSTATUS');
    const { rows } = await test.db.query<{ bill_id: string }>('SELECT bill_id FROM bills ORDER BY bill_id');
    expect(rows.map((row) => row.bill_id)).toEqual(TRACKED);

    const before = await test.db.query<{ bill_id: string; synced_at: unknown }>(
      'SELECT bill_id, synced_at::text FROM bills ORDER BY bill_id',
    );
    const second = await syncInto(test.db, ['bills'], { clock });
    expect(second.results.find((entry) => entry.name === 'bills')).toMatchObject({ status: 'ok', changed: 0 });
    const after = await test.db.query('SELECT bill_id, synced_at::text FROM bills ORDER BY bill_id');
    expect(after.rows).toEqual(before.rows);
  });

  it('puts the tracked bills into the site-wide search index', async () => {
    const { rows } = await test.db.query<{ id: string; type: string; path: string; title: string }>(
      "SELECT id, type, path, title FROM search_documents WHERE source = 'bills' ORDER BY id",
    );
    expect(rows).toHaveLength(TRACKED.length);
    expect(rows).toContainEqual({
      id: 'bill:hr6774-119',
      type: 'bill',
      path: '/bills/hr6774-119',
      title: 'FHA Small-Dollar Mortgages Act (H.R. 6774)',
    });
  });

  it('fails the dataset on a corrupted file, naming file and line, and keeps the earlier load', async () => {
    const { dir, file } = corruptedMirror();
    try {
      const report = await syncInto(test.db, ['bills'], { sourceDir: dir, clock });
      const result = report.results.find((entry) => entry.name === 'bills');
      expect(result?.status).toBe('failed');
      expect(result?.message).toContain(file);
      expect(result?.message).toMatch(/BILLSTATUS-117hr1532\.xml:\d+: malformed XML/);
      const bill = await service.get('hr6774-119');
      expect(bill.status).toBe('in_committee');
      expect((await service.list()).length).toBe(TRACKED.length);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('stores status, sponsor (resolved from the legislators tables), cosponsors, committees, actions and summary', async () => {
    const law = await service.get('HR7735-117');
    expect(law).toMatchObject({
      bill_id: 'hr7735-117',
      citation: 'H.R. 7735 (117th Congress)',
      title: 'Improving Access to the VA Home Loan Benefit Act of 2022',
      status: 'became_law',
      status_label: 'Became law',
      laws: [{ type: 'Public Law', number: '117-308' }],
      latest_action: { date: '2022-12-27' },
      url: 'http://localhost:3000/bills/hr7735-117',
      sources: {
        congress_gov: 'https://www.congress.gov/bill/117th-congress/house-bill/7735',
        govinfo_billstatus: 'https://www.govinfo.gov/bulkdata/BILLSTATUS/117/hr/BILLSTATUS-117hr7735.xml',
      },
    });
    expect(law.committees.map((committee) => committee.system_code)).toContain('hsvr00');
    expect(law.analysis).not.toBe('');
    expect(law.as_of).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    // The publisher lists "Became Public Law" and "Signed by President" as two BecameLaw actions; both stay.
    expect(law.actions[0]?.date).toBe('2022-12-27');

    const supply = await service.get('s2651-119');
    expect(supply).toMatchObject({
      status: 'reported',
      status_label: 'Reported by committee',
      policy_area: 'Housing and Community Development',
    });
    expect(supply.sponsor).toMatchObject({ party: 'R', state: 'SC' });

    // A law the rule tracks that we have not written about: the record's title, and the rule's reason.
    const omnibus = await service.get('hr2471-117');
    expect(omnibus).toMatchObject({ short_title: 'Consolidated Appropriations Act, 2022', analysis: '', topics: [] });
    expect(omnibus.why_we_track).toBe('A housing law enacted on 2022-03-15: it carries the subject "Housing finance and home ownership".');
  });

  it('keeps a 117th bill that never became law in the archive with our analysis, labelled with its Congress', async () => {
    const bill = await service.get('hr1532-117');
    expect(bill.status_label).toMatch(/, 117th Congress$/);
    expect(bill.analysis.length).toBeGreaterThan(100);
    for (const archived of (await service.list()).filter((item) => ARCHIVE.includes(item.bill_id))) {
      expect(archived.status_label, archived.bill_id).toMatch(/, 117th Congress$/);
    }
  });

  it('finds FHA bills by keyword', async () => {
    const result = await service.search({ query: 'FHA', limit: 20 });
    const ids = result.bills.map((bill) => bill.bill_id);
    expect(ids[0]).toBe('hr6774-119');
    expect(ids).not.toContain('s2651-119'); // the ROAD to Housing Act's record and our analysis never name FHA
    expect(result.bills[0]?.title).toMatch(/FHA/);
    expect(result.bills[0]?.excerpt).toMatch(/\*\*FHA\*\*|\*\*Federal\*\*/);
    expect(result.as_of).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it('ranks the ROAD to Housing Act first for "housing supply"', async () => {
    const result = await service.search({ query: 'housing supply' });
    expect(result.bills[0]?.bill_id).toBe('s2651-119');
  });

  it('finds a bill by id, by cited number and by sponsor', async () => {
    expect((await service.search({ bill_id: 's2651-119' })).bills.map((bill) => bill.bill_id)).toEqual(['s2651-119']);
    expect((await service.search({ query: 'H.R. 6774' })).bills[0]?.bill_id).toBe('hr6774-119');
    expect((await service.search({ query: 'hr7735-117' })).bills[0]?.bill_id).toBe('hr7735-117');
    const waters = (await service.search({ query: 'Maxine Waters', limit: 60 })).bills.map((bill) => bill.bill_id);
    expect(waters).toContain('hr6774-119');
  });

  it('filters by status and lists every tracked bill', async () => {
    const ids = async (status: string) => (await service.search({ status, limit: 60 })).bills.map((bill) => bill.bill_id).sort();
    expect((await ids('reported')).filter((billId) => !ARCHIVE.includes(billId))).toEqual(['s2651-119']);
    expect(await ids('became_law')).toEqual(['hr2471-117', 'hr7735-117']);
    expect(await ids('in_committee')).toEqual(['hr4385-119', 'hr6774-119']);
    expect((await ids('died_in_committee')).every((billId) => ARCHIVE.includes(billId))).toBe(true);
    expect((await service.search({ limit: 60 })).count).toBe(TRACKED.length);
    const list = await service.list();
    expect(list.map((bill) => bill.bill_id).sort()).toEqual(TRACKED);
    // The sitting Congress's bills first, then the laws, then the archive; each by latest action.
    const tier = (bill: (typeof list)[number]) => (bill.congress >= 119 ? 0 : bill.status === 'became_law' ? 1 : 2);
    expect(list.map(tier)).toEqual([...list.map(tier)].sort());
    for (const part of [0, 1, 2]) {
      const dates = list.filter((bill) => tier(bill) === part).map((bill) => bill.latest_action.date);
      expect(dates).toEqual([...dates].sort().reverse());
    }
    expect(list[0]?.latest_action.date).toBe('2025-12-17');
  });

  it('reads the 119th Congress’s open bills as died in committee once the Congress has ended, without a new sync', async () => {
    const after119 = createBillsService({ db: test.db, clock: () => new Date('2027-01-04T12:00:00Z') });
    expect(await after119.get('hr6774-119')).toMatchObject({
      status: 'died_in_committee',
      status_label: 'Died in committee, 119th Congress',
    });
    expect(await after119.get('s2651-119')).toMatchObject({ status: 'reported' });
    const ids = async (status: string) => (await after119.search({ status, limit: 60 })).bills.map((bill) => bill.bill_id).sort();
    expect((await ids('died_in_committee')).filter((billId) => billId.endsWith('-119'))).toEqual(['hr4385-119', 'hr6774-119']);
    expect(await ids('in_committee')).toEqual([]);
    expect((await after119.list()).filter((bill) => bill.status === 'in_committee' || bill.status === 'introduced')).toEqual([]);
  });

  it('rejects bad input with messages that say how to fix it', async () => {
    await expect(service.get('hr-1234')).rejects.toThrow(BadRequestError);
    await expect(service.get('hr-1234')).rejects.toThrow(/"hr1234-119"/);
    await expect(service.search({ bill_id: 'H.R.1' })).rejects.toThrow(/"hr1234-119"/);
    await expect(service.search({ status: 'pending' })).rejects.toThrow(/status must be one of introduced, in_committee/);
    await expect(service.search({ limit: 0 })).rejects.toThrow(/limit must be a whole number from 1 to 60/);
    await expect(service.search({ query: 'x'.repeat(201) })).rejects.toThrow(BadRequestError);
    await expect(service.get('hr9999-119')).rejects.toThrow(NotFoundError);
  });

  it('treats SQL and LIKE syntax in a query as plain text', async () => {
    const injection = await service.search({ query: "'; DROP TABLE bills; --" });
    expect(injection.count).toBe(0);
    expect((await service.search({ query: '%' })).count).toBe(0);
    expect((await service.search({ query: '_' })).count).toBe(0);
    expect((await service.list()).length).toBe(TRACKED.length);
  });
});
