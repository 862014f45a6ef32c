// get_statistics: precomputed market statistics (originations, approval and denial rates, loan type
// shares, down payments, lenders, affordability) in seven categories, each with its data year (or
// why its source states none), its population and its source. The schemas are the statistics
// contract's, shared with GET /statistics; here `all` defaults to true, so a category or year
// lists every match.
import { defineTool, sourcesText } from '../tool-kit.ts';
import { flag } from '../../platform/contract/flags.ts';
import { integer } from '../../platform/contract/lenient.ts';
import { BadRequestError } from '../../platform/errors.ts';
import { PageSchema, fitPage, fitsPage, type Page } from '../result-budget.ts';
import { StatisticsAnswerSchema, StatisticsQuerySchema, type StatisticsAnswer, type StatRecord } from '../../statistics/contract.ts';

/** "60 statistics in 7 categories (affordability 8, …)": what the whole list holds. */
function summary(stats: readonly StatRecord[]): string {
  const byCategory = new Map<string, number>();
  for (const stat of stats) byCategory.set(stat.category, (byCategory.get(stat.category) ?? 0) + 1);
  const categories = [...byCategory.entries()].map(([category, count]) => `${category} ${count}`).join(', ');
  return `${stats.length} statistic${stats.length === 1 ? '' : 's'} in ${byCategory.size} categor${byCategory.size === 1 ? 'y' : 'ies'} (${categories}).`;
}

/** The answer as text: a summary of every match and where this page is in them, one line per statistic, the sources. */
export function statisticsAnswerText(answer: StatisticsAnswer, page?: { all: readonly StatRecord[]; position: Page }): string {
  const stats = answer.stats ?? (answer.stat ? [answer.stat] : []);
  if (stats.length === 0) return 'No statistics match; try another category or year.';
  const head = page
    ? [
        summary(page.all),
        `Statistics ${page.position.offset + 1}–${page.position.offset + page.position.count} below` +
          `${page.position.next_offset === null ? '' : `; the next with offset: ${page.position.next_offset}`}. Narrow with \`category\` or \`year\`; one in full with \`id\`.`,
        '',
      ]
    : [];
  return `${[...head, ...stats.map((stat) => `- ${stat.headline} [${stat.id}, ${stat.data_year}]`)].join('\n')}\n\n${sourcesText(answer.sources)}`;
}

const OFFSET_MAX = 10_000;

export const getStatisticsTool = defineTool({
  name: 'get_statistics',
  title: 'Market statistics',
  description: 'Market statistics: one by `id`, or every match of a category and/or year.',
  inputSchema: StatisticsQuerySchema.extend({
    all: flag().default(true).describe('true (default): every match as `stats`; false: one `stat`.'),
    offset: integer({ min: 0, max: OFFSET_MAX }).optional().describe('Page start (each page names the next).'),
  }),
  outputSchema: StatisticsAnswerSchema.extend({ page: PageSchema.optional() }),
  uses: ['statistics'],
  async run({ offset = 0, ...query }, { deps }) {
    const answer = await deps.services.statistics.answer(query);
    const all = answer.stats;
    if (!all) return { structured: answer, text: statisticsAnswerText(answer) };
    if (offset > 0 && offset >= all.length)
      throw new BadRequestError(`Invalid value for 'offset': ${offset}. ${all.length} statistics match: give 0 to ${all.length - 1}.`);
    const { rendered, page } = fitPage(
      all,
      offset,
      (stats, position) => {
        const urls = new Set(stats.map((stat) => stat.source_url));
        const sources = answer.sources.filter((source) => urls.has(source.url));
        const part = { ...answer, stats, sources: sources.length > 0 ? sources : answer.sources };
        return { structured: { ...part, page: position }, text: statisticsAnswerText(part, { all, position }) };
      },
      fitsPage,
    );
    // Every match fits: the whole answer, as the REST face gives it.
    if (page.offset === 0 && page.next_offset === null) return { structured: answer, text: statisticsAnswerText(answer) };
    return rendered;
  },
});
