// The views of /bills and /bills/<id> (see site/views/format.ts for why views exist): the tracked
// bills in the sitting Congress, the laws and the archive, with counts by status; and one bill with
// its members named as the page shows them. Dates read "Oct 8, 2026" in the list, "October 8, 2026"
// on a bill's page.
import type { PageDeps } from '../../api/publications/render-capture.ts';
import { parseBillId, ordinal } from '../../api/bills/bill-id.ts';
import type { BillDetail, BillSummary } from '../../api/bills/contract.ts';
import { BILL_STATUSES, STATUS_LABELS, isBillStatus } from '../../api/bills/status.ts';
import { congressOn } from '../../api/bills/congress-term.ts';

export { BILL_STATUSES, STATUS_LABELS };
export type { BillDetail, BillSummary };

/** A list's dates: "Oct 8, 2026". */
export const listDate = (iso: string): string =>
  new Date(`${iso}T00:00:00Z`).toLocaleDateString('en-US', {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    timeZone: 'UTC',
  });

/** A bill page's dates: "October 8, 2026", or "unknown" for none. */
export const billDate = (iso: string | null): string =>
  iso
    ? new Date(`${iso.slice(0, 10)}T00:00:00Z`).toLocaleDateString('en-US', {
        year: 'numeric',
        month: 'long',
        day: 'numeric',
        timeZone: 'UTC',
      })
    : 'unknown';

/** The services' errors come from the page bundle's own copy of the classes: read their HTTP status. */
const statusOf = (error: unknown): number | undefined => (error as { status?: number }).status;

/** The tracked bills by Congress and status, for /bills?status=… */
export async function billsView(deps: PageDeps | undefined, url: URL) {
  const statusParam = (url.searchParams.get('status') ?? '').toLowerCase();
  const status = isBillStatus(statusParam) ? statusParam : undefined;
  let bills: BillSummary[] = [];
  let loaded = false;
  if (deps) {
    try {
      bills = await deps.services.bills.list();
      loaded = true;
    } catch (error) {
      if (statusOf(error) !== 503) throw error;
    }
  }
  const shown = status ? bills.filter((bill) => bill.status === status) : bills;
  const sitting = congressOn(deps ? deps.clock() : new Date());
  const ended = shown.filter((bill) => bill.congress < sitting && bill.status !== 'became_law');
  const endedCongresses = [...new Set(ended.map((bill) => bill.congress))].sort();
  const congresses = endedCongresses.map((congress) => ordinal(congress)).join(' and ');
  const congressWord = endedCongresses.length === 1 ? 'Congress' : 'Congresses';
  const parts = [
    {
      id: 'current',
      title: `Bills of the ${ordinal(sitting)} Congress`,
      bills: shown.filter((bill) => bill.congress >= sitting),
    },
    {
      id: 'laws',
      title: 'Housing laws enacted since 2018',
      bills: shown.filter((bill) => bill.congress < sitting && bill.status === 'became_law'),
    },
    {
      id: 'archive',
      title: `Archive: bills of the ${congresses} ${congressWord}, which ended without them becoming law`,
      bills: ended,
    },
  ].filter((part) => part.bills.length > 0);
  const counts = new Map<string, number>();
  for (const bill of bills) counts.set(bill.status, (counts.get(bill.status) ?? 0) + 1);
  const asOf = bills
    .map((bill) => bill.as_of)
    .sort()
    .at(-1);
  return { status, bills, loaded, parts, counts, asOf: asOf ? listDate(asOf) : 'unknown' };
}

/** "Jane Doe (D-CA-12)". */
export const member = (m: { name: string; party: string | null; state: string | null; district?: string | null }) =>
  `${m.name} (${[m.party, m.state, m.district].filter(Boolean).join('-')})`;

/** A text's paragraphs (split at blank lines). */
export const paragraphs = (text: string): string[] =>
  text
    .split(/\n{2,}/)
    .map((part) => part.trim())
    .filter(Boolean);

/** One tracked bill by its id ("hr1395-117"); unavailable while the bill records are not loaded. */
export async function billView(deps: PageDeps | undefined, rawId: string) {
  const id = rawId.toLowerCase();
  let bill: BillDetail | undefined;
  let unavailable = !deps;
  if (deps && parseBillId(id)) {
    try {
      bill = await deps.services.bills.get(id);
    } catch (error) {
      const status = statusOf(error);
      if (status === 503) unavailable = true;
      else if (status !== 404) throw error;
    }
  }
  const activeCosponsors = bill ? bill.cosponsors.filter((cosponsor) => cosponsor.withdrawn_date === null) : [];
  return { id, bill, unavailable, activeCosponsors };
}
