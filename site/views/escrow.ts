// The view of /escrow (see site/views/format.ts for why views exist): the form's request read by
// the escrow contract, the answer of the same service as GET /api/v1/escrow, and the form's choices.
import { live, queryObject } from './live.ts';
import type { PageDeps } from '../../api/publications/render-capture.ts';
import { parseOrThrow } from '../../api/platform/validation.ts';
import { EscrowQuerySchema, type EscrowAnswer } from '../../api/escrow/contract.ts';
import { formatMonths } from '../../api/escrow/engine.ts';
import { MONTH_NAMES } from '../../api/platform/contract/months.ts';

export { formatMonths, MONTH_NAMES };

/** How often a tax is paid, in words. */
export const HOW_OFTEN: Readonly<Record<string, string>> = {
  annual: 'once a year',
  'semi-annual': 'twice a year',
  quarterly: 'four times a year',
  monthly: 'monthly',
};

/** "$1,234.50". */
export const dollars = (value: number): string =>
  `$${value.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

export async function escrowView(deps: PageDeps | undefined, url: URL) {
  const query = queryObject(url);
  const asked = query.state !== undefined;
  // The form's own parameters, read by the contract (a link's tracking parameters are not the form's).
  const formQuery = Object.fromEntries(Object.entries(query).filter(([name]) => name in EscrowQuerySchema.shape));
  const result = asked
    ? await live(deps, (d): EscrowAnswer =>
        d.services.escrow.answer(parseOrThrow(EscrowQuerySchema, formQuery, 'query')),
      )
    : undefined;
  const closingMonth = result?.ok ? result.value.closingMonth : (deps ? deps.clock() : new Date()).getUTCMonth() + 1;
  return {
    query,
    asked,
    result,
    states: deps ? deps.services.escrow.stateCodes() : [],
    month: String(closingMonth),
    stateAsked: result?.ok ? result.value.stateCode : (query.state ?? '').toUpperCase(),
    apiHref: `/api/v1/escrow?${new URLSearchParams(formQuery).toString()}`,
  };
}
