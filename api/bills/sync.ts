// The `bills` dataset: the bills the selection rule (./selection.ts) tracks, among every record sync
// can see (./candidates.ts): from the congress.gov API v3 when CONGRESS_API_KEY is set, otherwise
// GovInfo's BILLSTATUS XML below MDS_SOURCE_DIR; our analysis (content/bills) joined where we wrote
// one; sponsors resolved against the congress-legislators tables; one upsert per bill.
import { createHash } from 'node:crypto';
import type { Queryable } from '../platform/db/database.ts';
import { SourceFormatError, SourceUnavailableError, ValidationError } from '../sync/errors.ts';
import type { DatasetDefinition, SourceEntry, SyncContext } from '../sync/types.ts';
import { billStatusMirrorPath, govinfoBillStatusUrl, type BillRef } from './bill-id.ts';
import { parseBillStatusXml } from './billstatus-xml.ts';
import { candidatesFromApi, candidatesFromMirror } from './candidates.ts';
import { CONGRESS_API_BASE_URL, fetchBillFromApi } from './congress-api.ts';
import { addLegislators, type LegislatorIndex } from './legislators.ts';
import { reindexBills } from './search-documents.ts';
import { selectBill, type Selection } from './selection.ts';
import { statusAsOf } from './status.ts';
import { removeUntracked, toRow, upsertBill, type BillRow } from './store.ts';
import { readTrackedBills, TRACKED_BILLS_DIR, type TrackedBill } from './tracked.ts';
import type { BillRecord } from './types.ts';

export const BILLS_DATASET = 'bills';
const GOVINFO_BULK_URL = 'https://www.govinfo.gov/bulkdata/BILLSTATUS';

export const LEGISLATOR_SOURCES: SourceEntry[] = [
  {
    id: 'congress-legislators-current',
    publisherUrl: 'https://unitedstates.github.io/congress-legislators/legislators-current.csv',
    format: 'csv',
    mirrorPath: 'congress/legislators/legislators-current.csv',
  },
  {
    id: 'congress-legislators-historical',
    publisherUrl: 'https://unitedstates.github.io/congress-legislators/legislators-historical.csv',
    format: 'csv',
    mirrorPath: 'congress/legislators/legislators-historical.csv',
  },
];

export function billStatusSource(ref: BillRef): SourceEntry {
  return {
    id: `billstatus-${ref.billId}`,
    publisherUrl: govinfoBillStatusUrl(ref),
    format: 'xml',
    mirrorPath: billStatusMirrorPath(ref),
  };
}

export interface BillsDatasetOptions {
  /** Folder of our analyses (default content/bills). */
  contentDir?: string;
  /** Records to consider instead of discovering them (tests); the rule still selects among them. */
  candidates?: BillRef[];
  /** The selection rule (tests of the transport replace it); default ./selection.ts. */
  select?: (record: BillRecord, now: Date, analysed: boolean) => Selection | undefined;
  /** congress.gov API v3 base URL (tests point it at a local server). */
  apiBaseUrl?: string;
  fetchImpl?: typeof fetch;
}

