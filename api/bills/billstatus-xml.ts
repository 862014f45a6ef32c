// Parses a GovInfo BILLSTATUS XML file into a BillRecord. Two schema versions are in circulation:
// 3.0.0 (`<billStatus><version>3.0.0</version><bill><number>`, lists as `item`, `summaries/summary`)
// and the legacy 1.0.0 (`<bill><billNumber>`, `<billType>`, `committees/billCommittees/item`,
// `summaries/billSummaries/item`, `subjects/billSubjects/…`, version inside `<bill>`).
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { SourceFormatError } from '../sync/errors.ts';
import { isBillType, makeBillRef } from './bill-id.ts';
import { htmlToText, list, node, sortActions, str, type Node } from './normalize.ts';
import { deriveStatus } from './status.ts';
import type { BillAction, BillCommittee, BillCosponsor, BillMember, BillRecord, BillSummary } from './types.ts';

const parser = new XMLParser({
  ignoreAttributes: true,
  // Keep every leaf a string: bill numbers, district numbers and codes such as "00" must not become numbers.
  parseTagValue: false,
  trimValues: true,
});

/** Parses one BILLSTATUS file; `file` names it in errors (with the line when the XML is malformed). */
export function parseBillStatusXml(xml: string, file: string): BillRecord {
  const valid = XMLValidator.validate(xml);
  if (valid !== true) throw new SourceFormatError(file, valid.err.line, `malformed XML: ${valid.err.msg}`);
  const root = node(node(parser.parse(xml)).billStatus);
  const bill = node(root.bill);
  if (Object.keys(bill).length === 0) throw new SourceFormatError(file, undefined, 'no <billStatus><bill> element: not a BILLSTATUS file');

  const version = str(root.version) ?? str(bill.version);
  const legacy = bill.billNumber !== undefined || (version?.startsWith('1.') ?? false);
  const number = str(bill.number) ?? str(bill.billNumber);
  const type = (str(bill.type) ?? str(bill.billType))?.toLowerCase();
  const congress = str(bill.congress);
  if (number === null || !/^\d+$/.test(number) || type === undefined || !isBillType(type) || congress === null || !/^\d+$/.test(congress)) {
    throw new SourceFormatError(
      file,
      undefined,
      `missing or invalid bill identity (number "${number ?? ''}", type "${type ?? ''}", congress "${congress ?? ''}")`,
    );
  }
  const ref = makeBillRef(Number(congress), type, Number(number));

  const committeesNode = node(bill.committees);
  const committees = list(committeesNode.item ?? node(committeesNode.billCommittees).item).map(toCommittee);
  const summariesNode = node(bill.summaries);
  const summaries = list(summariesNode.summary ?? node(summariesNode.billSummaries).item);
  const subjectsNode = node(bill.subjects);
  const legislativeSubjects = node(subjectsNode.legislativeSubjects ?? node(subjectsNode.billSubjects).legislativeSubjects);
  const titles = list(node(bill.titles).item)
    .map((item) => ({ type: str(item.titleType) ?? '', title: str(item.title) ?? '' }))
    .filter((item) => item.title !== '');
  const actions = sortActions(
    list(node(bill.actions).item)
      .map(toAction)
      .filter((action): action is BillAction => action !== null),
  );
  const laws = list(node(bill.laws).item)
    .map((item) => ({ type: str(item.type) ?? 'Public Law', number: str(item.number) ?? '' }))
    .filter((law) => law.number !== '');
  const latest = node(bill.latestAction);
  const latestDate = str(latest.actionDate);
  const latestText = str(latest.text);
  const sponsor = list(node(bill.sponsors).item).map(toMember)[0] ?? null;

  return {
    ...ref,
    title: str(bill.title) ?? titles.find((item) => item.type === 'Display Title')?.title ?? '',
    officialTitle: officialTitle(titles),
    titles,
    originChamber: str(bill.originChamber),
    introducedDate: str(bill.introducedDate),
    updateDate: str(bill.updateDate),
    sponsor,
    cosponsors: list(node(bill.cosponsors).item).map(toCosponsor),
    committees,
    actions,
    latestAction: latestDate !== null && latestText !== null ? { date: latestDate, text: latestText } : null,
    summary: latestSummary(summaries.map(toSummary)),
    policyArea: str(node(bill.policyArea).name),
    subjects: list(legislativeSubjects.item)
      .map((item) => str(item.name))
      .filter((name): name is string => name !== null),
    laws,
    status: deriveStatus({ actions, committeeCount: committees.length, lawCount: laws.length }),
    sourceFormat: legacy ? 'billstatus-xml-1' : 'billstatus-xml-3',
  };
}

export function officialTitle(titles: { type: string; title: string }[]): string | null {
  return (
    titles.find((item) => item.type === 'Official Title as Introduced')?.title ??
    titles.find((item) => item.type.startsWith('Official Title'))?.title ??
    null
  );
}

/** The most recent summary version (CRS writes a new one at each stage). */
export function latestSummary(summaries: BillSummary[]): BillSummary | null {
  const usable = summaries.filter((summary) => summary.text !== '');
  const sorted = usable
    .map((summary, index) => ({ summary, index }))
    .sort(
      (a, b) =>
        (a.summary.actionDate ?? '').localeCompare(b.summary.actionDate ?? '') ||
        (a.summary.updateDate ?? '').localeCompare(b.summary.updateDate ?? '') ||
        a.index - b.index,
    );
  return sorted.at(-1)?.summary ?? null;
}

function toSummary(item: Node): BillSummary {
  return {
    versionCode: str(item.versionCode),
    actionDate: str(item.actionDate),
    actionDesc: str(item.actionDesc) ?? str(item.name),
    // Legacy files keep the summary's own update time in lastSummaryUpdateDate (updateDate there is the action's).
    updateDate: str(item.lastSummaryUpdateDate) ?? str(item.updateDate),
    text: htmlToText(str(item.text) ?? ''),
  };
}

/** One action of a bill (BILLSTATUS XML, or the Congress.gov API, which uses the same names); null without a date or text. */
export function toAction(item: Node): BillAction | null {
  const date = str(item.actionDate);
  const text = str(item.text);
  if (date === null || text === null) return null;
  return {
    date,
    time: str(item.actionTime),
    text,
    type: str(item.type),
    code: str(item.actionCode),
    source: str(node(item.sourceSystem).name),
  };
}

function toCommittee(item: Node): BillCommittee {
  return {
    systemCode: str(item.systemCode),
    name: str(item.name) ?? '',
    chamber: str(item.chamber),
    activities: list(node(item.activities).item).map((activity) => ({
      name: str(activity.name) ?? '',
      date: str(activity.date),
    })),
  };
}

export function toMember(item: Node): BillMember {
  return {
    bioguideId: str(item.bioguideId) ?? str(node(item.identifiers).bioguideId) ?? '',
    fullName: str(item.fullName) ?? '',
    firstName: str(item.firstName),
    lastName: str(item.lastName),
    party: str(item.party),
    state: str(item.state),
    district: str(item.district),
  };
}

function toCosponsor(item: Node): BillCosponsor {
  return {
    ...toMember(item),
    sponsorshipDate: str(item.sponsorshipDate),
    isOriginalCosponsor: str(item.isOriginalCosponsor)?.toLowerCase() === 'true',
    withdrawnDate: str(item.sponsorshipWithdrawnDate),
  };
}
