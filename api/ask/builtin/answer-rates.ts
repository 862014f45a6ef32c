// "What rate can I get in Texas with a 760 score and 20% down?": the rates service's record for the
// state and tiers the question names, beside the weekly survey and the daily benchmark, with dates.
import type { Composer } from './draft.ts';
import { formatDate, NOT_ADVICE } from './draft.ts';
import {
  isDetailedRecord,
  LOWEST_TIERED_SCORE,
  RATE_KIND_TEXT,
  type DetailedRateRecord,
  type RatesQueryInput,
} from '../../rates/contract.ts';
import { toErrorResponse } from '../../platform/errors.ts';
import { EVERY_SCORE_PRODUCTS } from '../../rates/params.ts';
import { freshnessText } from '../../freshness/assess.ts';

const FORECAST = /\b(will|going to|forecast|predict(ion)?|next (year|month|week)|expect(ed)?|outlook)\b/i;

const percent = (value: number) => `${value.toFixed((value * 1000) % 10 === 0 ? 2 : 3)}%`;

export const answerRates: Composer = async ({ question, entities, deps }) => {
  const forecast = FORECAST.test(question);
  const notes: string[] = [];
  // A score and a down payment the question states go to the service as given: it reads each as its
  // tier and says so. A score inferred from words ("good credit") goes as its tier, said by the labels.
  const params: RatesQueryInput = { format: 'detailed' };
  const everyScore = entities.loanType !== undefined && (EVERY_SCORE_PRODUCTS as readonly string[]).includes(entities.loanType);
  if (entities.creditScore !== undefined && entities.creditScore < LOWEST_TIERED_SCORE && !everyScore) {
    notes.push(
      `The conventional rate data covers credit scores of ${LOWEST_TIERED_SCORE} and above, so I can't give one for a ${entities.creditScore} score ` +
        '(the FHA, VA and USDA indices cover every score); the figures below are for the top tier.',
    );
  } else if (entities.creditScore !== undefined) {
    params.fico = question.includes(String(entities.creditScore)) ? entities.creditScore : entities.ficoTier;
  }
  if (entities.downPaymentPercent !== undefined && entities.downPaymentPercent <= 97) params.down_payment = entities.downPaymentPercent;
  else if (entities.ltvTier !== undefined) params.ltv = entities.ltvTier;
  if (entities.state) params.state = entities.state.code;
  if (entities.loanType) params.product_type = entities.loanType;
  if (entities.loanTerm !== undefined) params.loan_term = entities.loanTerm;

  let record: DetailedRateRecord;
  let sources: { url: string }[];
  try {
    const result = await deps.services.rates.getRates(params);
    if (!isDetailedRecord(result.record)) throw new Error('rates: a detailed request produced a simple record');
    record = result.record;
    sources = result.sources;
  } catch (error) {
    const { body } = toErrorResponse(error);
    return {
      text: `I can't give that rate: ${body.error} The weekly national survey is on ${deps.config.baseUrl}/rates.`,
      sources: [`${deps.config.baseUrl}/rates`],
    };
  }
  const labels = record.parameters;
  // A credit tier or loan-to-value the question did not give is not named as if it had: the figure is the benchmark.
  const tiered = params.fico !== undefined || params.down_payment !== undefined || params.ltv !== undefined;
  const where = entities.state ? ` in ${entities.state.name}` : '';
  const named = [
    params.fico !== undefined ? `credit tier ${labels.fico_tier}` : undefined,
    params.down_payment !== undefined || params.ltv !== undefined ? `${labels.ltv_tier} loan-to-value` : undefined,
  ].filter(Boolean);
  const scope = tiered
    ? `${labels.loan_term} ${labels.product_type} loan${where}, ${named.join(', ')}`
    : `${labels.loan_term} ${labels.product_type} loan${where}, the benchmark with no credit score or down payment named (name them for a rate that reflects them)`;
  const lines = [
    forecast ? "I can't forecast future mortgage rates — nobody can reliably — but here is where they stand now." : '',
    ...notes,
    ...record.parameter_notes,
    `For a ${scope}: **${percent(record.rate)}** as of ${formatDate(record.last_updated)} (${record.source}). ` +
      RATE_KIND_TEXT[record.rate_kind],
    record.loan_term !== 30 && record.rate_30yr !== null
      ? `The 30-year rate for the same profile is **${percent(record.rate_30yr)}** as of ${formatDate(record.rate_30yr_last_updated)}.`
      : '',
    record.rate_change_line ? `${record.rate_change_line}.`.replace(/\.\.$/, '.') : '',
    record.survey_rate !== null
      ? `The national weekly survey (Freddie Mac PMMS, 30-year fixed) was **${percent(record.survey_rate)}** on ${formatDate(record.survey_last_updated)}.`
      : '',
    record.index_a_rate !== null
      ? `The daily market benchmark (Optimal Blue 30-year conforming) was **${percent(record.index_a_rate)}** on ${formatDate(record.index_a_last_updated)}.`
      : '',
    freshnessText(record.freshness),
    // The service's disclaimer names the profile it priced (a state, a tier): only when the question named one.
    tiered || entities.state ? (record.disclaimer ?? '') : '',
    NOT_ADVICE,
  ];
  return {
    text: lines.filter(Boolean).join('\n\n'),
    sources: [`${deps.config.baseUrl}/rates`, ...sources.map((source) => source.url)],
    versions: record.dataset_versions,
  };
};
