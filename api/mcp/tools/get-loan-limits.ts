// get_loan_limits: conforming (FHFA), FHA (HUD), VA and USDA loan limits for every county, 1–4
// units, every year loaded, with each figure's source and as-of date. The schemas are the
// loan-limits contract's, shared with GET /loan-limits.
import type { ResourceLink } from '@modelcontextprotocol/sdk/types.js';
import type { AppDeps } from '../../deps.ts';
import { defineTool, sourcesText } from '../tool-kit.ts';
import { TOOL_RESULT_BUDGET_BYTES, toolResultBytes } from '../result-budget.ts';
import { LoanLimitsAnswerSchema, LoanLimitsQuerySchema, type LoanLimitsAnswer, type LoanLimitsQuery } from '../../loan-limits/contract.ts';
import { HistorySchema, LimitRangeSchema, historyText, limitHistory } from '../../series/tool-history.ts';
import { PINNED_TOOL_NOTE } from '../../platform/contract/versions.ts';

const money = (value: number | undefined) => (value === undefined ? 'n/a' : `$${value.toLocaleString('en-US')}`);

/** The answer as text: one line per county (at most 25), the years, the notes and the sources. */
export function loanLimitsText(result: LoanLimitsAnswer): string {
  const lines = result.counties.slice(0, 25).map((county) => {
    const parts: string[] = [];
    if (county.conforming?.limits) parts.push(`conforming ${money(county.conforming.limits['1'] ?? Object.values(county.conforming.limits)[0])}`);
    if (county.fha?.limits) parts.push(`FHA ${money(county.fha.limits['1'] ?? Object.values(county.fha.limits)[0])}`);
    if (county.va?.limits) parts.push(`VA ${money(county.va.limits['1'] ?? Object.values(county.va.limits)[0])}`);
    if (county.usda) parts.push('USDA: no loan limit');
    return `${county.county}, ${county.state} (${county.fips}): ${parts.join('; ')}`;
  });
  const more = result.counties.length > 25 ? [`… and ${result.counties.length - 25} more counties (see structured content).`] : [];
  const years = Object.entries(result.years);
  const distinct = new Set(years.map(([, year]) => year));
  const when = distinct.size > 1 ? ` (${years.map(([program, year]) => `${program === 'fha' ? 'FHA' : program} ${year}`).join(', ')})` : ` ${result.year}`;
  return [
    `Loan limits${when}${result.parameters.units ? `, ${result.parameters.units}-unit` : ', 1-unit shown'}:`,
    ...lines,
    ...more,
    ...result.notes,
    '',
    sourcesText(result.sources),
  ].join('\n');
}

export const getLoanLimitsTool = defineTool({
  name: 'get_loan_limits',
  title: 'Loan limits by county',
  description:
    'Conforming (FHFA), FHA (HUD), VA and USDA loan limits for any US county, 1–4 unit properties, for every year ' +
    'loaded (county files since 2018; national baseline history since 1972). VA uses the conforming limit (for ' +
    'partial entitlement); USDA guaranteed loans have no loan limit. Arguments: `state` (required) as a code or a name ' +
    '("CA", "ca", "California"); `county` as a name with or without "County"/"Parish" ("Los Angeles", "Cook County"), a ' +
    'New York City borough ("Brooklyn" is Kings County) or a 5-digit FIPS ("06037"), omitted for every county of the ' +
    'state; `year` (2026 or "2025"; default: each program\'s latest published year, so FHA may lag conforming and ' +
    '`years` says so); `loan_type` conforming, fha, va, usda or all in any case ("FHA"); `units` 1–4. `from_year` and/or ' +
    '`to_year` (e.g. 2018, 2026) add `history`: the county\'s one-unit conforming and FHA limits year by year (since 2018) ' +
    'when `county` is given, else the national baseline, ceiling, FHA floor and ceiling (since 1972 and 2008), with sources.' +
    PINNED_TOOL_NOTE,
  inputSchema: LoanLimitsQuerySchema.extend(LimitRangeSchema.shape),
  outputSchema: LoanLimitsAnswerSchema.extend({ history: HistorySchema.optional() }),
  async run(args, { deps }) {
    const { from_year, to_year, ...query } = args;
    const whole = await deps.services.loanLimits.answer(query);
    const fips = query.county === undefined ? undefined : whole.counties[0]?.fips;
    const history = await limitHistory(deps, { from_year, to_year, loan_type: query.loan_type, ...(fips ? { fips } : {}) });
    if (history && !fips) history.notes.push('No county was asked for: these are the national one-unit limits.');
    const render = (answer: LoanLimitsAnswer) =>
      history
        ? { structured: { ...answer, history }, text: `${loanLimitsText(answer)}\n\n${historyText(history, (value) => `$${value.toLocaleString('en-US')}`)}` }
        : { structured: answer, text: loanLimitsText(answer) };
    const full = render(whole);
    if (withinBudget(full)) return full;
    return firstCountiesWithLink(deps, query, whole, render);
  },
});

/** Whether a rendered answer (with any links) stays under the tool-result budget. */
function withinBudget(rendered: { structured: object; text: string }, links: ResourceLink[] = []): boolean {
  const content = [{ type: 'text' as const, text: rendered.text }, ...links];
  return toolResultBytes({ structuredContent: rendered.structured as Record<string, unknown>, content }) <= TOOL_RESULT_BUDGET_BYTES;
}

/**
 * A state's every county can be larger than a client reads (Texas: 254 counties, all programs and
 * unit counts): the result keeps the first counties that fit the budget, says how many there are,
 * and links the REST query that returns them all.
 */
function firstCountiesWithLink<Rendered extends { structured: object; text: string }>(
  deps: AppDeps,
  query: LoanLimitsQuery,
  whole: LoanLimitsAnswer,
  render: (answer: LoanLimitsAnswer) => Rendered,
): Rendered & { links: ResourceLink[] } {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value !== undefined) search.set(name, String(value));
  const url = `${deps.config.baseUrl}/api/v1/loan-limits?${search.toString()}`;
  const link: ResourceLink = {
    type: 'resource_link',
    uri: url,
    name: `loan-limits-${whole.parameters.state}.json`,
    title: `Every county's loan limits (${whole.counties.length} counties)`,
    description: 'The same answer with every county, from the REST API (JSON, no key needed).',
    mimeType: 'application/json',
  };
  const firstOf = (count: number) => {
    const note = `${whole.counties.length} counties match; the first ${count} are here. Every county: ${url}, or ask for one with \`county\`.`;
    return render({ ...whole, counties: whole.counties.slice(0, count), notes: [...whole.notes, note] });
  };
  // The largest count that fits: the result grows with each county, so halve the interval.
  let best = firstOf(0);
  let low = 0;
  let high = whole.counties.length - 1;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    const candidate = firstOf(middle);
    if (withinBudget(candidate, [link])) {
      best = candidate;
      low = middle;
    } else high = middle - 1;
  }
  return { ...best, links: [link] };
}
