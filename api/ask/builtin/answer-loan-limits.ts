// "What is the 2026 conforming limit in Los Angeles County?": the loan-limits service's figures for
// the county (or the state's range, or the national baseline), with sources and what each means.
import type { Composer, AnswerDraft } from './draft.ts';
import { formatMoney } from './draft.ts';
import { toErrorResponse } from '../../platform/http/errors.ts';
import { USDA_NOTE, type CountyLimits, type LoanLimitsResult } from '../../loan-limits/service.ts';

const USDA_URL = 'https://www.rd.usda.gov/programs-services/single-family-housing-programs/single-family-housing-guaranteed-loan-program';

const unitLabel = (units: number) => (units === 1 ? 'one-unit' : `${units}-unit`);

function limitOf(program: CountyLimits['conforming'], units: number): number | undefined {
  return program?.limits?.[String(units) as '1' | '2' | '3' | '4'];
}

function nationalAnswer(year: number, deps: Parameters<Composer>[0]['deps']): AnswerDraft {
  const history = deps.services.loanLimits.nationalHistory();
  const entry = history.conforming.find((candidate) => candidate.year === year) ?? history.conforming.at(-1);
  if (!entry?.baseline) return { text: `I don't have the national conforming limit for ${year}.`, sources: [`${deps.config.baseUrl}/loan-limits`] };
  const source = history.sources[entry.source];
  return {
    text:
      `The baseline conforming loan limit for ${entry.year} is **${formatMoney(entry.baseline)}** for a one-unit home` +
      (entry.ceiling ? `, and the ceiling in high-cost areas is **${formatMoney(entry.ceiling)}**.` : '.') +
      ' Each county\'s limit falls between the two; ask about a county for its exact figure.',
    sources: [source?.url ?? `${deps.config.baseUrl}/loan-limits`, `${deps.config.baseUrl}/loan-limits`],
  };
}

function countyAnswer(result: LoanLimitsResult, county: CountyLimits, loanType: string | undefined, units: number): string {
  const year = result.year;
  const name = `${county.county}, ${county.state}`;
  if (loanType === 'usda') return `${county.usda?.note ?? 'USDA guaranteed loans have no loan limit.'} That applies in ${name} too.`;
  const conforming = limitOf(county.conforming, units);
  const fha = limitOf(county.fha, units);
  const lines: string[] = [];
  if (loanType === 'fha') {
    lines.push(fha !== undefined ? `The ${year} FHA loan limit for a ${unitLabel(units)} home in ${name} is **${formatMoney(fha)}**.` : `HUD's ${year} FHA limits are not loaded for ${name}.`);
  } else if (loanType === 'va') {
    lines.push(conforming !== undefined ? `The ${year} VA loan limit in ${name} is **${formatMoney(conforming)}** — VA uses the county's conforming limit.` : `The ${year} limits for ${name} are not loaded.`);
    if (county.va?.note) lines.push(county.va.note);
  } else {
    if (conforming !== undefined) {
      lines.push(
        `The ${year} conforming loan limit for a ${unitLabel(units)} home in ${name} is **${formatMoney(conforming)}**` +
          (county.conforming?.tier === 'high_cost' ? ' (a high-cost area).' : ' (the national baseline).'),
      );
    }
    if (loanType === undefined && fha !== undefined) lines.push(`The FHA limit there is **${formatMoney(fha)}**, and the VA limit equals the conforming limit.`);
  }
  return lines.join(' ');
}

export const answerLoanLimits: Composer = async ({ question, entities, deps }) => {
  const year = entities.year ?? deps.clock().getUTCFullYear();
  const units = entities.units ?? 1;
  if (entities.loanType === 'usda' && !entities.county) {
    return { text: USDA_NOTE, sources: [USDA_URL] };
  }
  if (!entities.state) {
    if (/\b(baseline|national|nationwide|country)\b/i.test(question) || !entities.county) return nationalAnswer(year, deps);
    return { text: `Which state is ${entities.county} County in? Loan limits are looked up by state and county.`, sources: [`${deps.config.baseUrl}/loan-limits`] };
  }
  let result: LoanLimitsResult;
  try {
    result = await deps.services.loanLimits.getLoanLimits({
      state: entities.state.code,
      ...(entities.county ? { county: entities.county } : {}),
      ...(entities.year ? { year: entities.year } : {}),
    });
  } catch (error) {
    return { text: `I can't look that up: ${toErrorResponse(error).body.error}`, sources: [`${deps.config.baseUrl}/loan-limits`] };
  }
  const sources = [...new Set([`${deps.config.baseUrl}/loan-limits`, ...result.sources.map((source) => source.source_url)])];
  const loanType = entities.loanType === 'conventional' || entities.loanType === 'jumbo' ? undefined : entities.loanType;
  const [first] = result.counties;
  if (entities.county && first && result.counties.length === 1) {
    return { text: [countyAnswer(result, first, loanType, units), ...result.notes.slice(0, 1)].join('\n\n'), sources };
  }
  // The whole state: its range.
  const values = result.counties.flatMap((county) => {
    const value = loanType === 'fha' ? limitOf(county.fha, units) : limitOf(county.conforming, units);
    return value === undefined ? [] : [{ county: county.county, value }];
  });
  if (values.length === 0) return { text: `No ${result.year} limits are loaded for ${entities.state.name}.`, sources };
  values.sort((a, b) => a.value - b.value);
  const low = values[0];
  const high = values.at(-1);
  const program = loanType === 'fha' ? 'FHA' : 'conforming';
  return {
    text:
      `${entities.state.name}'s ${result.year} ${program} limits for a ${unitLabel(units)} home range from **${formatMoney(low?.value ?? 0)}**` +
      (high && low && high.value !== low.value ? ` to **${formatMoney(high.value)}** (${high.county})` : '') +
      ` across ${result.counties.length} counties. Name a county for its exact figure.`,
    sources,
  };
};
