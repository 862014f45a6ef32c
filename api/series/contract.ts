// The series contract: every series this service holds, over time, declared once. GET /series (the
// catalogue), GET /series/{id}, the MCP resource, /ask and the site's charts derive from it.
import { z } from 'zod';
import { choice, integer, lenient, text, textForms } from '../platform/contract/lenient.ts';
import { stateOrTerritoryCode } from '../platform/contract/places.ts';
import { SourceSchema } from '../platform/contract/sources.ts';
import { DatasetVersionsSchema } from '../platform/contract/versions.ts';
import { valueMessage } from '../platform/contract/messages.ts';
import { FilerRankingSchema, NamedCodesSchema } from '../catalogue/contract.ts';

export const FAMILY_IDS = [
  'pmms',
  'optimal-blue',
  'nmdb',
  'loan-limits-national',
  'loan-limits-conforming',
  'loan-limits-fha',
  'income-limits',
  'hmda',
  'hmda-county',
  'population',
] as const;
export type FamilyId = (typeof FAMILY_IDS)[number];

export const FREQUENCIES = ['daily', 'weekly', 'monthly', 'quarterly', 'annual'] as const;
export type Frequency = (typeof FREQUENCIES)[number];
export const REQUESTED_FREQUENCIES = ['native', ...FREQUENCIES] as const;
export type RequestedFrequency = (typeof REQUESTED_FREQUENCIES)[number];
export const FORMATS = ['json', 'csv'] as const;

export const ID_SYNTAX =
  'Series ids: `pmms/30-year`, `pmms/15-year`, `pmms/5-1-arm` (Freddie Mac, weekly; the FRED id, e.g. `MORTGAGE30US`, works too); ' +
  '`optimal-blue/<product>-<term>-year` for the Optimal Blue indices (`conforming-30-year`, `fha-30-year`, `va-30-year`, `jumbo-30-year`, ' +
  '`conforming-15-year`, `usda-30-year`) and `optimal-blue/conforming-30-year/ltv-le-80|ltv-gt-80/fico-ge-740|fico-720-739|fico-700-719|fico-680-699|fico-lt-680` ' +
  "for its FICO × LTV grid (daily); `nmdb/<state>/<measure>` or `nmdb/<state>/<market>/<measure>` for FHFA's rates on outstanding mortgages " +
  '(quarterly; market `enterprise`, `government` or `other_conventional`, default all mortgages; measure `ave_intrate`, `pct_intrate_lt_3`, ' +
  '`pct_intrate_3_4`, `pct_intrate_4_5`, `pct_intrate_5_6`, `pct_intrate_ge_6`, each weighted by loans, or by balance with `_dollar` appended); ' +
  '`loan-limits/conforming/<county FIPS>` and `loan-limits/fha/<county FIPS>` (one-unit county limits since 2018, annual; `/2-unit`, `/3-unit`, `/4-unit` appended for larger homes); ' +
  '`loan-limits/conforming/baseline`, `loan-limits/conforming/ceiling` (since 1972 and 2008), `loan-limits/fha/floor`, `loan-limits/fha/ceiling` (since 2008); ' +
  "`income-limits/median/<county FIPS>` (HUD's area median family income) and `income-limits/<extremely-low|very-low|low>/<county FIPS>/<1-8>-person` (HUD's income limits by household size; annual by fiscal year, FY2018–FY2022); " +
  '`hmda/<US, state or 5-digit county FIPS>/<measure>` (annual): `records`, `applications`, `originations`, `denials`, `denial_rate`, `approval_rate`, ' +
  'and for every code the HMDA files count a count `<name>_records` and its share of all records `<name>_share`: loan type (`conventional`, `fha`, `va`, `usda`), ' +
  'purpose (`purchase`, `home_improvement`, `refinance`, `cash_out_refinance`), action taken (`withdrawn`, `purchased_loans`…), lien, units, construction, ' +
  'loan product, dwelling, sex (`female`…), race (`asian`…), ethnicity (`hispanic`…), age (`age_under_25`…); the catalogue of measures names them all (`query`); ' +
  '`population/<state or county FIPS>` (residents, as the HMDA Data Browser counts them). ' +
  'Ids are read in any case. The slashes may be written as they are or encoded (%2F). GET /series lists every id.';

