// get_statistics: precomputed market statistics (originations, approval and denial rates, loan type
// shares, loan sizes, lenders, affordability) in seven categories, each with its data year (or why
// its source states none), its population and its source. Same record schema as GET /statistics.
import { z } from 'zod';
import { sourceSchema, sourcesText, type ToolContext } from '../tool-kit.ts';
import { EXAMPLE_ID, StatRecordSchema } from '../../statistics/params.ts';
import { CATEGORIES, type StatRecord } from '../../statistics/types.ts';

const yearText = (stat: StatRecord) => (stat.data_year === null ? 'year not stated by the source' : String(stat.data_year));

export const getStatisticsTool = {
  name: 'get_statistics',
  title: 'Mortgage market statistics',
  description:
    'Precomputed mortgage market statistics from HMDA data (originations, approval and denial rates, FHA/VA/USDA ' +
    'shares, borrower profiles, top lenders), loan limits and rates (affordability), in seven categories: ' +
    `${CATEGORIES.join(', ')}. Each has a display value, a headline sentence, its data year (null when the source ` +
    'states none, with data_year_note saying why), its population (what it is computed over, filters included) and ' +
    `its source. Give an id (e.g. "${EXAMPLE_ID}") for one statistic, or a category (and year) for all of that category.`,
  input: {
    // A plain string here (the service validates it, in any case, and names the categories when it
    // is none of them): a case-folding schema is a transform, which tool-calling clients that turn
    // zod into JSON Schema for a model (LangChain in /ask) cannot represent.
    category: z.string().min(1).max(40).optional().describe(`One of ${CATEGORIES.join(', ')} (any case).`),
    id: z.string().min(1).max(100).optional().describe(`One statistic by id, e.g. "${EXAMPLE_ID}" (ids are listed in results).`),
    year: z.number().int().min(1990).max(2100).optional().describe('Only statistics whose data year is this year.'),
  },
  output: {
    stats: z.array(StatRecordSchema),
    sources: z.array(sourceSchema),
  },
  async run(args: { category?: string | undefined; id?: string | undefined; year?: number | undefined }, { deps }: ToolContext) {
    const answer = await deps.services.statistics.get({
      ...(args.category ? { category: args.category } : {}),
      ...(args.id ? { id: args.id } : {}),
      ...(args.year ? { year: String(args.year) } : {}),
      ...(args.id ? {} : { all: 'true' }),
    });
    const stats = 'stats' in answer ? answer.stats : [answer.stat];
    const sources = [...new Map(stats.map((stat) => [stat.source_url, { url: stat.source_url, as_of: stat.as_of }])).values()];
    const text =
      stats.length === 0
        ? 'No statistics match; try another category or year.'
        : stats.map((stat) => `- ${stat.headline} [${stat.id}, ${yearText(stat)}]`).join('\n') + `\n\n${sourcesText(sources)}`;
    return { structured: { stats, sources }, text };
  },
};
