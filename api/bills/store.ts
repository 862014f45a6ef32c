// Turns a parsed bill plus our tracked-list entry into a `bills` row and upserts it, changing the row
// only when its content differs (a second identical sync changes nothing).
import { createHash } from 'node:crypto';
import type { Queryable } from '../platform/db/database.ts';
import { congressGovUrl, govinfoBillStatusUrl } from './bill-id.ts';
import { dateOnly } from './normalize.ts';
import { partyName, type LegislatorIndex } from './legislators.ts';
import { STATUS_LABELS } from './status.ts';
import type { TrackedBill } from './tracked.ts';
import type { BillMember as ParsedMember, BillRecord } from './types.ts';
import type { z } from 'zod';
import type {
  BillActionSchema,
  BillCommitteeSchema,
  BillCosponsor,
  BillCrsSummarySchema,
  BillLawSchema,
  BillMember,
  BillTitleSchema,
} from './contract.ts';

/** The JSON columns hold the contract's shapes (a member, a cosponsor, a committee…). */
export type MemberJson = BillMember;
export type CosponsorJson = BillCosponsor;

export interface BillRow {
  bill_id: string;
  congress: number;
  bill_type: string;
  bill_number: number;
  title: string;
  short_title: string;
  official_title: string | null;
  status: string;
  status_label: string;
  introduced_date: string | null;
  latest_action_date: string;
  latest_action_text: string;
  update_date: string | null;
  as_of: string;
  sponsor: MemberJson | null;
  sponsor_name: string | null;
  cosponsor_count: number;
  cosponsors: CosponsorJson[];
  committees: z.infer<typeof BillCommitteeSchema>[];
  actions: (z.infer<typeof BillActionSchema> & { time: string | null })[];
  titles: z.infer<typeof BillTitleSchema>[];
  subjects: string[];
  laws: z.infer<typeof BillLawSchema>[];
  policy_area: string | null;
  summary: z.infer<typeof BillCrsSummarySchema> | null;
  summary_text: string | null;
  topics: string[];
  why_we_track: string;
  analysis: string;
  govinfo_url: string;
  congress_url: string;
  source_url: string;
  source_format: string;
}

export function enrichMember(member: ParsedMember, legislators: LegislatorIndex): MemberJson {
  const known = legislators.get(member.bioguideId);
  const fallbackName = [member.firstName, member.lastName].filter(Boolean).join(' ');
  return {
    bioguide_id: member.bioguideId,
    name: known?.name ?? (fallbackName || member.fullName),
    full_name: member.fullName,
    // The record's party is the one the member had when acting on the bill; the tables hold the latest.
    party: member.party,
    party_name: partyName(member.party) ?? known?.party ?? null,
    state: member.state ?? known?.state ?? null,
    district: member.district,
    url: member.bioguideId ? `https://bioguide.congress.gov/search/bio/${member.bioguideId}` : null,
  };
}

