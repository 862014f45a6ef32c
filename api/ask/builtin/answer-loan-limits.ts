// "What is the 2026 conforming limit in Los Angeles County?": the loan-limits service's figures for
// the county (or the state's range, or the national baseline), with sources and what each means.
import type { Composer, AnswerDraft } from './draft.ts';
import { formatMoney } from './draft.ts';
import { toErrorResponse } from '../../platform/errors.ts';
import { USDA_NOTE, USDA_URL } from '../../loan-limits/answer.ts';
import type { CountyLimits, LoanLimitsAnswer } from '../../loan-limits/contract.ts';
import { researchLine, researchPageUrl } from './research-citation.ts';

const unitLabel = (units: number) => (units === 1 ? 'one-unit' : `${units}-unit`);

function limitOf(program: CountyLimits['conforming'], units: number): number | undefined {
  return program?.limits?.[String(units) as '1' | '2' | '3' | '4'];
}

function nationalAnswer(year: number, asked: boolean, fha: boolean, deps: Parameters<Composer>[0]['deps']): AnswerDraft {
  const history = deps.services.loanLimits.nationalHistory();
  const historyUrl = `${deps.config.baseUrl}/api/v1/loan-limits/history`;
  const entries = fha ? history.fha : history.conforming.filter((candidate) => candidate.baseline !== null);
  // Without a year asked, the latest published year up to this one answers, and says so.
  const entry =
    entries.find((candidate) => candidate.year === year) ??
    (asked ? undefined : entries.filter((candidate) => candidate.year <= year).at(-1));
  if (!entry) {
    return {
      text: `I don't have the national ${fha ? 'FHA' : 'conforming'} limit for ${year}. The national figures I hold are listed at ${historyUrl}.`,
      sources: [historyUrl],
    };
  }
  const label = entry.year === year ? '' : `No ${year} figure is published yet; the latest is ${entry.year}. `;
  const source = history.sources[entry.source]?.url ?? historyUrl;
  if ('floor' in entry) {
    return {
      text:
        `${label}The national FHA loan limits for ${entry.year} are a floor of **${formatMoney(entry.floor)}** and a ceiling of ` +
        `**${formatMoney(entry.ceiling)}** for a one-unit home. Each county's FHA limit falls between the two; ask about a county for its exact figure.`,
      sources: [source, historyUrl],
    };
  }
  return {
    text:
      `${label}The baseline conforming loan limit for ${entry.year} is **${formatMoney(entry.baseline ?? 0)}** for a one-unit home` +
      (entry.ceiling ? `, and the ceiling in high-cost areas is **${formatMoney(entry.ceiling)}**.` : '.') +
      " Each county's limit falls between the two; ask about a county for its exact figure.",
    sources: [source, historyUrl],
  };
}

function countyAnswer(result: LoanLimitsAnswer, county: CountyLimits, loanType: string | undefined, units: number): string {
  // Each program's own year: without a year asked, FHA may be a year behind conforming.
  const year = county.conforming?.year ?? result.year;
  const fhaYear = county.fha?.year ?? result.year;
  const name = `${county.county}, ${county.state}`;
  if (loanType === 'usda') return `${county.usda?.note ?? 'USDA guaranteed loans have no loan limit.'} That applies in ${name} too.`;
  const conforming = limitOf(county.conforming, units);
  const fha = limitOf(county.fha, units);
  const lines: string[] = [];
  if (loanType === 'fha') {
    lines.push(
      fha !== undefined
        ? `The ${fhaYear} FHA loan limit for a ${unitLabel(units)} home in ${name} is **${formatMoney(fha)}**.`
        : `HUD's ${fhaYear} FHA limits are not loaded for ${name}.`,
    );
  } else if (loanType === 'va') {
    lines.push(
      conforming !== undefined
        ? `The ${year} VA loan limit in ${name} is **${formatMoney(conforming)}** — VA uses the county's conforming limit.`
        : `The ${year} limits for ${name} are not loaded.`,
    );
    if (county.va?.note) lines.push(county.va.note);
  } else {
    if (conforming !== undefined) {
      lines.push(
        `The ${year} conforming loan limit for a ${unitLabel(units)} home in ${name} is **${formatMoney(conforming)}**` +
          (county.conforming?.tier === 'high_cost' ? ' (a high-cost area).' : ' (the national baseline).'),
      );
    }
    if (loanType === undefined && fha !== undefined) {
      lines.push(
        `The ${fhaYear === year ? '' : `${fhaYear} `}FHA limit there is **${formatMoney(fha)}**, and the VA limit equals the conforming limit.`,
      );
    }
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
    if (/\b(baseline|national|nationwide|country)\b/i.test(question) || !entities.county) {
      return nationalAnswer(year, entities.year !== undefined, entities.loanType === 'fha', deps);
    }
    return {
      text: `Which state is ${entities.county} County in? Loan limits are looked up by state and county.`,
      sources: [`${deps.config.baseUrl}/loan-limits`],
    };
  }
  let result: LoanLimitsAnswer;
  try {
    result = await deps.services.loanLimits.getLoanLimits({
      state: entities.state.code,
      ...(entities.county ? { county: entities.county } : {}),
      ...(entities.year ? { year: entities.year } : {}),
    });
  } catch (error) {
    return { text: `I can't look that up: ${toErrorResponse(error).body.error}`, sources: [`${deps.config.baseUrl}/loan-limits`] };
  }
  const sources = [...new Set([`${deps.config.baseUrl}/loan-limits`, ...result.sources.map((source) => source.url)])];
  const loanType = entities.loanType === 'conventional' || entities.loanType === 'jumbo' ? undefined : entities.loanType;
  const [first] = result.counties;
  if (entities.county && first && result.counties.length === 1) {
    // The effective-year note, and any note saying a program answers with its latest loaded year.
    const notes = result.notes.filter((note, index) => index === 0 || /latest (published|loaded)/.test(note));
    const page = await researchPageUrl(deps, { fips: first.fips });
    return {
      text: [
        countyAnswer(result, first, loanType, units),
        ...notes,
        ...(page ? [researchLine(page, `${first.county}, ${first.state}`)] : []),
      ].join('\n\n'),
      sources: page ? [...sources, page] : sources,
      versions: result.dataset_versions,
    };
  }
  // The whole state: its range.
  const values = result.counties.flatMap((county) => {
    const value = loanType === 'fha' ? limitOf(county.fha, units) : limitOf(county.conforming, units);
    return value === undefined ? [] : [{ county: county.county, value }];
  });
  if (values.length === 0)
    return { text: `No ${result.year} limits are loaded for ${entities.state.name}.`, sources, versions: result.dataset_versions };
  values.sort((a, b) => a.value - b.value);
  const low = values[0];
  const high = values.at(-1);
  const program = loanType === 'fha' ? 'FHA' : 'conforming';
  const programYear = (loanType === 'fha' ? result.years.fha : result.years.conforming) ?? result.year;
  const page = await researchPageUrl(deps, { state: entities.state.code });
  return {
    text:
      `${entities.state.name}'s ${programYear} ${program} limits for a ${unitLabel(units)} home range from **${formatMoney(low?.value ?? 0)}**` +
      (high && low && high.value !== low.value ? ` to **${formatMoney(high.value)}** (${high.county})` : '') +
      ` across ${result.counties.length} counties. Name a county for its exact figure.` +
      (page ? `\n\n${researchLine(page, entities.state.name)}` : ''),
    sources: page ? [...sources, page] : sources,
    versions: result.dataset_versions,
  };
};
