// Words about lenders ("Which single institution reported the most HMDA records for 2020?", "top
// lenders"): the HMDA filers of that year's transmittal sheet, most records first, each with its share
// of the national total. The catalogue holds no series per lender, so the catalogue search (MCP
// `find_series`, REST GET /series?query=) gives the filer list beside its series, as /ask's reader
// does; loan-level records are not needed for it.
import { HttpError } from '../platform/errors.ts';
import type { Source } from '../platform/contract/sources.ts';
import type { TopLenders } from '../hmda-aggregates/service.ts';
import type { FilerRanking } from './contract.ts';

/** The filer list of a year (the latest without one): the HMDA aggregates service's top lenders. */
export type FilerLister = (params: { year?: number; limit: number }) => Promise<TopLenders>;

/** A word naming who reports HMDA records, not what they report. */
const LENDER = /\b(lenders?|institutions?|filers?|banks?|creditors?|respondents?)\b/i;

/** Whether the words ask about lenders. */
export const lendersAsked = (text: string): boolean => LENDER.test(text);

/** The filers a search's words ask for, or why there are none (a year not loaded, the list not loaded yet). */
export async function filerRanking(
  text: string,
  limit: number,
  list: FilerLister | undefined,
): Promise<{ lenders?: FilerRanking; source?: Source; note?: string }> {
  if (list === undefined || !lendersAsked(text)) return {};
  const year = /\b(19|20)\d{2}\b/.exec(text)?.[0];
  try {
    const top = await list({ ...(year === undefined ? {} : { year: Number(year) }), limit: Math.min(limit, 50) });
    return {
      lenders: {
        year: top.year,
        total_records: top.total_records,
        filers: top.lender_count,
        note: top.note,
        top: top.lenders.map(({ rank, name, lei, agency, state, city, records, share_percent }) => ({
          rank,
          name,
          lei,
          agency,
          state,
          city,
          records,
          share_percent,
        })),
      },
      source: { url: top.source_url, as_of: top.as_of, name: top.source },
    };
  } catch (error) {
    if (!(error instanceof HttpError)) throw error;
    return { note: `HMDA filers: ${error.message}` };
  }
}

/** The filers as lines of text: "1. NAME (LEI …): 1,234 records, 5.1% of 12,345 records by 4,000 filers." */
export function filerLines(ranking: FilerRanking): string[] {
  const count = (value: number) => value.toLocaleString('en-US');
  return [
    `HMDA filers ${ranking.year}, by records reported (${count(ranking.total_records)} records by ${count(ranking.filers)} filers in all):`,
    ...ranking.top.map(
      (filer) =>
        `${filer.rank}. ${filer.name} (LEI ${filer.lei}): ${count(filer.records)} records, ${filer.share_percent}% of the national total.`,
    ),
  ];
}
