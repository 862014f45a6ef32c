// Answers as text, for the human-readable block of an MCP result: read by the tools and by the
// resources that serve the same answers (api/mcp/resources.ts), so neither imports the other.
import type { Source } from '../platform/contract/sources.ts';
import type { BillsAnswer } from '../bills/contract.ts';
import type { CountyLimits, LoanLimitsAnswer } from '../loan-limits/contract.ts';
import type { Page } from './result-budget.ts';

/** Formats sources as text lines for the human-readable block. */
export function sourcesText(sources: Source[]): string {
  return sources
    .map((source) => `Source: ${source.name ? `${source.name}, ` : ''}${source.url}${source.as_of ? ` (as of ${source.as_of})` : ''}`)
    .join('\n');
}

/** A bill in full, or the list of matching bills, one line each. */
export function billsAnswerText(answer: BillsAnswer): string {
  const [first] = answer.bills;
  if (first && 'analysis' in first) {
    return [
      `${first.citation}: ${first.title}`,
      `Introduced: ${first.introduced_date ?? 'date not in the record'}. Status: ${first.status_label}. Latest action (${first.latest_action.date}): ${first.latest_action.text}`,
      first.sponsor
        ? `Sponsor: ${first.sponsor.name} (${first.sponsor.party}-${first.sponsor.state}); ${first.cosponsor_count} cosponsors.`
        : '',
      first.summary?.text ? `Summary: ${first.summary.text.slice(0, 800)}` : '',
      first.analysis ? `Our analysis: ${first.analysis.slice(0, 800)}` : '',
      sourcesText(answer.sources),
    ]
      .filter(Boolean)
      .join('\n\n');
  }
  if (answer.bills.length === 0) return 'No tracked bill matches. Try a broader keyword, or no filter to list them all.';
  const lines = answer.bills.map(
    (bill) =>
      `- ${bill.citation} (${bill.bill_id}): ${bill.title} — ${bill.status_label}; introduced ${bill.introduced_date ?? 'n/a'}, latest action ${bill.latest_action.date}.`,
  );
  const atLimit = answer.bills.length === answer.filters.limit ? ` (the limit: raise \`limit\` for more)` : '';
  const summary = `${answer.bills.length} tracked bill${answer.bills.length === 1 ? '' : 's'}${atLimit}; \`bill_id\` gives one in full:`;
  return `${summary}\n${lines.join('\n')}\n\n${sourcesText(answer.sources)}`;
}

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
