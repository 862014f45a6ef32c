// The statistics' contract: what a statistics request accepts and answers, declared once. GET
// /statistics, the MCP tool get_statistics, /ask and the service's types derive from it.
import { z } from 'zod';
import { choice, choiceKey, integer, lenient, textJson, trimWithin } from '../platform/contract/lenient.ts';
import { flag } from '../platform/contract/flags.ts';
import { valueMessage } from '../platform/contract/messages.ts';
import { SourceSchema } from '../platform/contract/sources.ts';
import { datasetAsOf, DatasetVersionsSchema } from '../platform/contract/versions.ts';

export const CATEGORIES = [
  'market_overview',
  'rates',
  'loan_types',
  'down_payment',
  'borrower_profile',
  'lenders',
  'affordability',
] as const;
export type Category = (typeof CATEGORIES)[number];

/**
 * The id descriptions give as an example: one without a year, so it stays in the catalogue as long
 * as its data is loaded (a test checks it is served).
 */
export const EXAMPLE_ID = 'pmms_30yr_latest';

export const STAT_ID_MAX = 100;
export const STAT_YEAR_MIN = 1971;
export const STAT_YEAR_MAX = 2100;

const ID_HINT = `Give a statistic id of at most ${STAT_ID_MAX} characters, e.g. "${EXAMPLE_ID}"; list the ids with all=true.`;
type Issue = { path?: PropertyKey[] | undefined; input?: unknown };

/** An id in any case, with spaces or hyphens for underscores: "PMMS 30yr latest" → `pmms_30yr_latest` (at most 100 characters as given). */
function statId() {
  const error = (issue: Issue) => valueMessage(issue, ID_HINT);
  return lenient(trimWithin(STAT_ID_MAX, choiceKey), z.string({ error }).min(1, { error }).max(STAT_ID_MAX, { error }), {
    json: textJson(1, STAT_ID_MAX),
  });
}

export const StatisticsQuerySchema = z.object({
  category: choice(CATEGORIES).optional().describe('Only this category, e.g. loan_types.'),
  id: statId().optional().describe(`One statistic, e.g. "${EXAMPLE_ID}".`),
  year: integer({
    min: STAT_YEAR_MIN,
    max: STAT_YEAR_MAX,
    hint: `Give a four-digit year from ${STAT_YEAR_MIN} to ${STAT_YEAR_MAX}, e.g. 2025.`,
  })
    .optional()
    .describe('Only statistics of this data_year.'),
  all: flag()
    .optional()
    .describe(
      'true (or "true", "1", "yes"): every matching statistic as `stats`; false (the REST default): one statistic as `stat`, the one with `id` or else the featured statistic of the day.',
    ),
  as_of: datasetAsOf(),
});
/** A parsed request: what every face hands the service. */
export type StatisticsQuery = z.output<typeof StatisticsQuerySchema>;

export const StatRecordSchema = z.object({
  id: z.string().describe('Stable identifier, e.g. "pmms_30yr_latest"; an id carries a year where the figure is of one year.'),
  value: z.string().describe('Display string, e.g. "12.3%" or "$412,000"'),
  label: z.string(),
  headline: z.string().describe('One sentence stating the statistic'),
  category: z.enum(CATEGORIES),
  data_year: z
    .int()
    .describe(
      'The year the underlying data describes, as its source states it (a statistic whose source states no year is not in the catalogue). Never estimated.',
    ),
  population: z
    .string()
    .describe(
      "What the figure is computed over (for a share, its denominator), with every filter applied and what it leaves out, e.g. records without the applicant's age.",
    ),
  source_url: z.url(),
  as_of: z.iso
    .date()
    .describe(
      "YYYY-MM-DD: as-of date of the data the statistic was computed from (a rate's observation date, an input dataset's as-of); " +
        'for a file that dates nothing but itself, the day it was published, which is not a date of the records.',
    ),
});
export type StatRecord = z.infer<typeof StatRecordSchema>;

/** One answer on every face: `stat` (one statistic) or `stats` (all=true), never both, and their sources. */
export const StatisticsAnswerSchema = z.object({
  stat: StatRecordSchema.optional().describe(
    'Without all=true: the statistic with `id`, or else the featured statistic of the day (UTC) among the matches.',
  ),
  stats: z.array(StatRecordSchema).optional().describe('With all=true: every matching statistic, by category then id.'),
  sources: z
    .array(SourceSchema)
    .describe('Where the statistics returned come from, once per source, with the as-of date of the first statistic drawn from it.'),
  dataset_versions: DatasetVersionsSchema,
});
export type StatisticsAnswer = z.infer<typeof StatisticsAnswerSchema>;
