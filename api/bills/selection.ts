// The rule that decides which bills we track, in one place: every housing or mortgage bill of the
// Congress now sitting, plus every housing or mortgage bill enacted into law since 2018, whatever its
// Congress, plus the archive: a housing bill of an ended Congress that we wrote an analysis of
// (content/bills), so that analysis stays readable, labelled by how and when the bill ended. Sync
// applies it to every BILLSTATUS record it can see, so the list refreshes itself.
import { ordinal } from './bill-id.ts';
import { congressOn } from './congress-term.ts';
import type { BillRecord } from './types.ts';

/** The Library of Congress policy area for housing bills (one per bill, assigned by CRS). */
export const HOUSING_POLICY_AREA = 'Housing and Community Development';
/** The CRS legislative subject for mortgages; banking, tax and veterans bills carry it too. */
export const MORTGAGE_SUBJECT = 'Housing finance and home ownership';
/** Committees that hear most mortgage bills, by system code. */
export const HOUSING_COMMITTEES: Readonly<Record<string, string>> = {
  hsba00: 'House Committee on Financial Services',
  ssbk00: 'Senate Committee on Banking, Housing, and Urban Affairs',
};
/**
 * Those committees also hear banking, securities and sanctions bills (and gold medals), so a referral
 * counts only when the bill's title names housing or mortgage credit. Bills new to the record often
 * have no subjects yet, and this is how they are caught.
 */
export const HOUSING_TITLE_WORDS =
  /\b(mortgages?|housing|homes?|homeowners?|homeownership|homebuyers?|home ?loans?|apprais\w*|FHA|Ginnie Mae|foreclosures?|down ?payments?)\b/i;
/** Laws enacted on or after this day stay tracked after their Congress ends. */
export const LAWS_SINCE = '2018-01-01';
/** The first Congress that can hold such a law (the 115th, 2017–2019). */
export const FIRST_LAW_CONGRESS = congressOn(new Date(`${LAWS_SINCE}T12:00:00Z`));

export type HousingBasis = 'policy area' | 'subject' | 'committee';

export interface Selection {
  /**
   * Why the bill is tracked: it belongs to the sitting Congress, it is a law since 2018, or (archive)
   * its Congress ended without it becoming law and we keep our analysis of it.
   */
  reason: 'current congress' | 'law' | 'archive';
  basis: HousingBasis;
  /** One sentence for readers (why_we_track, when we have not written our own). */
  explanation: string;
}

/** What makes a bill a housing or mortgage bill, or undefined when nothing does. */
export function housingBasis(record: Pick<BillRecord, 'policyArea' | 'subjects' | 'committees' | 'title'>): HousingBasis | undefined {
  if (record.policyArea === HOUSING_POLICY_AREA) return 'policy area';
  if (record.subjects.includes(MORTGAGE_SUBJECT)) return 'subject';
  const heardByHousingCommittee = record.committees.some(
    (committee) => committee.systemCode !== null && committee.systemCode in HOUSING_COMMITTEES,
  );
  if (heardByHousingCommittee && HOUSING_TITLE_WORDS.test(record.title)) return 'committee';
  return undefined;
}

/** The day the bill became law (its BecameLaw action), or undefined when it has not. */
export function enactedOn(record: Pick<BillRecord, 'actions' | 'laws' | 'latestAction'>): string | undefined {
  const becameLaw = record.actions
    .filter((action) => action.code === '36000' || action.type === 'BecameLaw')
    .map((action) => action.date)
    .sort()[0];
  if (becameLaw !== undefined) return becameLaw;
  // A law number without the action (trimmed records): the latest action is the signing at the latest.
  return record.laws.length > 0 ? record.latestAction?.date : undefined;
}

const BASIS_TEXT: Record<HousingBasis, string> = {
  'policy area': `its policy area is ${HOUSING_POLICY_AREA}`,
  subject: `it carries the subject "${MORTGAGE_SUBJECT}"`,
  committee: 'it went to a housing committee (House Financial Services or Senate Banking) and its title names housing or mortgages',
};

/**
 * Whether the rule tracks the bill on the day `now`, and why. `analysed`: we wrote an analysis of it
 * (content/bills), which keeps a housing bill of an ended Congress in the archive.
 */
export function selectBill(record: BillRecord, now: Date, analysed = false): Selection | undefined {
  const basis = housingBasis(record);
  if (basis === undefined) return undefined;
  const sitting = congressOn(now);
  if (record.congress === sitting) {
    return { reason: 'current congress', basis, explanation: `A housing bill of the ${ordinal(sitting)} Congress: ${BASIS_TEXT[basis]}.` };
  }
  const enacted = enactedOn(record);
  if (enacted !== undefined && enacted >= LAWS_SINCE && record.congress <= sitting) {
    return { reason: 'law', basis, explanation: `A housing law enacted on ${enacted}: ${BASIS_TEXT[basis]}.` };
  }
  if (analysed && record.congress < sitting) {
    return {
      reason: 'archive',
      basis,
      explanation: `A housing bill of the ${ordinal(record.congress)} Congress, which ended without it becoming law; kept with our analysis: ${BASIS_TEXT[basis]}.`,
    };
  }
  return undefined;
}

/** The Congresses whose records can hold a tracked bill on the day `now`: 115th through the sitting one. */
export function candidateCongresses(now: Date): number[] {
  const sitting = congressOn(now);
  const congresses: number[] = [];
  for (let congress = FIRST_LAW_CONGRESS; congress <= sitting; congress += 1) congresses.push(congress);
  return congresses;
}
