// Bill identifiers (`hr1234-119`) and the public URLs derived from them: GovInfo's BILLSTATUS bulk
// file, the congress.gov page and the congress.gov API v3 resource.
import { BadRequestError } from '../platform/errors.ts';

export const BILL_TYPES = ['hr', 's', 'hjres', 'sjres', 'hconres', 'sconres', 'hres', 'sres'] as const;
export type BillType = (typeof BILL_TYPES)[number];

export interface BillRef {
  billId: string;
  congress: number;
  type: BillType;
  number: number;
}

const BILL_ID = /^(hr|s|hjres|sjres|hconres|sconres|hres|sres)([1-9]\d{0,4})-([1-9]\d{0,2})$/;

/** Congress.gov's URL words for each bill type. */
const CONGRESS_GOV_SLUG: Record<BillType, string> = {
  hr: 'house-bill',
  s: 'senate-bill',
  hjres: 'house-joint-resolution',
  sjres: 'senate-joint-resolution',
  hconres: 'house-concurrent-resolution',
  sconres: 'senate-concurrent-resolution',
  hres: 'house-resolution',
  sres: 'senate-resolution',
};

/** How the bill is cited in print: H.R. 1234, S. 35, H.J.Res. 7… */
const CITATION_PREFIX: Record<BillType, string> = {
  hr: 'H.R.',
  s: 'S.',
  hjres: 'H.J.Res.',
  sjres: 'S.J.Res.',
  hconres: 'H.Con.Res.',
  sconres: 'S.Con.Res.',
  hres: 'H.Res.',
  sres: 'S.Res.',
};

export function isBillType(value: string): value is BillType {
  return (BILL_TYPES as readonly string[]).includes(value);
}

/** Parses `hr1234-119` (case-insensitive); undefined when the text is not a bill id. */
export function parseBillId(text: string): BillRef | undefined {
  const match = BILL_ID.exec(text.trim().toLowerCase());
  if (!match) return undefined;
  const [, type, number, congress] = match;
  if (type === undefined || number === undefined || congress === undefined || !isBillType(type)) return undefined;
  return makeBillRef(Number(congress), type, Number(number));
}

/** Parses a bill id given by a caller; a malformed one is a 400 that shows the expected format. */
export function requireBillId(text: string): BillRef {
  const ref = parseBillId(text);
  if (!ref) {
    throw new BadRequestError(
      `bill_id "${text.slice(0, 40)}" is not a bill id: use the bill type, number and congress like "hr1234-119" ` +
        `(types: ${BILL_TYPES.join(', ')}).`,
    );
  }
  return ref;
}

export function makeBillRef(congress: number, type: BillType, number: number): BillRef {
  return { billId: `${type}${number}-${congress}`, congress, type, number };
}

export function citation(ref: BillRef): string {
  return `${CITATION_PREFIX[ref.type]} ${ref.number} (${ordinal(ref.congress)} Congress)`;
}

export function ordinal(n: number): string {
  const tens = n % 100;
  if (tens >= 11 && tens <= 13) return `${n}th`;
  const suffix = ({ 1: 'st', 2: 'nd', 3: 'rd' } as Record<number, string>)[n % 10] ?? 'th';
  return `${n}${suffix}`;
}

/** GovInfo's bulk BILLSTATUS file for the bill (the publisher URL of the XML source). */
export function govinfoBillStatusUrl(ref: BillRef): string {
  return `https://www.govinfo.gov/bulkdata/BILLSTATUS/${ref.congress}/${ref.type}/BILLSTATUS-${ref.congress}${ref.type}${ref.number}.xml`;
}

/** Where the same file sits below MDS_SOURCE_DIR. */
export function billStatusMirrorPath(ref: BillRef): string {
  return `congress/billstatus/${ref.congress}/BILLSTATUS-${ref.congress}${ref.type}${ref.number}.xml`;
}

/** The bill's page on congress.gov. */
export function congressGovUrl(ref: BillRef): string {
  return `https://www.congress.gov/bill/${ordinal(ref.congress)}-congress/${CONGRESS_GOV_SLUG[ref.type]}/${ref.number}`;
}

/** The congress.gov API v3 resource of the bill, below an API base such as https://api.congress.gov/v3. */
export function congressApiBillPath(ref: BillRef): string {
  return `/bill/${ref.congress}/${ref.type}/${ref.number}`;
}
