// The tracked-bill rule and final statuses: which Congress sits on a day, what an ended Congress's
// bills read, and the selection over the mirror's real BILLSTATUS records checked against a separate
// reading of the raw XML.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseBillStatusXml } from '../../api/bills/billstatus-xml.ts';
import { candidatesFromMirror } from '../../api/bills/candidates.ts';
import { congressEndDate, congressHasEnded, congressOn } from '../../api/bills/congress-term.ts';
import { billStatusMirrorPath } from '../../api/bills/bill-id.ts';
import { selectBill } from '../../api/bills/selection.ts';
import { statusAsOf } from '../../api/bills/status.ts';
import { readTrackedBills } from '../../api/bills/tracked.ts';
import { hasSourceData, SOURCE_DIR, sourceFile } from '../support/source-data.ts';

const TODAY = new Date('2026-11-28T15:00:00Z');
const day = (iso: string) => new Date(`${iso}T12:00:00Z`);

describe('congress terms', () => {
  it('knows the sitting Congress and when each ends', () => {
    expect(congressOn(TODAY)).toBe(119);
    expect(congressOn(day('2025-01-02'))).toBe(118);
    expect(congressOn(day('2025-01-03'))).toBe(119);
    expect(congressOn(day('2027-01-02'))).toBe(119);
    expect(congressOn(day('2027-01-03'))).toBe(120);
    expect(congressOn(day('2018-01-01'))).toBe(115);
    expect(congressEndDate(117)).toBe('2023-01-03');
    expect(congressEndDate(119)).toBe('2027-01-03');
    expect(congressHasEnded(117, TODAY)).toBe(true);
    expect(congressHasEnded(119, TODAY)).toBe(false);
    expect(congressHasEnded(119, day('2027-01-03'))).toBe(true);
  });
});

describe('status once a Congress has ended', () => {
  it('turns the open stages into died in committee and keeps every final stage', () => {
    expect(statusAsOf('in_committee', 117, TODAY)).toBe('died_in_committee');
    expect(statusAsOf('introduced', 117, TODAY)).toBe('died_in_committee');
    expect(statusAsOf('in_committee', 119, TODAY)).toBe('in_committee');
    expect(statusAsOf('in_committee', 119, day('2027-01-03'))).toBe('died_in_committee');
    for (const stage of ['reported', 'passed_house', 'passed_senate', 'passed_both', 'to_president', 'vetoed', 'became_law'] as const) {
      expect(statusAsOf(stage, 117, TODAY)).toBe(stage);
    }
  });

  it.skipIf(!hasSourceData)('reads no 117th-Congress record as in committee, from its actions and the end of the term', () => {
    const dir = sourceFile('congress', 'billstatus', '117');
    const finals = new Map<string, string>();
    for (const name of fs.readdirSync(dir)) {
      const record = parseBillStatusXml(fs.readFileSync(path.join(dir, name), 'utf8'), name);
      finals.set(record.billId, statusAsOf(record.status, record.congress, TODAY));
    }
    expect(finals.size).toBe(51);
    expect([...finals.values()].filter((status) => status === 'in_committee' || status === 'introduced')).toEqual([]);
    expect(finals.get('hr34-117')).toBe('died_in_committee'); // referred to Financial Services, nothing after
    expect(finals.get('hr1395-117')).toBe('passed_house');
    expect(finals.get('hr7735-117')).toBe('became_law');
    expect(finals.get('hr3009-117')).toBe('reported');
  });
});

/** The rule as the tracked-list documentation states it, read straight from the raw XML text. */
function expectedByTheRule(xml: string, congress: number, sitting: number): boolean {
  const bill = xml.slice(xml.indexOf('<bill>'));
  const policyArea = /<policyArea>\s*<name>([^<]*)<\/name>/.exec(bill)?.[1];
  const subjectsBlock = /<legislativeSubjects>([\s\S]*?)<\/legislativeSubjects>/.exec(bill)?.[1] ?? '';
  const subjects = [...subjectsBlock.matchAll(/<name>([^<]*)<\/name>/g)].map((match) => match[1]);
  const committees = new Set([...bill.matchAll(/<systemCode>([a-z0-9]+)<\/systemCode>/g)].map((match) => match[1]));
  const title = /<title>([^<]*)<\/title>\s*<titles>/.exec(bill)?.[1] ?? '';
  const lawDates = [...bill.matchAll(/<actionDate>([\d-]+)<\/actionDate>\s*<text>[^<]*<\/text>\s*<type>BecameLaw<\/type>/g)].map(
    (match) => match[1] ?? '',
  );
  const housing =
    policyArea === 'Housing and Community Development' ||
    subjects.includes('Housing finance and home ownership') ||
    ((committees.has('hsba00') || committees.has('ssbk00')) &&
      /mortgage|housing|\bhome(s|owners?|ownership|buyers?| ?loans?)?\b|apprais|\bFHA\b|Ginnie Mae|foreclos|down ?payment/i.test(title));
  const lawSince2018 = lawDates.some((date) => date >= '2018-01-01');
  return housing && (congress === sitting || lawSince2018);
}

