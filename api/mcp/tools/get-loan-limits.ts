// get_loan_limits: conforming (FHFA), FHA (HUD), VA and USDA loan limits for every county, 1–4
// units, every year loaded, with each figure's source and as-of date. The schemas are the
// loan-limits contract's, shared with GET /loan-limits, plus the tool's history range and `offset`:
// a state's every county is more than a model reads at once (California: 58 counties, 50 KB), so it
// comes a page at a time, led by a summary of the whole state and followed by the way to the rest.
import type { ResourceLink } from '@modelcontextprotocol/sdk/types.js';
import { defineTool, type ToolDeps } from '../tool-kit.ts';
import { loanLimitsText } from '../answer-text.ts';
import { PageSchema, fitPage, fitsPage, type Page } from '../result-budget.ts';
import { LoanLimitsAnswerSchema, LoanLimitsQuerySchema, type LoanLimitsAnswer, type LoanLimitsQuery } from '../../loan-limits/contract.ts';
import { HistorySchema, LimitRangeSchema, historyText, limitHistory, type History } from '../../series/tool-history.ts';
import { integer } from '../../platform/contract/lenient.ts';
import { BadRequestError } from '../../platform/errors.ts';

const OFFSET_MAX = 10_000;

/** A page's place in the state, for clients that read only the structured content. */
const pageNote = (whole: LoanLimitsAnswer, position: Page, everyCounty: string) =>
  `${whole.counties.length} counties match; counties ${position.offset + 1}–${position.offset + position.count} are here` +
  `${position.next_offset === null ? '' : ` (the next with offset ${position.next_offset})`}. Every county: ${everyCounty}, or ask for one with \`county\`.`;

export const getLoanLimitsTool = defineTool({
  name: 'get_loan_limits',
  title: 'Loan limits',
  description: "Conforming, FHA, VA and USDA loan limits by county, 1–4 units; without `county`, the state's counties by page.",
  inputSchema: LoanLimitsQuerySchema.extend(LimitRangeSchema.shape).extend({
    offset: integer({ min: 0, max: OFFSET_MAX }).optional().describe('Page start (each page names the next).'),
  }),
  outputSchema: LoanLimitsAnswerSchema.extend({ history: HistorySchema.optional(), page: PageSchema.optional() }),
  uses: ['loanLimits', 'series'],
  async run(args, { deps }) {
    const { from_year, to_year, offset, ...query } = args;
    const whole = await deps.services.loanLimits.answer(query);
    const fips = query.county === undefined ? undefined : whole.counties[0]?.fips;
    if (query.county !== undefined && offset !== undefined)
      throw new BadRequestError("'offset' pages the counties of a state: give it without 'county'.");
    const units = query.units ?? 1;
    const history = await limitHistory(deps, { from_year, to_year, loan_type: query.loan_type, units, ...(fips ? { fips } : {}) });
    if (history && !fips)
      history.notes.push(
        `No county was asked for: these are the national one-unit limits${units > 1 ? ' (a county gives its limits for 2–4 units)' : ''}.`,
      );
    const withHistory = (text: string) =>
      history ? `${text}\n\n${historyText(history, (value) => `$${value.toLocaleString('en-US')}`)}` : text;
    if (query.county !== undefined) {
      return { structured: { ...whole, ...(history ? { history } : {}) }, text: withHistory(loanLimitsText(whole)) };
    }
    return countiesPage(deps, query, whole, offset ?? 0, history, withHistory);
  },
});

/**
 * A state's counties from `offset`: as many as keep the text and the structured content within a
 * page's budget, with the summary of them all, the next offset and a link to every county (REST).
 */
function countiesPage(
  deps: ToolDeps<'loanLimits' | 'series'>,
  query: LoanLimitsQuery,
  whole: LoanLimitsAnswer,
  offset: number,
  history: History | undefined,
  withHistory: (text: string) => string,
) {
  const total = whole.counties.length;
  if (offset > 0 && offset >= total)
    throw new BadRequestError(
      `Invalid value for 'offset': ${offset}. ${whole.parameters.state_name} has ${total} counties: give 0 to ${total - 1}.`,
    );
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value !== undefined) search.set(name, String(value));
  const everyCounty = `${deps.config.baseUrl}/api/v1/loan-limits?${search.toString()}`;
  const link: ResourceLink = {
    type: 'resource_link',
    uri: everyCounty,
    name: `loan-limits-${whole.parameters.state}.json`,
    title: `Every county's loan limits (${total} counties)`,
    description: 'The same answer with every county, from the REST API (JSON, no key needed).',
    mimeType: 'application/json',
  };
  const { rendered, page } = fitPage(
    whole.counties,
    offset,
    (counties, position) => ({
      structured: {
        ...whole,
        counties,
        notes: [...whole.notes, pageNote(whole, position, everyCounty)],
        ...(history ? { history } : {}),
        page: position,
      },
      text: withHistory(loanLimitsText(whole, { counties, position, everyCounty })),
    }),
    fitsPage,
  );
  // One page is the whole state: no page to name, no link needed.
  if (page.offset === 0 && page.next_offset === null)
    return { structured: { ...whole, ...(history ? { history } : {}) }, text: withHistory(loanLimitsText(whole)) };
  return { ...rendered, links: [link] };
}
