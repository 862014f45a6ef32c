// The parameters and response shapes of GET /statistics (spec 2.3 and 4.2, contract "Statistics"),
// shared by the route (validation + OpenAPI), the service and the MCP tool.
import { z } from 'zod';
import { CATEGORIES } from './types.ts';

const yearText = z
  .union([z.int(), z.string().trim().regex(/^\d{4}$/, { message: 'Give a four-digit year such as 2024.' })])
  .transform(Number)
  .pipe(z.int().min(1971, { message: 'Give a year from 1971 on.' }).max(2100, { message: 'Give a year no later than 2100.' }));

const allFlag = z
  .union([z.boolean(), z.enum(['true', 'false', '1', '0'], { message: 'Give all=true or all=false.' })])
  .transform((value) => value === true || value === 'true' || value === '1');

/** A category in any case (`Rates`, ` LENDERS `): the enum is what the schema documents. */
export const CategorySchema = z.preprocess((value) => (typeof value === 'string' ? value.trim().toLowerCase() : value), z.enum(CATEGORIES));

/**
 * The id descriptions give as an example: one without a year, so it stays in the catalogue as long
 * as its data is loaded (a test checks it is served).
 */
export const EXAMPLE_ID = 'pmms_30yr_latest';

export const StatisticsQuerySchema = z.object({
  category: CategorySchema.optional().describe(`One of: ${CATEGORIES.join(', ')} (any case). Without it, statistics of every category are candidates.`),
  id: z
    .string()
    .trim()
    .min(1)
    .max(100, { message: 'Statistic ids are at most 100 characters; list them with all=true.' })
    .optional()
    .describe(`A statistic id such as \`${EXAMPLE_ID}\`; list the ids with \`all=true\`.`),
  year: yearText.optional().describe('Only statistics whose data_year is this year (statistics whose source states no year never match).'),
  all: allFlag.optional().describe('`true` returns every matching statistic as `{stats: [...]}` instead of the featured one.'),
});
export type StatisticsQuery = z.output<typeof StatisticsQuerySchema>;
export type StatisticsQueryInput = z.input<typeof StatisticsQuerySchema>;

export const StatRecordSchema = z.object({
  id: z.string(),
  value: z.string().describe('Display string, e.g. "12.3%" or "$412,000"'),
  label: z.string(),
  headline: z.string().describe('One sentence stating the statistic'),
  category: z.enum(CATEGORIES),
  data_year: z
    .int()
    .nullable()
    .describe('The year the underlying data describes, as its source states it; null when the source states no year (data_year_note then says why). Never estimated.'),
  data_year_note: z
    .string()
    .nullable()
    .describe('When data_year is null: why, and what is known of the period instead (e.g. "2018 or a later year"). Null whenever data_year is set.'),
  population: z
    .string()
    .describe('What the figure is computed over (for a share, its denominator), with every filter applied and what it leaves out, e.g. loans with a loan-to-value ratio above 100.'),
  source_url: z.url(),
  as_of: z.iso
    .date()
    .describe(
      'YYYY-MM-DD: as-of date of the data the statistic was computed from (a rate\'s observation date, an input dataset\'s as-of); ' +
        'for a file that dates nothing but itself, the day it was published, which is not a date of the records.',
    ),
});

export const StatisticResponseSchema = z.object({ stat: StatRecordSchema });
export const StatisticsListResponseSchema = z.object({ stats: z.array(StatRecordSchema) });
export const StatisticsResponseSchema = z.union([StatisticResponseSchema, StatisticsListResponseSchema]);
