// The tracked bills as documents of the site-wide full-text index (type `bill`), so search_content
// and /ask find them beside articles and glossary terms. Registered as a search source at import.
import type { Queryable } from '../platform/db/database.ts';
import { replaceDocuments, type SearchDocumentInput } from '../search/documents.ts';
import { registerSearchSource } from '../search/sources.ts';
import { citation, type BillRef } from './bill-id.ts';

export const BILLS_SEARCH_SOURCE = 'bills';

interface Row {
  bill_id: string;
  congress: number;
  bill_type: BillRef['type'];
  bill_number: number;
  title: string;
  short_title: string;
  official_title: string | null;
  status_label: string;
  latest_action_text: string;
  as_of: string;
  sponsor_name: string | null;
  policy_area: string | null;
  summary_text: string | null;
  analysis: string;
  why_we_track: string;
  topics: string[];
}

export async function billSearchDocuments(db: Queryable): Promise<SearchDocumentInput[]> {
  const { rows } = await db.query<Row>(
    `SELECT bill_id, congress, bill_type, bill_number, title, short_title, official_title, status_label, latest_action_text,
       as_of::text AS as_of, sponsor_name, policy_area, summary_text, analysis, why_we_track, topics
     FROM bills ORDER BY bill_id`,
  );
  return rows.map((row) => {
    const ref: BillRef = { billId: row.bill_id, congress: row.congress, type: row.bill_type, number: row.bill_number };
    const cited = citation(ref);
    return {
      id: `bill:${row.bill_id}`,
      type: 'bill',
      title: `${row.short_title} (${cited.replace(/ \(.*\)$/, '')})`,
      path: `/bills/${row.bill_id}`,
      aliases: [row.title, cited, row.bill_id].filter((alias) => alias !== row.short_title),
      summary: row.why_we_track,
      headings: ['Our analysis', 'Official summary', row.status_label, ...(row.policy_area ? [row.policy_area] : [])],
      body: [
        row.official_title ?? '',
        row.analysis,
        row.summary_text ?? '',
        `Status: ${row.status_label}. Latest action: ${row.latest_action_text}`,
        row.sponsor_name ? `Sponsor: ${row.sponsor_name}.` : '',
        `Topics: ${row.topics.join(', ')}.`,
      ]
        .filter((part) => part !== '')
        .join('\n\n'),
      publishedOn: row.as_of,
    };
  });
}

/** Rewrites the bills' index rows from the bills table (inside the caller's transaction). */
export async function reindexBills(db: Queryable): Promise<number> {
  return replaceDocuments(db, BILLS_SEARCH_SOURCE, await billSearchDocuments(db));
}

registerSearchSource({ source: BILLS_SEARCH_SOURCE, documents: billSearchDocuments });
