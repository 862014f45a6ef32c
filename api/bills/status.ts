// A readable stage for a bill, derived from the Library of Congress action codes and action types in
// its history (never from parsing the action text, whose wording varies by chamber and clerk), and
// final once the bill's Congress has ended.
import { congressHasEnded } from './congress-term.ts';

export const BILL_STATUSES = [
  'introduced',
  'in_committee',
  'reported',
  'passed_house',
  'passed_senate',
  'passed_both',
  'to_president',
  'vetoed',
  'became_law',
  'died_in_committee',
] as const;
export type BillStatusCode = (typeof BILL_STATUSES)[number];

export const STATUS_LABELS: Record<BillStatusCode, string> = {
  introduced: 'Introduced',
  in_committee: 'In committee',
  reported: 'Reported by committee',
  passed_house: 'Passed House',
  passed_senate: 'Passed Senate',
  passed_both: 'Passed House and Senate',
  to_president: 'Sent to the President',
  vetoed: 'Vetoed',
  became_law: 'Became law',
  died_in_committee: 'Died in committee',
};

/** Stages a bill can only hold while its Congress sits: once it ends, such a bill died in committee. */
export const OPEN_STAGES: readonly BillStatusCode[] = ['introduced', 'in_committee'];

export function isBillStatus(value: string): value is BillStatusCode {
  return (BILL_STATUSES as readonly string[]).includes(value);
}

/** Library of Congress action codes (GovInfo BILLSTATUS user guide, "Action Codes"). */
const CODE = {
  reportedHouse: '5000',
  passedHouse: '8000',
  reportedSenate: '14000',
  passedSenate: '17000',
  presented: '28000',
  vetoed: '31000',
  becameLaw: '36000',
} as const;

export interface StatusInput {
  actions: { code: string | null; type: string | null }[];
  committeeCount: number;
  lawCount: number;
}

/**
 * The status as of `now`: a bill of a Congress that has ended keeps its furthest stage (passed House,
 * became law…), except that one never reported out of committee died there. Applied at sync and
 * again when serving, so a stored status turns final the day its Congress ends without a new sync.
 */
export function statusAsOf(status: BillStatusCode, congress: number, now: Date): BillStatusCode {
  if (OPEN_STAGES.includes(status) && congressHasEnded(congress, now)) return 'died_in_committee';
  return status;
}

export function deriveStatus({ actions, committeeCount, lawCount }: StatusInput): BillStatusCode {
  const codes = new Set(actions.map((action) => action.code).filter((code): code is string => code !== null));
  const types = new Set(actions.map((action) => action.type).filter((type): type is string => type !== null));
  if (lawCount > 0 || codes.has(CODE.becameLaw) || types.has('BecameLaw')) return 'became_law';
  if (codes.has(CODE.vetoed) || types.has('Veto')) return 'vetoed';
  if (codes.has(CODE.presented) || types.has('President')) return 'to_president';
  const passedHouse = codes.has(CODE.passedHouse);
  const passedSenate = codes.has(CODE.passedSenate);
  if (passedHouse && passedSenate) return 'passed_both';
  if (passedHouse) return 'passed_house';
  if (passedSenate) return 'passed_senate';
  if (codes.has(CODE.reportedHouse) || codes.has(CODE.reportedSenate) || types.has('Calendars')) return 'reported';
  if (committeeCount > 0 || types.has('Committee')) return 'in_committee';
  return 'introduced';
}