describe.skipIf(!hasSourceData)('the tracked-bill rule on the mirror’s records', () => {
  const read = (billId: string, file: string) => ({ billId, xml: fs.readFileSync(file, 'utf8') });

  it('selects exactly the bills a separate reading of the XML expects: housing bills of the 119th and housing laws since 2018', async () => {
    const refs = await candidatesFromMirror(SOURCE_DIR, TODAY);
    expect(refs.length).toBe(54); // every 117th and 119th file; no 115th, 116th or 118th in the mirror
    const expected: string[] = [];
    const selected: string[] = [];
    for (const ref of refs) {
      const { xml } = read(ref.billId, path.join(SOURCE_DIR, billStatusMirrorPath(ref)));
      if (expectedByTheRule(xml, ref.congress, 119)) expected.push(ref.billId);
      if (selectBill(parseBillStatusXml(xml, ref.billId), TODAY)) selected.push(ref.billId);
    }
    expect(selected).toEqual(expected);
    expect(selected.sort()).toEqual(['hr2471-117', 'hr4385-119', 'hr6774-119', 'hr7735-117', 's2651-119']);
  });

  it('keeps every bill of an ended Congress we wrote an analysis of, as the archive, beside the rule’s own', async () => {
    const analysed = new Set((await readTrackedBills()).map((bill) => bill.billId));
    const refs = await candidatesFromMirror(SOURCE_DIR, TODAY);
    const reasons = new Map<string, string>();
    for (const ref of refs) {
      const { xml } = read(ref.billId, path.join(SOURCE_DIR, billStatusMirrorPath(ref)));
      const selection = selectBill(parseBillStatusXml(xml, ref.billId), TODAY, analysed.has(ref.billId));
      if (selection) reasons.set(ref.billId, selection.reason);
    }
    const archive = [...reasons].filter(([, reason]) => reason === 'archive').map(([billId]) => billId);
    // Every analysis of an ended Congress's bill that did not become law is reachable again.
    const endedAnalysed = [...analysed].filter((billId) => billId.endsWith('-117') && reasons.get(billId) !== 'law');
    expect(archive.sort()).toEqual(endedAnalysed.sort());
    expect(archive.length).toBeGreaterThanOrEqual(40);
    // Without an analysis, the rule alone: no archive.
    expect(
      selectBill(
        parseBillStatusXml(read('x', path.join(SOURCE_DIR, billStatusMirrorPath(refs.find((ref) => ref.billId === archive[0])!))).xml, 'x'),
        TODAY,
      ),
    ).toBeUndefined();
  });

  it('selected every 117th housing bill while the 117th sat, and never the FedRAMP or reserved bills', async () => {
    const during117 = day('2022-06-01');
    const dir = sourceFile('congress', 'billstatus', '117');
    const expected: string[] = [];
    const selected: string[] = [];
    for (const name of fs.readdirSync(dir).sort()) {
      const { xml } = read(name, path.join(dir, name));
      const record = parseBillStatusXml(xml, name);
      if (expectedByTheRule(xml, 117, 117)) expected.push(record.billId);
      if (selectBill(record, during117)) selected.push(record.billId);
    }
    expect(selected).toEqual(expected);
    expect(selected).toHaveLength(49);
    for (const absent of ['hr14-117', 'hr21-117']) expect(selected).not.toContain(absent);
  });

  it('does not count a Senate Banking referral alone: a gold medal for Officer Goodman is no housing bill', () => {
    const file = sourceFile('congress', 'billstatus', 'usgpo_samples', 'v3', 'BILLSTATUS-117s35.xml');
    const record = parseBillStatusXml(fs.readFileSync(file, 'utf8'), file);
    expect(record.committees.map((committee) => committee.systemCode)).toContain('ssbk00');
    const sitting = { ...record, congress: 119 };
    expect(selectBill(sitting, TODAY)).toBeUndefined();
    expect(selectBill({ ...sitting, title: 'Mortgage Servicing Fairness Act' }, TODAY)).toMatchObject({
      reason: 'current congress',
      basis: 'committee',
    });
  });
});
