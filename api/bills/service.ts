// The tracked bills as callers see them: keyword search (PostgreSQL full text plus bill-number and
// substring matches) and one bill in full with our analysis. The get_congress_bills MCP tool and the
// bill pages are thin faces over this.
import type { Queryable } from '../platform/db/database.ts';
import type { DatasetStatus } from '../platform/datasets.ts';
import { BadRequestError, NotFoundError, ServiceUnavailableError } from '../platform/errors.ts';
import { BILL_TYPES, citation, isBillType, ordinal, requireBillId, type BillRef } from './bill-id.ts';
import type { Clock } from '../platform/clock.ts';
import { congressOn } from './congress-term.ts';
import { BILL_STATUSES, isBillStatus, OPEN_STAGES, STATUS_LABELS, statusAsOf, type BillStatusCode } from './status.ts';
import type { BillRow } from './store.ts';
import { BILLS_LIMIT_MAX, type BillDetail, type BillsAnswer, type BillsQuery, type BillSummary } from './contract.ts';
import { dayText } from '../platform/dates.ts';
// Registers the bills as a source of the site-wide search index wherever the services are built.
import './search-documents.ts';

export const BILLS_SOURCE =
  'Library of Congress (congress.gov; summaries by the Congressional Research Service), via GovInfo BILLSTATUS XML or the congress.gov API v3';

export interface BillSearchParams {
  query?: string | undefined;
  bill_id?: string | undefined;
  status?: string | undefined;
  limit?: number | undefined;
}

export type BillSearchResult = Omit<BillsAnswer, 'bills' | 'sources'> & { bills: BillSummary[] };

export interface BillsService {
  /** A request as every face makes it: one bill in full when bill_id comes alone, else a search. */
  answer(query: BillsQuery): Promise<BillsAnswer>;
  search(params?: BillSearchParams): Promise<BillSearchResult>;
  get(billId: string): Promise<BillDetail>;
  /** Every tracked bill, most recent action first (the bills index page). */
  list(): Promise<BillSummary[]>;
}

export const MAX_LIMIT = BILLS_LIMIT_MAX;
const DEFAULT_LIMIT = 10;
const MAX_QUERY_LENGTH = 200;

type Row = Omit<BillRow, 'introduced_date' | 'latest_action_date' | 'as_of' | 'update_date'> & {
  introduced_date: string | Date | null;
  latest_action_date: string | Date;
  as_of: string | Date;
  update_date: string | Date | null;
  excerpt?: string | null;
};

// Dates leave the database as text: the pg driver would turn them into local-midnight Date objects.
const LIST_COLUMNS = `bill_id, congress, bill_type, bill_number, title, short_title, status, status_label,
  introduced_date::text AS introduced_date, latest_action_date::text AS latest_action_date, latest_action_text,
  as_of::text AS as_of, sponsor, cosponsor_count, policy_area, topics, why_we_track, govinfo_url, congress_url, source_url`;
const DETAIL_COLUMNS = `${LIST_COLUMNS}, official_title, titles, cosponsors, committees, actions, summary, subjects, laws,
  analysis, source_format, to_char(update_date AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS update_date`;