/** A year, a month or a day: `2018`, `2022-03`, `2022-03-17`. */
function dateBound(name: 'from' | 'to') {
  const hint =
    name === 'from'
      ? 'Give a year (2018), a month (2022-03) or a day (2022-03-17); a year or month starts at its first day.'
      : 'Give a year (2024), a month (2022-03) or a day (2022-03-17); a year or month ends at its last day.';
  const error = (issue: { path?: PropertyKey[] | undefined; input?: unknown }) => valueMessage(issue, hint);
  const trim = (value: unknown) => (typeof value === 'string' ? value.trim() : typeof value === 'number' ? String(value) : value);
  return lenient(
    trim,
    z
      .string({ error })
      .regex(/^(19|20|21)\d\d(-(0[1-9]|1[0-2])(-(0[1-9]|[12]\d|3[01]))?)?$/, { error })
      // Runs even when the pattern failed (zod reports every check), so it must not throw on any text.
      .refine(
        (value) => {
          if (value.length < 10) return true;
          const time = Date.parse(`${value}T00:00:00Z`);
          return !Number.isNaN(time) && new Date(time).toISOString().startsWith(value);
        },
        { error },
      ),
    { json: { anyOf: [textForms(DATE_BOUND_TEXT), { type: 'integer', minimum: 1900, maximum: 2199 }] }, text: DATE_BOUND_TEXT },
  );
}

/** Leap years from 1900 to 2199 (1900 and 2100 are not): the years divisible by 4 but not 100, and 2000. */
const LEAP_YEAR = '(?:(?:19|2[01])(?:0[48]|[2468][048]|[13579][26])|2000)';
/**
 * What `dateBound` accepts as text: a year 1900-2199, a month of one, or a real day of one (any
 * month's 1st to 28th, the 29th and 30th but in February, the 31st of the long months, February 29th
 * of leap years).
 */
export const DATE_BOUND_TEXT =
  '(?:(?:19|2[01])\\d\\d(?:-(?:(?:0[1-9]|1[0-2])(?:-(?:0[1-9]|1\\d|2[0-8]))?|(?:0[13-9]|1[0-2])-(?:29|30)|(?:0[13578]|1[02])-31))?|' +
  `${LEAP_YEAR}-02-29)`;

export const SeriesIdSchema = text({ max: 120, example: 'pmms/30-year' }).describe(ID_SYNTAX);

export const SeriesPathSchema = z.object({ id: SeriesIdSchema });

export const SeriesQuerySchema = z.object({
  from: dateBound('from')
    .optional()
    .describe('First date, inclusive: a year, month or day (e.g. 2016-10-08). Default: the first observation.'),
  to: dateBound('to').optional().describe('Last date, inclusive: a year, month or day (e.g. 2026-10-08). Default: the latest observation.'),
  frequency: choice(REQUESTED_FREQUENCIES, {
    aliases: {
      month: 'monthly',
      year: 'annual',
      yearly: 'annual',
      annually: 'annual',
      quarter: 'quarterly',
      week: 'weekly',
      day: 'daily',
      as_published: 'native',
    },
  })
    .default('native')
    .describe(
      '`native` (default: as published) or a coarser frequency: weekly and daily series average to `monthly`, `quarterly` or `annual`, ' +
        'quarterly ones to `annual`. Each period is the mean of the observations dated in it (whole periods that overlap the range); ' +
        'a finer frequency than the series has is a 400.',
    ),
  format: choice(FORMATS)
    .default('json')
    .describe('`json` (default) or `csv` (one row per observation, with the series id, source and as-of on every row).'),
});
export type SeriesQuery = z.output<typeof SeriesQuerySchema>;
export type SeriesQueryInput = z.input<typeof SeriesQuerySchema>;

export const CatalogueQuerySchema = z.object({
  family: choice([...FAMILY_IDS, 'loan-limits'] as const, {
    aliases: { optimal_blue: 'optimal-blue', ob: 'optimal-blue', freddie_mac: 'pmms', fhfa_nmdb: 'nmdb' },
  })
    .optional()
    .describe(`Only one family: ${FAMILY_IDS.join(', ')}, or loan-limits for all three loan-limit families.`),
  state: stateOrTerritoryCode()
    .optional()
    .describe('Only series of one state (code or name), e.g. "CA": NMDB, county loan limits and HMDA.'),
  query: text({ max: 100, example: 'Los Angeles' })
    .optional()
    .describe(
      'Words for a measure and its places, read by the catalogue of measures, best match first (not every word must match), e.g. "denial rate Harris County" or "Los Angeles".',
    ),
  limit: integer({ min: 1, max: 1000 }).default(100).describe('Series per page, 1 to 1000; default 100.'),
  offset: integer({ min: 0, max: 1_000_000 }).default(0).describe('Series to skip (paging); default 0.'),
});
export type CatalogueQuery = z.output<typeof CatalogueQuerySchema>;

