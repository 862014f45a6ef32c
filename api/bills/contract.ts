// The tracked bills' contract: what a bills request accepts and answers, declared once. GET /bills,
// the MCP tool get_congress_bills, the bill pages and the stored JSON columns derive from it.
import { z } from 'zod';
import { choice, integer, text } from '../platform/contract/lenient.ts';
import { SourceSchema } from '../platform/contract/sources.ts';
import { BILL_STATUSES } from './status.ts';

/** Room for every tracked bill in one answer: the sitting Congress's, the laws and the archive (46 on the mirror). */
export const BILLS_LIMIT_MAX = 60;
export const BILLS_LIMIT_DEFAULT = 20;
export const BILLS_QUERY_MAX = 200;

export const BillsQuerySchema = z.object({
  query: text({ max: BILLS_QUERY_MAX, example: 'FHA' }).optional().describe('Keywords, bill number or sponsor, e.g. "H.R. 1532".'),
  bill_id: text({ max: 30, example: 'hr1532-117' }).optional().describe('One bill in full, e.g. "hr1532-117".'),
  status: choice(BILL_STATUSES).optional().describe('Only bills at this stage, e.g. in_committee, passed_house, became_law.'),
  limit: integer({ min: 1, max: BILLS_LIMIT_MAX })
    .default(BILLS_LIMIT_DEFAULT)
    .describe(`How many bills (default ${BILLS_LIMIT_DEFAULT}).`),
});
export type BillsQuery = z.output<typeof BillsQuerySchema>;

/** A member of Congress as the bills record them (party and state at the time of the bill). */
export const BillMemberSchema = z.object({
  bioguide_id: z.string(),
  name: z.string(),
  full_name: z.string().describe('As the record prints it, e.g. "Rep. Biggs, Andy [R-AZ-5]".'),
  party: z.string().nullable(),
  party_name: z.string().nullable(),
  state: z.string().nullable(),
  district: z.string().nullable(),
  url: z.string().nullable(),
});
export type BillMember = z.infer<typeof BillMemberSchema>;

export const BillCosponsorSchema = BillMemberSchema.extend({
  sponsorship_date: z.string().nullable(),
  original_cosponsor: z.boolean(),
  withdrawn_date: z.string().nullable(),
});
export type BillCosponsor = z.infer<typeof BillCosponsorSchema>;

export const BillCommitteeSchema = z.object({
  system_code: z.string().nullable(),
  name: z.string(),
  chamber: z.string().nullable(),
  activities: z.array(z.object({ name: z.string(), date: z.string().nullable() })),
});

export const BillActionSchema = z.object({
  date: z.string(),
  text: z.string(),
  type: z.string().nullable(),
  code: z.string().nullable(),
  source: z.string().nullable(),
});

export const BillCrsSummarySchema = z.object({
  version_code: z.string().nullable(),
  action_date: z.string().nullable(),
  action_desc: z.string().nullable(),
  update_date: z.string().nullable(),
  text: z.string().describe('Plain text of the Congressional Research Service summary.'),
});

export const BillTitleSchema = z.object({ type: z.string(), title: z.string() });
export const BillLawSchema = z.object({ type: z.string(), number: z.string() });

/** A bill as a list shows it. */
export const BillSummarySchema = z.object({
  bill_id: z.string().describe('Type, number and congress, e.g. "hr1532-117".'),
  citation: z.string().describe('As printed, e.g. "H.R. 1234 (119th Congress)".'),
  congress: z.int(),
  type: z.string(),
  number: z.int(),
  title: z.string(),
  short_title: z.string(),
  status: z.enum(BILL_STATUSES),
  status_label: z
    .string()
    .describe(
      'The stage in words; for a bill of an ended Congress that did not become law, with that Congress, e.g. "Died in committee, 117th Congress".',
    ),
  introduced_date: z.string().nullable(),
  latest_action: z.object({ date: z.string(), text: z.string() }),
  sponsor: BillMemberSchema.pick({ bioguide_id: true, name: true, party: true, party_name: true, state: true }).nullable(),
  cosponsor_count: z.int(),
  policy_area: z.string().nullable(),
  topics: z.array(z.string()),
  why_we_track: z
    .string()
    .describe(
      "Why the bill is tracked: our sentence, or the selection rule's reason (housing bill of the sitting Congress, housing law since 2018, or a bill of an ended Congress kept with our analysis).",
    ),
  excerpt: z.string().optional().describe('Matching passage, terms wrapped in ** (keyword searches only).'),
  url: z.string().describe('Our page for the bill.'),
  sources: z.object({ congress_gov: z.string(), govinfo_billstatus: z.string(), record: z.string() }),
  as_of: z.string().describe('YYYY-MM-DD of the latest action or update the record holds.'),
});
export type BillSummary = z.infer<typeof BillSummarySchema>;

/** One bill in full: sponsors, committees, every action, the CRS summary and our analysis. */
export const BillDetailSchema = BillSummarySchema.extend({
  official_title: z.string().nullable(),
  titles: z.array(BillTitleSchema),
  sponsor_detail: BillMemberSchema.nullable(),
  cosponsors: z.array(BillCosponsorSchema),
  committees: z.array(BillCommitteeSchema),
  actions: z.array(BillActionSchema).describe("Newest first; the publisher's duplicate entries (same day, same text) appear once."),
  summary: BillCrsSummarySchema.nullable(),
  subjects: z.array(z.string()),
  laws: z.array(BillLawSchema),
  analysis: z.string().describe('Our analysis of what the bill would change for borrowers (Markdown); empty until we have written one.'),
  update_date: z.string().nullable(),
  source_format: z.string(),
  source: z.string(),
});
export type BillDetail = z.infer<typeof BillDetailSchema>;

export const BillsAnswerSchema = z.object({
  bills: z
    .array(z.union([BillDetailSchema, BillSummarySchema]))
    .describe('Matching bills, best first; one bill in full (with actions, cosponsors and analysis) when bill_id is given alone.'),
  count: z.int(),
  filters: z.object({
    query: z.string().nullable(),
    bill_id: z.string().nullable(),
    status: z.enum(BILL_STATUSES).nullable(),
    limit: z.int(),
  }),
  as_of: z.string().nullable().describe('The newest as-of date among the bills.'),
  source: z.string(),
  sources: z.array(SourceSchema),
});
export type BillsAnswer = z.infer<typeof BillsAnswerSchema>;