export function createBillsService({
  db,
  baseUrl: givenBaseUrl = '',
  datasets,
  // A bill synced while its Congress sat reads as final (died in committee) once the Congress ends.
  clock = () => new Date(),
}: {
  db: Queryable;
  baseUrl?: string;
  datasets?: DatasetStatus;
  clock?: Clock;
}): BillsService {
  const baseUrl = givenBaseUrl.replace(/\/+$/, '');

  async function ensureLoaded(): Promise<void> {
    const { rows } = await db.query<{ n: number | string }>('SELECT count(*) AS n FROM bills');
    if (Number(rows[0]?.n ?? 0) === 0) {
      // The shared words: loading now, last load failed, or never loaded.
      await datasets?.require('bills');
      throw new ServiceUnavailableError('The bills dataset is not loaded yet; retry in a minute.', 60);
    }
  }

  function listItem(row: Row): BillSummary {
    const status = statusAsOf(row.status as BillStatusCode, row.congress, clock());
    const ref: BillRef = { billId: row.bill_id, congress: row.congress, type: row.bill_type as BillRef['type'], number: row.bill_number };
    const item: BillSummary = {
      bill_id: row.bill_id,
      citation: citation(ref),
      congress: row.congress,
      type: row.bill_type,
      number: row.bill_number,
      title: row.title,
      short_title: row.short_title,
      status,
      status_label: statusLabel(row, status, clock()),
      introduced_date: toDate(row.introduced_date),
      latest_action: { date: toDate(row.latest_action_date) ?? '', text: row.latest_action_text },
      sponsor: row.sponsor && {
        bioguide_id: row.sponsor.bioguide_id,
        name: row.sponsor.name,
        party: row.sponsor.party,
        party_name: row.sponsor.party_name,
        state: row.sponsor.state,
      },
      cosponsor_count: Number(row.cosponsor_count),
      policy_area: row.policy_area,
      topics: row.topics,
      why_we_track: row.why_we_track,
      url: `${baseUrl}/bills/${row.bill_id}`,
      sources: { congress_gov: row.congress_url, govinfo_billstatus: row.govinfo_url, record: row.source_url },
      as_of: toDate(row.as_of) ?? '',
    };
    if (row.excerpt) item.excerpt = row.excerpt;
    return item;
  }

  const service: BillsService = {
    async answer(query) {
      if (query.bill_id !== undefined && query.query === undefined && query.status === undefined) {
        const bill = await service.get(query.bill_id);
        return {
          bills: [bill],
          count: 1,
          filters: { query: null, bill_id: bill.bill_id, status: null, limit: query.limit },
          as_of: bill.as_of,
          source: BILLS_SOURCE,
          sources: [
            { url: bill.sources.congress_gov, as_of: bill.as_of, name: 'congress.gov' },
            { url: bill.sources.govinfo_billstatus, as_of: bill.as_of, name: 'GovInfo BILLSTATUS' },
          ],
        };
      }
      const result = await service.search(query);
      return {
        ...result,
        sources: result.bills.map((bill) => ({ url: bill.sources.congress_gov, as_of: bill.as_of, name: bill.citation })),
      };
    },

    async search(params = {}) {
      const limit = params.limit ?? DEFAULT_LIMIT;
      if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) {
        throw new BadRequestError(`limit must be a whole number from 1 to ${MAX_LIMIT}.`);
      }
      const status = params.status?.trim().toLowerCase() || undefined;
      if (status !== undefined && !isBillStatus(status)) {
        throw new BadRequestError(`status must be one of ${BILL_STATUSES.join(', ')}.`);
      }
      const ref = params.bill_id?.trim() ? requireBillId(params.bill_id) : undefined;
      const query = params.query?.trim() || undefined;
      if (query !== undefined && query.length > MAX_QUERY_LENGTH) {
        throw new BadRequestError(`query must be at most ${MAX_QUERY_LENGTH} characters.`);
      }
      await ensureLoaded();

      const where: string[] = [];
      const values: unknown[] = [];
      const param = (value: unknown): string => {
        values.push(value);
        return `$${values.length}`;
      };
      if (ref) where.push(`bill_id = ${param(ref.billId)}`);
      if (status) where.push(statusCondition(status as BillStatusCode, congressOn(clock()), param));
      let rank: string | undefined;
      let excerpt = 'NULL';
      if (query !== undefined) {
        const number = citedBill(query);
        const tsq = `websearch_to_tsquery('english', ${param(query)})`;
        const like = param(`%${query.replace(/[\\%_]/g, (char) => `\\${char}`)}%`);
        const alternatives = [
          `search_vector @@ ${tsq}`,
          `title ILIKE ${like}`,
          `short_title ILIKE ${like}`,
          `coalesce(sponsor_name, '') ILIKE ${like}`,
        ];
        let numberMatch = 'false';
        if (number) {
          numberMatch =
            `(bill_type = ${param(number.type)} AND bill_number = ${param(number.number)}` +
            (number.congress === undefined ? ')' : ` AND congress = ${param(number.congress)})`);
          alternatives.push(numberMatch);
        }
        where.push(`(${alternatives.join(' OR ')})`);
        // A cited bill number beats everything; then the exact phrase, a title hit, and the text rank.
        const phrase = `phraseto_tsquery('english', ${param(query)})`;
        rank =
          `(CASE WHEN ${numberMatch} THEN 10 ELSE 0 END) + (CASE WHEN search_vector @@ ${phrase} THEN 0.5 ELSE 0 END) + ` +
          `(CASE WHEN title ILIKE ${like} OR short_title ILIKE ${like} THEN 1 ELSE 0 END) + ts_rank(search_vector, ${tsq})`;
        excerpt = `ts_headline('english', coalesce(summary_text, analysis), ${tsq}, 'MaxWords=35, MinWords=15, MaxFragments=1, StartSel=**, StopSel=**')`;
      }
      const sql = `SELECT ${LIST_COLUMNS}, ${excerpt} AS excerpt FROM bills
        ${where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''}
        ORDER BY ${tierOrder(param(congressOn(clock())))}, ${rank === undefined ? '' : `${rank} DESC, `}latest_action_date DESC, bill_id
        LIMIT ${param(limit)}`;
      const { rows } = await db.query<Row>(sql, values);
      const bills = rows.map(listItem);
      return {
        bills,
        count: bills.length,
        filters: { query: query ?? null, bill_id: ref?.billId ?? null, status: status ?? null, limit },
        as_of:
          bills
            .map((bill) => bill.as_of)
            .sort()
            .at(-1) ?? null,
        source: BILLS_SOURCE,
      };
    },

    async get(billId) {
      const ref = requireBillId(billId);
      await ensureLoaded();
      const { rows } = await db.query<Row>(`SELECT ${DETAIL_COLUMNS} FROM bills WHERE bill_id = $1`, [ref.billId]);
      const row = rows[0];
      if (!row) {
        throw new NotFoundError(
          `${ref.billId} is not one of the tracked bills; search them with a keyword (query) or list them without filters.`,
        );
      }
      return {
        ...listItem(row),
        official_title: row.official_title,
        titles: row.titles,
        sponsor_detail: row.sponsor,
        cosponsors: row.cosponsors,
        committees: row.committees,
        actions: dedupeActions(row.actions),
        summary: row.summary,
        subjects: row.subjects,
        laws: row.laws,
        analysis: row.analysis,
        update_date: row.update_date === null ? null : String(row.update_date),
        source_format: row.source_format,
        source: BILLS_SOURCE,
      };
    },

    async list() {
      await ensureLoaded();
      const { rows } = await db.query<Row>(
        `SELECT ${LIST_COLUMNS} FROM bills ORDER BY ${tierOrder('$1')}, latest_action_date DESC, bill_id`,
        [congressOn(clock())],
      );
      return rows.map(listItem);
    },
  };
  return service;
}