export const ObservationSchema = z.object({
  date: z
    .string()
    .describe(
      "YYYY-MM-DD: the publisher's date (a quarter's last day for NMDB, January 1 for annual series); for an average, the first day of its period.",
    ),
  period: z.string().optional().describe('The period a value covers when it is not one day: "2025Q3", "2026", "2022-03".'),
  value: z.number().nullable().describe("In the series' units; null where the publisher suppressed the figure."),
  count: z.int().optional().describe('Averages only: how many observations were averaged.'),
  computed: z
    .literal(true)
    .optional()
    .describe(
      "Present when the value is computed here, not published (the 2026 FHA floor from FHFA's baseline); the notes give the method.",
    ),
});
export type Observation = z.infer<typeof ObservationSchema>;

export const SeriesInfoSchema = z.object({
  id: z.string().describe('Canonical id, e.g. "pmms/30-year".'),
  title: z.string(),
  family: z.enum(FAMILY_IDS),
  publisher: z.string(),
  frequency: z.enum(FREQUENCIES).describe('As published.'),
  units: z.string(),
  first_date: z.string().nullable(),
  last_date: z.string().nullable(),
  observation_count: z.int().describe('Observations held.'),
  source_url: z.string().describe("The publisher's page or file the values come from."),
  as_of: z
    .string()
    .nullable()
    .describe("YYYY-MM-DD: the publisher's date the series is current as of (its latest observation, or the vintage of its file)."),
  url: z.string().describe('This series on this API.'),
  aliases: z.array(z.string()).optional().describe('Other ids that name this series (e.g. its FRED id).'),
});
export type SeriesInfo = z.infer<typeof SeriesInfoSchema>;

export const AggregationSchema = z.object({
  from_frequency: z.enum(FREQUENCIES),
  to_frequency: z.enum(FREQUENCIES),
  method: z.string().describe('How each value was computed, in words.'),
});

export const SeriesAnswerSchema = SeriesInfoSchema.extend({
  frequency: z.enum(FREQUENCIES).describe('Of the observations returned.'),
  native_frequency: z.enum(FREQUENCIES).describe('As published.'),
  aggregation: AggregationSchema.nullable().describe('null when the observations are as published.'),
  range: z
    .object({ from: z.string().nullable(), to: z.string().nullable() })
    .describe('The range asked for (YYYY-MM-DD), null where not given.'),
  count: z.int().describe('Observations returned.'),
  observations: z.array(ObservationSchema).describe('Oldest first.'),
  notes: z.array(z.string()),
  source: SourceSchema,
  sources: z.array(SourceSchema),
  csv_url: z.string().describe('The same answer as CSV.'),
  dataset_versions: DatasetVersionsSchema,
});
export type SeriesAnswer = z.infer<typeof SeriesAnswerSchema>;

export const FamilySchema = z.object({
  id: z.enum(FAMILY_IDS),
  title: z.string(),
  publisher: z.string(),
  frequency: z.enum(FREQUENCIES),
  id_pattern: z.string().describe('How its ids are built.'),
  example: z.string().describe('An id of the family.'),
  datasets: z.array(z.string()).describe('The datasets it is read from (empty: a fact file shipped with the service).'),
  available: z.boolean(),
  message: z.string().optional().describe('Why the family is not available now, when it is not.'),
  series: z.int().describe('How many series it holds (0 while not available).'),
});

export const CatalogueAnswerSchema = z.object({
  families: z.array(FamilySchema),
  series: z.array(SeriesInfoSchema).describe('The series matching the filters, in family order, one page.'),
  codes: NamedCodesSchema.optional().describe(
    'With `query`: the HMDA codes its words name, with what each means ("denial reason 3"); every code of a field whose codes it asks for ("what codes can HOEPA status take").',
  ),
  lenders: FilerRankingSchema.optional(),
  total: z.int().describe('Series matching the filters, all pages.'),
  limit: z.int(),
  offset: z.int(),
  filters: z.object({ family: z.string().nullable(), state: z.string().nullable(), query: z.string().nullable() }),
  id_syntax: z.string(),
  sources: z.array(SourceSchema),
});
export type CatalogueAnswer = z.infer<typeof CatalogueAnswerSchema>;