/** Requires the fields validated beforehand (latest action). */
export function toRow(record: BillRecord, tracked: TrackedBill, legislators: LegislatorIndex, sourceUrl: string): BillRow {
  const latest = record.latestAction ?? { date: '', text: '' };
  const sponsor = record.sponsor ? enrichMember(record.sponsor, legislators) : null;
  const cosponsors = record.cosponsors.map((cosponsor) => ({
    ...enrichMember(cosponsor, legislators),
    sponsorship_date: cosponsor.sponsorshipDate,
    original_cosponsor: cosponsor.isOriginalCosponsor,
    withdrawn_date: cosponsor.withdrawnDate,
  }));
  const updated = dateOnly(record.updateDate);
  return {
    bill_id: record.billId,
    congress: record.congress,
    bill_type: record.type,
    bill_number: record.number,
    title: record.title,
    short_title: tracked.shortTitle,
    official_title: record.officialTitle,
    status: record.status,
    status_label: STATUS_LABELS[record.status],
    introduced_date: record.introducedDate,
    latest_action_date: latest.date,
    latest_action_text: latest.text,
    update_date: record.updateDate,
    as_of: updated !== null && updated > latest.date ? updated : latest.date,
    sponsor,
    sponsor_name: sponsor?.name ?? null,
    // Withdrawn cosponsors stay listed but are not counted, as congress.gov counts them.
    cosponsor_count: cosponsors.filter((cosponsor) => cosponsor.withdrawn_date === null).length,
    cosponsors,
    committees: record.committees.map((committee) => ({
      system_code: committee.systemCode,
      name: committee.name,
      chamber: committee.chamber,
      activities: committee.activities,
    })),
    actions: record.actions,
    titles: record.titles,
    subjects: record.subjects,
    laws: record.laws,
    policy_area: record.policyArea,
    summary: record.summary && {
      version_code: record.summary.versionCode,
      action_date: record.summary.actionDate,
      action_desc: record.summary.actionDesc,
      update_date: record.summary.updateDate,
      text: record.summary.text,
    },
    summary_text: record.summary?.text ?? null,
    topics: tracked.topics,
    why_we_track: tracked.whyWeTrack,
    analysis: tracked.analysis,
    govinfo_url: govinfoBillStatusUrl(record),
    congress_url: congressGovUrl(record),
    source_url: sourceUrl,
    source_format: record.sourceFormat,
  };
}

const COLUMNS = [
  'bill_id',
  'congress',
  'bill_type',
  'bill_number',
  'title',
  'short_title',
  'official_title',
  'status',
  'status_label',
  'introduced_date',
  'latest_action_date',
  'latest_action_text',
  'update_date',
  'as_of',
  'sponsor',
  'sponsor_name',
  'cosponsor_count',
  'cosponsors',
  'committees',
  'actions',
  'titles',
  'subjects',
  'laws',
  'policy_area',
  'summary',
  'summary_text',
  'topics',
  'why_we_track',
  'analysis',
  'govinfo_url',
  'congress_url',
  'source_url',
  'source_format',
] as const satisfies readonly (keyof BillRow)[];

const JSON_COLUMNS = new Set<string>(['sponsor', 'cosponsors', 'committees', 'actions', 'titles', 'subjects', 'laws', 'summary', 'topics']);

export function contentHash(row: BillRow): string {
  return createHash('sha256')
    .update(JSON.stringify(COLUMNS.map((column) => row[column])))
    .digest('hex');
}

const UPSERT_SQL = `
  INSERT INTO bills (${COLUMNS.join(', ')}, content_hash)
  VALUES (${COLUMNS.map((column, i) => (JSON_COLUMNS.has(column) ? `$${i + 1}::jsonb` : `$${i + 1}`)).join(', ')}, $${COLUMNS.length + 1})
  ON CONFLICT (bill_id) DO UPDATE SET
    ${COLUMNS.filter((column) => column !== 'bill_id')
      .map((column) => `${column} = EXCLUDED.${column}`)
      .join(',\n    ')},
    content_hash = EXCLUDED.content_hash,
    synced_at = now()
  WHERE bills.content_hash IS DISTINCT FROM EXCLUDED.content_hash
  RETURNING bill_id`;

/** Inserts or updates the row; true when anything changed. */
export async function upsertBill(tx: Queryable, row: BillRow): Promise<boolean> {
  const params = COLUMNS.map((column) => (JSON_COLUMNS.has(column) ? JSON.stringify(row[column]) : row[column]));
  const result = await tx.query(UPSERT_SQL, [...params, contentHash(row)]);
  return result.rows.length > 0;
}

/** Removes bills no longer on the tracked list; returns how many. */
export async function removeUntracked(tx: Queryable, keep: string[]): Promise<number> {
  const result = await tx.query('DELETE FROM bills WHERE NOT (bill_id = ANY($1::text[])) RETURNING bill_id', [keep]);
  return result.rows.length;
}
