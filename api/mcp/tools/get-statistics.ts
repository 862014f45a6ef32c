// get_statistics: precomputed market statistics (originations, approval and denial rates, loan type
// shares, down payments, lenders, affordability) in seven categories, each with its data year (or
// why its source states none), its population and its source. The schemas are the statistics
// contract's, shared with GET /statistics; here `all` defaults to true, so a category or year
// lists every match.
import { defineTool, sourcesText } from '../tool-kit.ts';
import { flag } from '../../platform/contract/flags.ts';
import {
  CATEGORIES,
  EXAMPLE_ID,
  EXAMPLE_OTHER_ID,
  StatisticsAnswerSchema,
  StatisticsQuerySchema,
  type StatisticsAnswer,
  type StatRecord,
} from '../../statistics/contract.ts';
import { PINNED_TOOL_NOTE } from '../../platform/contract/versions.ts';

const yearText = (stat: StatRecord) => (stat.data_year === null ? 'year not stated by the source' : String(stat.data_year));

export function statisticsAnswerText(answer: StatisticsAnswer): string {
  const stats = answer.stats ?? (answer.stat ? [answer.stat] : []);
  if (stats.length === 0) return 'No statistics match; try another category or year.';
  return `${stats.map((stat) => `- ${stat.headline} [${stat.id}, ${yearText(stat)}]`).join('\n')}\n\n${sourcesText(answer.sources)}`;
}

export const getStatisticsTool = defineTool({
  name: 'get_statistics',
  title: 'Mortgage market statistics',
  description:
    'Precomputed mortgage market statistics from HMDA data (originations, approval and denial rates, FHA/VA/USDA ' +
    'shares, borrower profiles, top lenders), loan limits and rates (affordability), in seven categories: ' +
    `${CATEGORIES.join(', ')}. Each has a display value, a headline sentence, its data year (null when the source ` +
    'states none, with data_year_note saying why), its population (what it is computed over, filters included) and ' +
    `its source. Give an id (e.g. "${EXAMPLE_ID}" or "${EXAMPLE_OTHER_ID}") for one statistic, or a category in any case ` +
    '(e.g. "Loan Types") and/or a year (a number or numeric text, e.g. 2025) for every match; all=false gives the featured statistic of the day instead.' +
    PINNED_TOOL_NOTE,
  inputSchema: StatisticsQuerySchema.extend({
    all: flag()
      .default(true)
      .describe('true (the default here): every matching statistic as `stats`; false: one statistic as `stat`, the one with `id` or else the featured statistic of the day.'),
  }),
  outputSchema: StatisticsAnswerSchema,
  async run(args, { deps }) {
    const answer = await deps.services.statistics.answer(args);
    return { structured: answer, text: statisticsAnswerText(answer) };
  },
});
