// get_loan_limits: conforming (FHFA), FHA (HUD), VA and USDA loan limits for every county, 1–4
// units, every year loaded, with each figure's source and as-of date. The schemas are the
// loan-limits contract's, shared with GET /loan-limits, plus the tool's history range and `offset`:
// a state's every county is more than a model reads at once (California: 58 counties, 50 KB), so it
// comes a page at a time, led by a summary of the whole state and followed by the way to the rest.
import type { ResourceLink } from '@modelcontextprotocol/sdk/types.js';
import { defineTool, sourcesText, type ToolDeps } from '../tool-kit.ts';
import { PageSchema, fitPage, fitsPage, type Page } from '../result-budget.ts';
import {
  LoanLimitsAnswerSchema,
  LoanLimitsQuerySchema,
  type CountyLimits,
  type LoanLimitsAnswer,
  type LoanLimitsQuery,
} from '../../loan-limits/contract.ts';
import { HistorySchema, LimitRangeSchema, historyText, limitHistory, type History } from '../../series/tool-history.ts';
import { integer } from '../../platform/contract/lenient.ts';
import { BadRequestError } from '../../platform/errors.ts';

const money = (value: number | undefined) => (value === undefined ? 'n/a' : `$${value.toLocaleString('en-US')}`);
const PROGRAM_NAMES = { conforming: 'conforming', fha: 'FHA', va: 'VA', usda: 'USDA' } as const;
type ProgramKey = keyof typeof PROGRAM_NAMES;

/** The limit a line shows: the requested unit count's, else the one-unit limit. */
const shownLimit = (limits: Partial<Record<'1' | '2' | '3' | '4', number>> | null | undefined) =>
  limits ? (limits['1'] ?? Object.values(limits)[0]) : undefined;

function countyLine(county: CountyLimits): string {
  const parts: string[] = [];
  if (county.conforming?.limits) parts.push(`conforming ${money(shownLimit(county.conforming.limits))}`);
  if (county.fha?.limits) parts.push(`FHA ${money(shownLimit(county.fha.limits))}`);
  if (county.va?.limits) parts.push(`VA ${money(shownLimit(county.va.limits))}`);
  if (county.usda) parts.push('USDA: no loan limit');
  for (const program of ['conforming', 'fha', 'va'] as const)
    if (county[program] && !county[program].available && !county[program].limits) parts.push(`${PROGRAM_NAMES[program]}: none`);
  return `${county.county}, ${county.state} (${county.fips}): ${parts.join('; ')}`;
}

/**
 * What is missing, said once for all the counties it concerns: a program with no figures for the
 * year (HUD's FHA file for 2026 not loaded yet), with the service's reason.
 */
function missingPrograms(counties: readonly CountyLimits[]): string[] {
  const byNote = new Map<string, { program: ProgramKey; count: number }>();
  for (const county of counties) {
    for (const program of ['conforming', 'fha', 'va'] as const) {
      const limit = county[program];
      if (!limit || limit.available || limit.limits) continue;
      const note = limit.note ?? `no ${PROGRAM_NAMES[program]} limit for this county and year`;
      const key = `${program}|${note}`;
      byNote.set(key, { program, count: (byNote.get(key)?.count ?? 0) + 1 });
    }
  }
  return [...byNote.entries()].map(([key, { program, count }]) => {
    const note = key.slice(key.indexOf('|') + 1);
    const which = counties.length === 1 ? '' : count === counties.length ? ' (every county)' : ` (${count} of ${counties.length} counties)`;
    return `NOTE: no ${PROGRAM_NAMES[program]} limits${which}: ${note}`;
  });
}

function yearsText(result: LoanLimitsAnswer): string {
  const years = Object.entries(result.years);
  const distinct = new Set(years.map(([, year]) => year));
  return distinct.size > 1
    ? `(${years.map(([program, year]) => `${program === 'fha' ? 'FHA' : program} ${year}`).join(', ')})`
    : String(result.year);
}

const unitsText = (result: LoanLimitsAnswer) => (result.parameters.units ? `${result.parameters.units}-unit` : '1-unit shown');

/** Low and high of a program's shown limit over the counties, and how many are high-cost. */
function range(counties: readonly CountyLimits[], program: 'conforming' | 'fha'): string {
  const values = counties.map((county) => shownLimit(county[program]?.limits)).filter((value): value is number => value !== undefined);
  if (values.length === 0) return '';
  const low = Math.min(...values);
  const high = Math.max(...values);
  const highCost = counties.filter((county) => county[program]?.tier === 'high_cost').length;
  const span = low === high ? money(low) : `${money(low)} to ${money(high)}`;
  return `${PROGRAM_NAMES[program]} ${span}${highCost > 0 ? ` (${highCost} high-cost)` : ''}`;
}

/** The answer as text: how it was read, what is missing, one line per county, the notes and the sources. */
export function loanLimitsText(result: LoanLimitsAnswer, page?: { counties: CountyLimits[]; position: Page; everyCounty: string }): string {
  const all = result.counties;
  const shown = page?.counties ?? all;
  const head = page
    ? [
        `Loan limits ${yearsText(result)} for ${result.parameters.state_name}, ${unitsText(result)}: ${all.length} counties; ` +
          `${[range(all, 'conforming'), range(all, 'fha')].filter(Boolean).join('; ')}.`,
        `Counties ${page.position.offset + 1}–${page.position.offset + page.position.count} of ${all.length} below` +
          `${page.position.next_offset === null ? '' : `; the next with offset: ${page.position.next_offset}`}. One county: give \`county\`. Every county as JSON: ${page.everyCounty}`,
      ]
    : [`Loan limits ${yearsText(result)}, ${unitsText(result)}:`];
  return [...head, ...missingPrograms(all), ...shown.map(countyLine), ...result.notes, '', sourcesText(result.sources)].join('\n');
}

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
