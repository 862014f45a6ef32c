// "What rate can I get in Texas with a 760 score and 20% down?": the rates service's record for the
// state and tiers the question names, beside the weekly survey and the daily benchmark, with dates.
import type { Composer } from './draft.ts';
import { formatDate, NOT_ADVICE } from './draft.ts';
import type { DetailedRecord } from '../../rates/compute.ts';
import { toErrorResponse } from '../../platform/http/errors.ts';

const FORECAST = /\b(will|going to|forecast|predict(ion)?|next (year|month|week)|expect(ed)?|outlook)\b/i;

const percent = (value: number) => `${value.toFixed(value * 1000 % 10 === 0 ? 2 : 3)}%`;

export const answerRates: Composer = async ({ question, entities, deps }) => {
  const forecast = FORECAST.test(question);
  const notes: string[] = [];
  if (entities.creditScore !== undefined && entities.ficoTier === undefined) {
    notes.push(`The rate data covers credit scores of 680 and above, so I can't give a rate for a ${entities.creditScore} score; the figures below are for the top tier.`);
  }
  const params: Record<string, string> = { format: 'detailed' };
  if (entities.state) params.state = entities.state.code;
  if (entities.ficoTier !== undefined) params.fico = String(entities.ficoTier);
  if (entities.ltvTier !== undefined) params.ltv = String(entities.ltvTier);
  if (entities.loanType) params.product_type = entities.loanType;
  if (entities.loanTerm !== undefined) params.loan_term = String(entities.loanTerm);

  let record: DetailedRecord;
  let sources: { url: string }[];
  try {
    const result = await deps.services.rates.getRates(params);
    record = result.record as DetailedRecord;
    sources = result.sources;
  } catch (error) {
    const { body } = toErrorResponse(error);
    return {
      text: `I can't give that rate: ${body.error} The weekly national survey is on ${deps.config.baseUrl}/rates.`,
      sources: [`${deps.config.baseUrl}/rates`],
    };
  }
  const labels = record.parameters;
  const scope = `${labels.loan_term ?? '30-year'} ${labels.product_type ?? 'Conventional'} loan${entities.state ? ` in ${entities.state.name}` : ''}, credit tier ${labels.fico_tier ?? ''}, ${labels.ltv_tier ?? ''} loan-to-value`;
  const lines = [
    forecast ? "I can't forecast future mortgage rates — nobody can reliably — but here is where they stand now." : '',
    ...notes,
    `For a ${scope}: **${percent(record.rate)}** as of ${formatDate(record.last_updated)} (${record.source}).`,
    record.loan_term !== 30 && record.rate_30yr !== null
      ? `The 30-year rate for the same profile is **${percent(record.rate_30yr)}** as of ${formatDate(record.rate_30yr_last_updated)}.`
      : '',
    record.rate_change_line ? `${record.rate_change_line}.`.replace(/\.\.$/, '.') : '',
    record.survey_rate !== null ? `The national weekly survey (Freddie Mac PMMS, 30-year fixed) was **${percent(record.survey_rate)}** on ${formatDate(record.survey_last_updated)}.` : '',
    record.index_a_rate !== null ? `The daily market benchmark (Optimal Blue 30-year conforming) was **${percent(record.index_a_rate)}** on ${formatDate(record.index_a_last_updated)}.` : '',
    record.disclaimer ?? '',
    NOT_ADVICE,
  ];
  return { text: lines.filter(Boolean).join('\n\n'), sources: [`${deps.config.baseUrl}/rates`, ...sources.map((source) => source.url)] };
};
