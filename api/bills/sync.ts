// The `bills` dataset: for each tracked bill (content/bills), its status record from the congress.gov
// API v3 when CONGRESS_API_KEY is set, otherwise GovInfo's BILLSTATUS XML (or its copy below
// MDS_SOURCE_DIR); sponsors resolved against the congress-legislators tables; one upsert per bill.
import { createHash } from 'node:crypto';
import type { Queryable } from '../platform/db/database.ts';
import { SourceFormatError, ValidationError } from '../sync/errors.ts';
import type { DatasetDefinition, SourceEntry, SyncContext } from '../sync/types.ts';
import { billStatusMirrorPath, govinfoBillStatusUrl, type BillRef } from './bill-id.ts';
import { parseBillStatusXml } from './billstatus-xml.ts';
import { CONGRESS_API_BASE_URL, fetchBillFromApi } from './congress-api.ts';
import { addLegislators, type LegislatorIndex } from './legislators.ts';
import { reindexBills } from './search-documents.ts';
import { removeUntracked, toRow, upsertBill, type BillRow } from './store.ts';
import { readTrackedBills, TRACKED_BILLS_DIR } from './tracked.ts';
import type { BillRecord } from './types.ts';

export const BILLS_DATASET = 'bills';
export const TRACKED_BILL_COUNT = 45;
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
  /** Folder of the tracked list (default content/bills). */
  contentDir?: string;
  /** How many bills the list must hold (default 45; undefined in options means the default). */
  expectedTracked?: number | null;
  /** congress.gov API v3 base URL (tests point it at a local server). */
  apiBaseUrl?: string;
  fetchImpl?: typeof fetch;
}

export function createBillsDataset(options: BillsDatasetOptions = {}): DatasetDefinition {
  const contentDir = options.contentDir ?? TRACKED_BILLS_DIR;
  const expected = options.expectedTracked === undefined ? TRACKED_BILL_COUNT : options.expectedTracked;
  const apiBaseUrl = options.apiBaseUrl ?? CONGRESS_API_BASE_URL;
  return {
    name: BILLS_DATASET,
    description: 'Tracked housing and mortgage bills: status, sponsor, cosponsors, committees, actions and CRS summary',
    async load(tx: Queryable, context: SyncContext) {
      const tracked = await readTrackedBills(contentDir);
      if (expected !== null && tracked.length !== expected) {
        throw new ValidationError(`the tracked list in ${contentDir} holds ${tracked.length} bills; expected ${expected}`);
      }
      const checksums = createHash('sha256');
      const legislators: LegislatorIndex = new Map();
      for (const entry of LEGISLATOR_SOURCES) {
        const source = await context.readSource(entry);
        addLegislators(legislators, source.bytes.toString('utf8'), source.origin);
        checksums.update(source.checksum);
      }

      const apiKey = context.config.CONGRESS_API_KEY;
      const rows: BillRow[] = [];
      const formats: Record<string, number> = {};
      for (const [index, bill] of tracked.entries()) {
        let record: BillRecord;
        let sourceUrl: string;
        if (apiKey !== undefined) {
          const fetched = await fetchBillFromApi(bill, { baseUrl: apiBaseUrl, apiKey, fetchImpl: options.fetchImpl });
          record = fetched.record;
          sourceUrl = `${apiBaseUrl.replace(/\/+$/, '')}/bill/${bill.congress}/${bill.type}/${bill.number}`;
          checksums.update(fetched.checksum);
        } else {
          const source = await context.readSource(billStatusSource(bill));
          record = parseBillStatusXml(source.bytes.toString('utf8'), source.origin);
          sourceUrl = source.entry.publisherUrl;
          checksums.update(source.checksum);
          if (record.billId !== bill.billId) {
            throw new SourceFormatError(source.origin, undefined, `holds ${record.billId}, expected ${bill.billId}`);
          }
        }
        const missing = missingFields(record);
        if (missing.length > 0) throw new ValidationError(`${bill.billId}: the record lacks ${missing.join(', ')}`);
        rows.push(toRow(record, bill, legislators, sourceUrl));
        formats[record.sourceFormat] = (formats[record.sourceFormat] ?? 0) + 1;
        context.progress(index + 1, tracked.length);
      }

      let changed = 0;
      for (const row of rows) if (await upsertBill(tx, row)) changed += 1;
      changed += await removeUntracked(tx, rows.map((row) => row.bill_id));
      // Keep the site-wide search index in step without waiting for the next search_index rebuild.
      if (changed > 0) await reindexBills(tx);

      const statuses: Record<string, number> = {};
      for (const row of rows) statuses[row.status] = (statuses[row.status] ?? 0) + 1;
      const asOf = rows.map((row) => row.as_of).sort().at(-1);
      if (asOf === undefined) throw new ValidationError('no tracked bills loaded');
      context.logger.info({ dataset: BILLS_DATASET, bills: rows.length, changed }, 'bills loaded');
      return {
        asOf,
        sourceUrl: apiKey !== undefined ? `${apiBaseUrl.replace(/\/+$/, '')}/bill` : GOVINFO_BULK_URL,
        checksum: checksums.digest('hex'),
        rows: rows.length,
        changed,
        details: { source: apiKey !== undefined ? 'congress.gov API v3' : 'GovInfo BILLSTATUS XML', formats, statuses },
      };
    },
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