export function createBillsDataset(options: BillsDatasetOptions = {}): DatasetDefinition {
  const contentDir = options.contentDir ?? TRACKED_BILLS_DIR;
  const apiBaseUrl = options.apiBaseUrl ?? CONGRESS_API_BASE_URL;
  const select = options.select ?? selectBill;
  return {
    name: BILLS_DATASET,
    description:
      'Housing and mortgage bills of the sitting Congress and housing laws since 2018: status, sponsor, cosponsors, committees, actions and CRS summary',
    async load(tx: Queryable, context: SyncContext) {
      const now = context.clock();
      const analyses = new Map((await readTrackedBills(contentDir)).map((bill) => [bill.billId, bill]));
      const checksums = createHash('sha256');
      const legislators: LegislatorIndex = new Map();
      for (const entry of LEGISLATOR_SOURCES) {
        const source = await context.readSource(entry);
        addLegislators(legislators, source.bytes.toString('utf8'), source.origin);
        checksums.update(source.checksum);
      }

      const apiKey = context.config.CONGRESS_API_KEY;
      const api = apiKey === undefined ? undefined : { baseUrl: apiBaseUrl, apiKey, fetchImpl: options.fetchImpl };
      let candidates = options.candidates;
      if (candidates === undefined) {
        if (api !== undefined) {
          const found = await candidatesFromApi(api, now);
          for (const checksum of found.checksums) checksums.update(checksum);
          // The API lists the sitting Congress's referrals and the laws: the bills we analysed from ended Congresses are asked for by id.
          const listed = new Set(found.refs.map((ref) => ref.billId));
          candidates = [...found.refs, ...[...analyses.values()].filter((bill) => !listed.has(bill.billId))];
        } else if (context.config.sourceDir !== undefined) {
          candidates = await candidatesFromMirror(context.config.sourceDir, now);
        } else {
          throw new SourceUnavailableError(
            'The bills dataset needs a list of bill records to choose from: set CONGRESS_API_KEY (a free congress.gov API key) ' +
              "or set MDS_SOURCE_DIR to a folder holding GovInfo's BILLSTATUS files under congress/billstatus/<congress>/.",
          );
        }
      }

      const rows: BillRow[] = [];
      const formats: Record<string, number> = {};
      const reasons: Record<string, number> = {};
      for (const [index, ref] of candidates.entries()) {
        let record: BillRecord;
        let sourceUrl: string;
        if (api !== undefined) {
          const fetched = await fetchBillFromApi(ref, api);
          record = fetched.record;
          sourceUrl = `${apiBaseUrl.replace(/\/+$/, '')}/bill/${ref.congress}/${ref.type}/${ref.number}`;
          checksums.update(fetched.checksum);
        } else {
          const source = await context.readSource(billStatusSource(ref));
          record = parseBillStatusXml(source.bytes.toString('utf8'), source.origin);
          sourceUrl = source.entry.publisherUrl;
          checksums.update(source.checksum);
          if (record.billId !== ref.billId) {
            throw new SourceFormatError(source.origin, undefined, `holds ${record.billId}, expected ${ref.billId}`);
          }
        }
        context.progress(index + 1, candidates.length);
        const selection = select(record, now, analyses.has(ref.billId));
        if (selection === undefined) continue;
        const missing = missingFields(record);
        if (missing.length > 0) throw new ValidationError(`${ref.billId}: the record lacks ${missing.join(', ')}`);
        const tracked = analyses.get(ref.billId) ?? untrackedEntry(record, selection);
        rows.push(toRow({ ...record, status: statusAsOf(record.status, record.congress, now) }, tracked, legislators, sourceUrl));
        formats[record.sourceFormat] = (formats[record.sourceFormat] ?? 0) + 1;
        reasons[selection.reason] = (reasons[selection.reason] ?? 0) + 1;
      }
      if (rows.length === 0) {
        throw new ValidationError(
          `none of the ${candidates.length} bill records read is a housing bill of the sitting Congress or a housing law since 2018`,
        );
      }

      let changed = 0;
      for (const row of rows) if (await upsertBill(tx, row)) changed += 1;
      changed += await removeUntracked(
        tx,
        rows.map((row) => row.bill_id),
      );
      // Keep the site-wide search index in step without waiting for the next search_index rebuild.
      if (changed > 0) await reindexBills(tx);

      const statuses: Record<string, number> = {};
      for (const row of rows) statuses[row.status] = (statuses[row.status] ?? 0) + 1;
      const asOf =
        rows
          .map((row) => row.as_of)
          .sort()
          .at(-1) ?? '';
      const withoutAnalysis = rows.filter((row) => row.analysis === '').map((row) => row.bill_id);
      context.logger.info(
        { dataset: BILLS_DATASET, candidates: candidates.length, bills: rows.length, changed, withoutAnalysis },
        'bills loaded',
      );
      return {
        asOf,
        sourceUrl: apiKey !== undefined ? `${apiBaseUrl.replace(/\/+$/, '')}/bill` : GOVINFO_BULK_URL,
        checksum: checksums.digest('hex'),
        rows: rows.length,
        changed,
        details: {
          source: apiKey !== undefined ? 'congress.gov API v3' : 'GovInfo BILLSTATUS XML',
          candidates: candidates.length,
          reasons,
          formats,
          statuses,
          withoutAnalysis,
        },
      };
    },
  };
}

/** A selected bill we have not written about yet: its display title, and the rule's reason as why we track it. */
function untrackedEntry(record: BillRecord, selection: Selection): TrackedBill {
  return {
    billId: record.billId,
    congress: record.congress,
    type: record.type,
    number: record.number,
    shortTitle: record.title,
    topics: [],
    whyWeTrack: selection.explanation,
    analysis: '',
    file: '',
  };
}

/** Validation gate: what every tracked bill must carry to be served. */
export function missingFields(record: BillRecord): string[] {
  const missing: string[] = [];
  if (record.title === '') missing.push('title');
  if (record.latestAction === null) missing.push('latest action');
  if (record.introducedDate === null) missing.push('introduced date');
  if (record.sponsor === null || record.sponsor.bioguideId === '') missing.push('sponsor');
  if (record.actions.length === 0) missing.push('actions');
  return missing;
}

export const billsDataset = createBillsDataset();