/**
 * The order of the tracked list's three parts (`sitting`: the parameter holding the sitting
 * Congress): bills of the sitting Congress first, then the laws since 2018, then the archive of
 * bills whose Congress ended without them becoming law.
 */
function tierOrder(sitting: string): string {
  return `(CASE WHEN congress >= ${sitting} THEN 0 WHEN status = 'became_law' THEN 1 ELSE 2 END)`;
}

/**
 * A bill's stage in words; for one of an ended Congress that did not become law, with that Congress
 * ("Died in committee, 117th Congress"), so the archive says how and when each bill ended.
 */
function statusLabel(row: Pick<Row, 'status' | 'status_label' | 'congress'>, status: BillStatusCode, now: Date): string {
  const label = status === row.status ? row.status_label : STATUS_LABELS[status];
  return row.congress < congressOn(now) && status !== 'became_law' ? `${label}, ${ordinal(row.congress)} Congress` : label;
}

/**
 * The SQL condition for a status filter as of the sitting Congress: stored open stages of an ended
 * Congress count as died in committee, and only the sitting Congress's bills are still open.
 */
function statusCondition(status: BillStatusCode, sitting: number, param: (value: unknown) => string): string {
  if (status === 'died_in_committee') {
    return `(status = ${param(status)} OR (status = ANY(${param([...OPEN_STAGES])}::text[]) AND congress < ${param(sitting)}))`;
  }
  if (OPEN_STAGES.includes(status)) return `(status = ${param(status)} AND congress >= ${param(sitting)})`;
  return `status = ${param(status)}`;
}

/** "H.R. 1532", "hr1532", "S 2651", "hr1532-117": the bill a query names by number, if any. */
export function citedBill(query: string): { type: string; number: number; congress?: number } | undefined {
  const compact = query.toLowerCase().replace(/[.\s]/g, '');
  const match = /^([a-z]+)(\d{1,5})(?:-(\d{1,3}))?$/.exec(compact);
  if (!match) return undefined;
  const [, type = '', number = '', congress] = match;
  if (!isBillType(type)) return undefined;
  return { type, number: Number(number), ...(congress === undefined ? {} : { congress: Number(congress) }) };
}

function dedupeActions(actions: BillRow['actions']): BillDetail['actions'] {
  const seen = new Set<string>();
  const result: BillDetail['actions'] = [];
  for (const action of actions) {
    const key = `${action.date}|${action.text.replace(/\s+/g, ' ').trim().toLowerCase()}`;
    if (seen.has(key)) continue;
    seen.add(key);
    result.push({ date: action.date, text: action.text, type: action.type, code: action.code, source: action.source });
  }
  return result;
}

function toDate(value: string | Date | null): string | null {
  if (value === null) return null;
  return dayText(value);
}

export { BILL_TYPES };
