// BILLSTATUS XML in both schema versions, on GPO's own samples and the real records of the mirror;
// status derivation; bill ids; the tracked list.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseBillStatusXml } from '../../api/bills/billstatus-xml.ts';
import { citation, congressGovUrl, govinfoBillStatusUrl, parseBillId, requireBillId } from '../../api/bills/bill-id.ts';
import { addLegislators, parseCsv } from '../../api/bills/legislators.ts';
import { htmlToText } from '../../api/bills/normalize.ts';
import { citedBill } from '../../api/bills/service.ts';
import { deriveStatus } from '../../api/bills/status.ts';
import { parseTrackedBill, readTrackedBills, wordCount } from '../../api/bills/tracked.ts';
import { BadRequestError } from '../../api/platform/errors.ts';
import { SourceFormatError, ValidationError } from '../../api/sync/errors.ts';
import { hasSourceData, sourceFile } from '../support/source-data.ts';

const billstatus = (...parts: string[]) => sourceFile('congress', 'billstatus', ...parts);
const parseFile = (file: string) => parseBillStatusXml(fs.readFileSync(file, 'utf8'), file);

describe.skipIf(!hasSourceData)('BILLSTATUS XML, both schema versions', () => {
  it('reads GPO’s S. 35 sample identically from the legacy 1.0.0 and the 3.0.0 schema', () => {
    const legacy = parseFile(billstatus('usgpo_samples', 'legacy_v1', 'BILLSTATUS-117s35.xml'));
    const current = parseFile(billstatus('usgpo_samples', 'v3', 'BILLSTATUS-117s35.xml'));
    expect(legacy.sourceFormat).toBe('billstatus-xml-1');
    expect(current.sourceFormat).toBe('billstatus-xml-3');
    expect(legacy.billId).toBe('s35-117');
    expect(legacy.sponsor?.bioguideId).toBe('V000128');
    expect(legacy.committees.map((committee) => committee.systemCode)).toEqual(['ssbk00']);
    expect(legacy.subjects).toContain('Congressional tributes');
    expect(legacy.summary?.versionCode).toBe('55');
    expect(legacy.summary?.actionDesc).toBe('Passed Senate');
    expect(legacy.status).toBe('passed_senate');
    expect(legacy.latestAction).toEqual({ date: '2021-02-18', text: 'Held at the desk.' });
    // The two samples are snapshots taken months apart: the record's update time and the list of
    // titles differ; everything the service serves from them must not.
    const served = ({ sourceFormat: _f, updateDate: _u, titles: _t, officialTitle: _o, ...rest }: typeof legacy) => rest;
    expect(legacy.cosponsors.length).toBeGreaterThan(50);
    expect(served(legacy)).toEqual(served(current));
  });

  it('reads the real legacy-schema record H.R. 14 (no sponsor, empty lists)', () => {
    const record = parseFile(billstatus('117', 'BILLSTATUS-117hr14.xml'));
    expect(record).toMatchObject({
      billId: 'hr14-117',
      sourceFormat: 'billstatus-xml-1',
      sponsor: null,
      status: 'introduced',
      summary: null,
    });
    expect(record.cosponsors).toEqual([]);
    expect(record.committees).toEqual([]);
    expect(record.actions).toHaveLength(2);
  });

  it('parses all 54 real records of the mirror with identity, title and latest action', () => {
    const files = ['117', '119'].flatMap((congress) =>
      fs.readdirSync(billstatus(congress)).map((name) => path.join(billstatus(congress), name)),
    );
    expect(files).toHaveLength(54);
    for (const file of files) {
      const record = parseFile(file);
      expect(path.basename(file)).toBe(`BILLSTATUS-${record.congress}${record.type}${record.number}.xml`);
      expect(record.title).not.toBe('');
      expect(record.latestAction?.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    }
  });

  it('reads a 119th-Congress record: sponsor, cosponsor, committee, no summary yet', () => {
    const record = parseFile(billstatus('119', 'BILLSTATUS-119hr6774.xml'));
    expect(record).toMatchObject({ billId: 'hr6774-119', title: 'FHA Small-Dollar Mortgages Act', status: 'in_committee', summary: null });
    expect(record.sponsor).toMatchObject({ bioguideId: 'W000187', party: 'D', state: 'CA', district: '43' });
    expect(record.cosponsors).toEqual([
      expect.objectContaining({ bioguideId: 'B001287', sponsorshipDate: '2026-03-18', isOriginalCosponsor: false }),
    ]);
    expect(record.committees[0]).toMatchObject({ systemCode: 'hsba00', name: 'Financial Services Committee', chamber: 'House' });
    expect(record.officialTitle).toMatch(/^To authorize the Secretary of Housing and Urban Development/);
  });

  it('derives each stage from the real histories', () => {
    const status = (name: string) => parseFile(billstatus('117', name)).status;
    expect(status('BILLSTATUS-117hr7735.xml')).toBe('became_law');
    expect(status('BILLSTATUS-117hr2471.xml')).toBe('became_law');
    expect(status('BILLSTATUS-117hr1395.xml')).toBe('passed_house');
    expect(status('BILLSTATUS-117hr3009.xml')).toBe('reported');
    expect(status('BILLSTATUS-117hr34.xml')).toBe('in_committee');
    expect(parseFile(billstatus('119', 'BILLSTATUS-119s2651.xml')).status).toBe('reported');
    expect(parseFile(billstatus('117', 'BILLSTATUS-117hr7735.xml')).laws).toEqual([{ type: 'Public Law', number: '117-308' }]);
  });

  it('keeps actions newest first and turns the summary HTML into plain text', () => {
    const record = parseFile(billstatus('117', 'BILLSTATUS-117hr1395.xml'));
    const dates = record.actions.map((action) => action.date);
    expect(dates).toEqual([...dates].sort().reverse());
    expect(record.summary?.text).toContain('25 basis points');
    expect(record.summary?.text).not.toMatch(/<|&nbsp;/);
  });

  it('names the file and line of malformed XML', () => {
    const original = fs.readFileSync(billstatus('117', 'BILLSTATUS-117hr34.xml'), 'utf8');
    const broken = original.replace('<latestAction>', '<latestAction><oops>');
    expect(() => parseBillStatusXml(broken, '/mirror/BILLSTATUS-117hr34.xml')).toThrow(SourceFormatError);
    try {
      parseBillStatusXml(broken, '/mirror/BILLSTATUS-117hr34.xml');
    } catch (error) {
      expect((error as SourceFormatError).file).toBe('/mirror/BILLSTATUS-117hr34.xml');
      expect((error as SourceFormatError).line).toBeGreaterThan(100);
      expect((error as Error).message).toMatch(/^\/mirror\/BILLSTATUS-117hr34\.xml:\d+: malformed XML/);
    }
  });
});

describe('BILLSTATUS parser on hand-made input', () => {
  it('refuses XML that is not a BILLSTATUS file', () => {
    expect(() => parseBillStatusXml('<rss><channel/></rss>', 'feed.xml')).toThrow(/feed\.xml: no <billStatus><bill> element/);
  });

  it('refuses a record without a bill identity', () => {
    const xml = '<billStatus><version>3.0.0</version><bill><type>HR</type><congress>119</congress><title>x</title></bill></billStatus>';
    expect(() => parseBillStatusXml(xml, 'x.xml')).toThrow(/missing or invalid bill identity/);
  });
});

describe('status derivation', () => {
  const action = (code: string | null, type: string | null = null) => ({ code, type });
  it('ranks law above passage, passage above committee stages', () => {
    expect(deriveStatus({ actions: [], committeeCount: 0, lawCount: 0 })).toBe('introduced');
    expect(deriveStatus({ actions: [action('H11100', 'IntroReferral')], committeeCount: 1, lawCount: 0 })).toBe('in_committee');
    expect(deriveStatus({ actions: [action('5000', 'Committee')], committeeCount: 1, lawCount: 0 })).toBe('reported');
    expect(deriveStatus({ actions: [action(null, 'Calendars')], committeeCount: 1, lawCount: 0 })).toBe('reported');
    expect(deriveStatus({ actions: [action('8000'), action('17000')], committeeCount: 2, lawCount: 0 })).toBe('passed_both');
    expect(deriveStatus({ actions: [action('17000')], committeeCount: 1, lawCount: 0 })).toBe('passed_senate');
    expect(deriveStatus({ actions: [action('28000', 'President')], committeeCount: 1, lawCount: 0 })).toBe('to_president');
    expect(deriveStatus({ actions: [action('31000', 'Veto')], committeeCount: 1, lawCount: 0 })).toBe('vetoed');
    expect(deriveStatus({ actions: [action('31000', 'Veto')], committeeCount: 1, lawCount: 1 })).toBe('became_law');
  });
});

describe('bill ids', () => {
  it('parses ids case-insensitively and builds the publisher URLs', () => {
    const ref = parseBillId('HR1395-117');
    expect(ref).toEqual({ billId: 'hr1395-117', congress: 117, type: 'hr', number: 1395 });
    if (!ref) return;
    expect(govinfoBillStatusUrl(ref)).toBe('https://www.govinfo.gov/bulkdata/BILLSTATUS/117/hr/BILLSTATUS-117hr1395.xml');
    expect(congressGovUrl(ref)).toBe('https://www.congress.gov/bill/117th-congress/house-bill/1395');
    expect(citation(ref)).toBe('H.R. 1395 (117th Congress)');
    expect(congressGovUrl({ billId: 's2651-119', congress: 119, type: 's', number: 2651 })).toBe(
      'https://www.congress.gov/bill/119th-congress/senate-bill/2651',
    );
  });

  it('rejects malformed ids with a message that shows the format', () => {
    for (const bad of ['hr1234', '1234-119', 'xx12-119', 'hr0-119', "hr1-119'; drop table bills", 'hr12-119-1']) {
      expect(parseBillId(bad)).toBeUndefined();
      expect(() => requireBillId(bad)).toThrow(BadRequestError);
    }
    expect(() => requireBillId('H.R. 1234')).toThrow(/like "hr1234-119"/);
  });

  it('recognises bills cited by number in a search query', () => {
    expect(citedBill('H.R. 1395')).toEqual({ type: 'hr', number: 1395 });
    expect(citedBill('s 2651')).toEqual({ type: 's', number: 2651 });
    expect(citedBill('hr1532-117')).toEqual({ type: 'hr', number: 1532, congress: 117 });
    expect(citedBill('housing supply')).toBeUndefined();
    expect(citedBill('FHA')).toBeUndefined();
  });
});

describe('summary text', () => {
  it('keeps paragraphs and decodes entities without keeping markup', () => {
    expect(htmlToText(' <p><b>Title</b></p> <p>One&nbsp;two &amp; COVID&#8211;19.</p><ul><li>a</li><li>b</li></ul>')).toBe(
      'Title\n\nOne two & COVID–19.\n\n• a\n\n• b',
    );
    expect(htmlToText('<script>alert(1)</script>safe')).not.toContain('<script>');
  });
});

describe.skipIf(!hasSourceData)('legislators tables', () => {
  it('resolves current and former members by bioguide id', () => {
    const index = new Map();
    addLegislators(index, fs.readFileSync(sourceFile('congress', 'legislators', 'legislators-current.csv'), 'utf8'), 'current.csv');
    addLegislators(index, fs.readFileSync(sourceFile('congress', 'legislators', 'legislators-historical.csv'), 'utf8'), 'historical.csv');
    expect(index.get('W000187')).toMatchObject({ name: 'Maxine Waters', party: 'Democrat', state: 'CA' });
    // Ed Perlmutter (H.R. 5756, H.R. 8577) left the House after the 117th Congress.
    expect(index.get('P000593')).toMatchObject({ name: 'Ed Perlmutter', state: 'CO' });
  });

  it('parses quoted CSV fields and names the line of an unterminated quote', () => {
    expect(parseCsv('a,b\n"x, y","say ""hi"""\n', 't.csv')).toEqual([
      ['a', 'b'],
      ['x, y', 'say "hi"'],
    ]);
    expect(() => parseCsv('a,b\n1,2\n"open,3\n', 't.csv')).toThrow(/t\.csv:3: unterminated quoted field/);
  });
});

describe('our analyses (content/bills)', () => {
  it('hold valid front matter, one file per bill, and 120–300 word analyses', async () => {
    const bills = await readTrackedBills();
    expect(bills.length).toBeGreaterThan(0);
    expect(new Set(bills.map((bill) => bill.billId)).size).toBe(bills.length);
    for (const bill of bills) {
      const words = wordCount(bill.analysis);
      expect(words, bill.billId).toBeGreaterThanOrEqual(120);
      expect(words, bill.billId).toBeLessThanOrEqual(300);
    }
  });

  it.skipIf(!hasSourceData)('are written for bills whose record the mirror holds, and none of the non-housing ones', async () => {
    const bills = await readTrackedBills();
    for (const bill of bills) {
      expect(
        fs.existsSync(billstatus(String(bill.congress), `BILLSTATUS-${bill.congress}${bill.type}${bill.number}.xml`)),
        bill.billId,
      ).toBe(true);
    }
    const ids = bills.map((bill) => bill.billId);
    for (const excluded of ['hr14-117', 'hr21-117', 'hr2471-117']) expect(ids).not.toContain(excluded);
  });

  it('rejects bad front matter, mismatched ids and analyses of the wrong length', () => {
    const body = Array.from({ length: 130 }, () => 'word').join(' ');
    const file = (front: string, text = body) => `---\n${front}\n---\n\n${text}\n`;
    const good =
      'bill_id: hr1-119\ncongress: 119\ntype: hr\nnumber: 1\nshort_title: "A bill"\ntopics: [fha]\nwhy_we_track: "Because it matters to borrowers."';
    expect(parseTrackedBill(file(good), '/x/hr1-119.md')).toMatchObject({ billId: 'hr1-119', topics: ['fha'] });
    expect(() => parseTrackedBill(file(good), '/x/hr2-119.md')).toThrow(/file name must be hr1-119\.md/);
    expect(() => parseTrackedBill(file(good.replace('number: 1', 'number: 2')), '/x/hr1-119.md')).toThrow(ValidationError);
    expect(() => parseTrackedBill(file(good.replace('topics: [fha]', 'topics: []')), '/x/hr1-119.md')).toThrow(/topics/);
    expect(() => parseTrackedBill(file(good, 'too short'), '/x/hr1-119.md')).toThrow(/analysis has 2 words/);
    expect(() => parseTrackedBill('no front matter', '/x/hr1-119.md')).toThrow(/hr1-119\.md: missing front matter/);
  });
});
