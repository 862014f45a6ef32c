// The normalized bill record both sources (BILLSTATUS XML in either schema version, congress.gov API
// v3 JSON) are parsed into, and that sync stores.
import type { BillRef } from './bill-id.ts';
import type { BillStatusCode } from './status.ts';

export interface BillMember {
  bioguideId: string;
  /** As the record prints it, e.g. "Rep. Biggs, Andy [R-AZ-5]". */
  fullName: string;
  firstName: string | null;
  lastName: string | null;
  /** Party code at the time of the record: D, R, I, ID… */
  party: string | null;
  state: string | null;
  district: string | null;
}

export interface BillCosponsor extends BillMember {
  sponsorshipDate: string | null;
  isOriginalCosponsor: boolean;
  withdrawnDate: string | null;
}

export interface BillCommittee {
  systemCode: string | null;
  name: string;
  chamber: string | null;
  activities: { name: string; date: string | null }[];
}

export interface BillAction {
  date: string;
  time: string | null;
  text: string;
  type: string | null;
  code: string | null;
  /** Who recorded the action: House floor, House committee, Senate, Library of Congress. */
  source: string | null;
}

export interface BillSummary {
  versionCode: string | null;
  actionDate: string | null;
  actionDesc: string | null;
  updateDate: string | null;
  /** Plain text (the publisher's HTML stripped). */
  text: string;
}

export interface BillTitle {
  type: string;
  title: string;
}

export interface BillLaw {
  type: string;
  number: string;
}

export type BillSourceFormat = 'billstatus-xml-3' | 'billstatus-xml-1' | 'congress-api-v3';

export interface BillRecord extends BillRef {
  title: string;
  officialTitle: string | null;
  titles: BillTitle[];
  originChamber: string | null;
  introducedDate: string | null;
  /** ISO timestamp of the publisher's last update of the record. */
  updateDate: string | null;
  sponsor: BillMember | null;
  cosponsors: BillCosponsor[];
  committees: BillCommittee[];
  /** Newest first. */
  actions: BillAction[];
  latestAction: { date: string; text: string } | null;
  /** The most recent CRS summary, or null when none has been written yet. */
  summary: BillSummary | null;
  policyArea: string | null;
  subjects: string[];
  laws: BillLaw[];
  status: BillStatusCode;
  sourceFormat: BillSourceFormat;
}
