// The analysis contract: questions over the series this service holds (GET /series), declared
// once. Each operation has its query (REST parameters, the /ask model's arguments) and one answer
// shape: the result, the inputs it used with their sources and as-of dates, and the method in one
// sentence. REST (GET /analysis/<operation>), /ask's built-in reader and its model all go through it.
import { z } from 'zod';
import { choice, decimal, integer, lenient, list, text, textForms } from '../platform/contract/lenient.ts';
import { foldCase, wordsPattern } from '../platform/contract/patterns.ts';
import { DATE_BOUND_TEXT } from '../series/contract.ts';
import { stateCode } from '../platform/contract/places.ts';
import { SourceSchema } from '../platform/contract/sources.ts';
import { DatasetVersionsSchema } from '../platform/contract/versions.ts';
import { valueMessage } from '../platform/contract/messages.ts';

export const OPERATIONS = [
  'value',
  'change',
  'compare',
  'share',
  'rank',
  'count',
  'crossing',
  'extremes',
  'per-resident',
  'payment',
  'moves',
  'streak',
] as const;
export type Operation = (typeof OPERATIONS)[number];

const AT_PATTERN = /^(latest|(19|20|21)\d\d(Q[1-4]|-(0[1-9]|1[0-2])(-(0[1-9]|[12]\d|3[01]))?)?)$/;
const AT_HINT = 'Give `latest`, a year (2024), a quarter (2025Q3), a month (2024-05) or a day (2024-12-18).';
/** What a moment accepts as text, before normalising: `latest` in any case, a quarter with q in any case, a year, month or real day. */
const MOMENT_TEXT = `(?:${wordsPattern(['latest'], { space: '\\s+' })}|(?:19|2[01])\\d\\d[Qq][1-4]|${DATE_BOUND_TEXT})`;

/** A point or period in time: `latest`, `2024`, `2025Q3`, `2024-05`, `2024-12-18`. */
function moment(description: string) {
  const error = (issue: { path?: PropertyKey[] | undefined; input?: unknown }) => valueMessage(issue, AT_HINT);
  const normalise = (value: unknown) => {
    if (typeof value === 'number') return String(value);
    if (typeof value !== 'string') return value;
    const lower = foldCase(value.trim());
    return /^\d{4}q[1-4]$/.test(lower) ? lower.toUpperCase() : lower;
  };
  return lenient(
    normalise,
    z
      .string({ error })
      .regex(AT_PATTERN, { error })
      .refine(
        (value) => {
          // Runs even when the pattern failed (zod reports every check), so it must not throw on any text.
          if (!AT_PATTERN.test(value) || value.length < 10) return true;
          const time = Date.parse(`${value}T00:00:00Z`);
          return !Number.isNaN(time) && new Date(time).toISOString().startsWith(value);
        },
        { error },
      ),
    { json: { anyOf: [textForms(MOMENT_TEXT), { type: 'integer', minimum: 1900, maximum: 2199 }] }, text: MOMENT_TEXT },
  ).describe(description);
}

const seriesId = (description: string) => text({ max: 120, example: 'pmms/30-year' }).describe(description);
const SERIES = seriesId('A series id from find_series, e.g. `pmms/30-year`.');
const AT = moment('`latest` (default), 2024, 2025Q3, 2024-05 or 2024-12-18; a period is the mean, a day the last observation by it.');
const FROM = moment('Start of the range (inclusive): a year, quarter, month or day; default the first observation.');
const TO = moment('End of the range (inclusive): a year, quarter, month or day, or `latest` (default).');
/** A number, or a series id whose value at `at` is the threshold (cross-sections only). */
const threshold = (side: 'above' | 'below' | 'equal') =>
  text({ max: 120, example: side === 'above' ? '7' : '6' })
    .optional()
    // `above` says what all three take; the others refer to it (the tool listing has a byte budget).
    .describe(
      side === 'above'
        ? 'Strictly above: a number or (across places) a series id.'
        : `${side === 'equal' ? 'Equal to' : 'Strictly below'}; as \`above\`.`,
    );
const AMONG = choice(['states', 'counties'] as const, { aliases: { state: 'states', county: 'counties' } }).describe(
  'states or counties (default with `state`).',
);
const PLACE_STATE = stateCode().optional().describe('Only the counties of this state.');
/** Which places a cross-section keeps (rank, count): a list of places, a population floor. */
const PLACE_FILTERS = {
  places: list(text({ max: 60, example: 'TX' }), { max: 60 })
    .optional()
    .describe('Only these states, county FIPS or names (of `state`).'),
  min_population: integer({ min: 0, max: 100_000_000 }).optional().describe('Only places with more residents.'),
};
const TEMPLATE = seriesId(
  'A series id with `*` where the place goes, e.g. `hmda/*/originations` (states) or `loan-limits/conforming/*` (counties).',
);

/** `at` (one moment) or `from`/`to` (the mean over a range), not both: the service refuses the two together. */
export const ValueQuerySchema = z.object({
  series: SERIES,
  at: AT.optional(),
  from: FROM.optional().describe('Range start; value: the mean from–to, not `at`.'),
  to: TO.optional().describe('Range end (default latest).'),
});
export const ChangeQuerySchema = z.object({
  series: SERIES,
  from: FROM,
  to: TO.optional(),
  from_first: z.boolean().optional().describe("Start at the `from` period's first observation."),
  to_last: z.boolean().optional().describe("End at the `to` period's last observation ('in 2024': to = from)."),
});
export const CompareQuerySchema = z.object({
  series: SERIES,
  other: seriesId('Series to compare with (series − other).'),
  at: AT.optional(),
  other_at: moment('When for `other`, if not `at`.').optional(),
});
export const ShareQuerySchema = z.object({
  part: seriesId('The part, e.g. `hmda/CA/fha_records`.'),
  plus: seriesId('Added to `part`.').optional(),
  whole: seriesId('The whole, e.g. `hmda/CA/records`.'),
  at: AT.optional(),
});
export const RankQuerySchema = z.object({
  series: TEMPLATE,
  among: AMONG.optional(),
  state: PLACE_STATE,
  ...PLACE_FILTERS,
  at: AT.optional(),
  order: choice(['highest', 'lowest'] as const, { aliases: { desc: 'highest', top: 'highest', asc: 'lowest', bottom: 'lowest' } })
    .default('highest')
    .describe('`highest` (default) or `lowest` first.'),
  limit: integer({ min: 1, max: 100 }).default(10).describe('How many places (default 10); ties kept.'),
  per: integer({ min: 1, max: 1_000_000 }).optional().describe('Per this many residents, e.g. 1000.'),
});
export const CountQuerySchema = z.object({
  series: seriesId(
    'A series id (counts its observations in the range), or one with `*` for the place (counts places at `at`), e.g. `pmms/30-year` or `loan-limits/conforming/*`.',
  ),
  among: AMONG.optional(),
  state: PLACE_STATE,
  ...PLACE_FILTERS,
  at: AT.optional(),
  from: FROM.optional(),
  to: TO.optional(),
  above: threshold('above'),
  below: threshold('below'),
  equal: threshold('equal'),
  by: choice(['state'] as const)
    .optional()
    .describe('Counties counted per state.'),
});
export const CrossingQuerySchema = z.object({
  series: SERIES,
  above: threshold('above'),
  below: threshold('below'),
  which: choice(['last', 'first'] as const, { aliases: { latest: 'last', most_recent: 'last', earliest: 'first' } })
    .default('last')
    .describe('`last` (default) or `first` time.'),
  from: FROM.optional(),
  to: TO.optional(),
});
export const ExtremesQuerySchema = z.object({ series: SERIES, from: FROM.optional(), to: TO.optional() });
export const PerResidentQuerySchema = z.object({
  series: seriesId('A series of a place: `hmda/<state or county FIPS>/<measure>`, e.g. `hmda/FL/originations`.'),
  at: AT.optional(),
  per: integer({ min: 1, max: 1_000_000 }).default(1000).describe('Per how many residents (default 1,000).'),
});
/** The series a payment takes its rate from, in the words of the 400 that refuses any other. */
export const INTEREST_RATE_SERIES =
  'an interest-rate series: Freddie Mac PMMS (`pmms/30-year`, `pmms/15-year`, `pmms/5-1-arm`), Optimal Blue ' +
  '(`optimal-blue/conforming-30-year`, `optimal-blue/fha-30-year`, … and its FICO × LTV grid) or FHFA NMDB average contract rates ' +
  '(`nmdb/<state>/ave_intrate`, `nmdb/<state>/<market>/ave_intrate`, and their `_dollar` forms); other percent series ' +
  '(a denial rate, a share of loans) are not interest rates';

export const PaymentQuerySchema = z.object({
  amount: decimal({ min: 1, max: 100_000_000 }).describe('Loan amount in dollars.'),
  rate: decimal({ min: 0, max: 30 }).optional().describe('Annual % rate, or give `series`.'),
  series: seriesId(`The series whose value at \`at\` is the rate: ${INTEREST_RATE_SERIES}.`).optional(),
  at: AT.optional(),
  term_years: integer({ min: 1, max: 50 }).default(30).describe('Years (default 30).'),
});

const DIRECTION = choice(['up', 'down'] as const, {
  aliases: { increase: 'up', rise: 'up', decrease: 'down', decline: 'down', fall: 'down', drop: 'down' },
})
  .default('up')
  .describe('`up` (default) or `down`.');
export const MovesQuerySchema = z.object({ series: SERIES, from: FROM.optional(), to: TO.optional(), direction: DIRECTION });
export const StreakQuerySchema = z.object({
  series: SERIES,
  from: FROM.optional(),
  to: TO.optional(),
  direction: DIRECTION,
  above: threshold('above'),
  below: threshold('below'),
});

export type ValueQuery = z.output<typeof ValueQuerySchema>;
export type ChangeQuery = z.output<typeof ChangeQuerySchema>;
export type CompareQuery = z.output<typeof CompareQuerySchema>;
export type ShareQuery = z.output<typeof ShareQuerySchema>;
export type RankQuery = z.output<typeof RankQuerySchema>;
export type CountQuery = z.output<typeof CountQuerySchema>;
export type CrossingQuery = z.output<typeof CrossingQuerySchema>;
export type ExtremesQuery = z.output<typeof ExtremesQuerySchema>;
export type PerResidentQuery = z.output<typeof PerResidentQuerySchema>;
export type PaymentQuery = z.output<typeof PaymentQuerySchema>;

export const QUERY_SCHEMAS = {
  value: ValueQuerySchema,
  change: ChangeQuerySchema,
  compare: CompareQuerySchema,
  share: ShareQuerySchema,
  rank: RankQuerySchema,
  count: CountQuerySchema,
  crossing: CrossingQuerySchema,
  extremes: ExtremesQuerySchema,
  'per-resident': PerResidentQuerySchema,
  payment: PaymentQuerySchema,
  moves: MovesQuerySchema,
  streak: StreakQuerySchema,
} as const satisfies Record<Operation, z.ZodObject>;

/** A figure taken from a series: one observation, or the mean of the observations of a period. */
export const PointSchema = z.object({
  value: z.number().nullable(),
  date: z.string().describe('YYYY-MM-DD of the observation, or the first day of the averaged period.'),
  period: z
    .string()
    .optional()
    .describe('The period the value covers when it is not one day ("2024", "2025Q3", "2024-05", or "2024-12-16..2024-12-22").'),
  count: z.int().optional().describe('Means only: how many observations were averaged.'),
  how: z
    .enum(['observation', 'on_or_before', 'same_week', 'mean', 'containing_period'])
    .describe(
      '`observation` as published; `on_or_before`: the latest one before the day asked; `same_week`: the weekly survey of the Monday-to-Sunday week holding the day asked; `mean` of the period; `containing_period`: the coarser period that holds the one asked.',
    ),
});
export type Point = z.infer<typeof PointSchema>;

export const InputSchema = z.object({
  id: z.string().describe('The series, or the template of a cross-section (`hmda/*/originations`).'),
  title: z.string(),
  units: z.string(),
  points: z.array(PointSchema).describe('The figures used (empty for a cross-section: its members are in the result).'),
  url: z.string().describe('The series on this API.'),
  source: SourceSchema,
});
export type Input = z.infer<typeof InputSchema>;

const MemberSchema = z.object({
  rank: z.int().describe('1 for the first; tied places share a rank (1, 1, 3).'),
  place: z.string().describe('State code or county FIPS.'),
  name: z.string(),
  series: z.string(),
  value: z.number(),
  date: z.string(),
  period: z.string().optional(),
});

const DatedValueSchema = z.object({ value: z.number(), date: z.string(), period: z.string().optional() });

export const RESULT_SCHEMAS = {
  value: z.object({ point: PointSchema, units: z.string() }),
  change: z.object({
    start: PointSchema,
    end: PointSchema,
    units: z.string(),
    change: z.number().nullable().describe('end − start, in the units (percentage points for rates).'),
    percent_change: z.number().nullable().describe('(end − start) ÷ start × 100.'),
  }),
  compare: z.object({
    first: PointSchema,
    second: PointSchema,
    units: z.string(),
    difference: z.number().nullable().describe('first − second.'),
    ratio: z.number().nullable().describe('first ÷ second.'),
  }),
  share: z.object({ part: PointSchema, whole: PointSchema, share_percent: z.number().nullable() }),
  rank: z.object({
    order: z.enum(['highest', 'lowest']),
    period: z.string().describe('The period ranked ("latest" means each place\'s latest figure).'),
    members: z.array(MemberSchema),
    ranked: z.int().describe('Places with a figure.'),
    units: z.string(),
  }),
  count: z.object({
    count: z.int(),
    out_of: z.int().describe('Observations (or places) looked at.'),
    condition: z.string().describe('e.g. "above 7".'),
    threshold: z.number(),
    first: DatedValueSchema.nullable().describe('Over time: the first observation that met the condition.'),
    last: DatedValueSchema.nullable().describe('Over time: the last observation that met the condition.'),
    places: z.array(MemberSchema).optional().describe('Across places: the places that met it, highest first.'),
    by_state: z
      .array(z.object({ state: z.string(), name: z.string(), count: z.int() }))
      .optional()
      .describe('With `by=state`: the counties that met it in each state, most first.'),
  }),
  crossing: z.object({
    which: z.enum(['last', 'first']),
    condition: z.string(),
    found: DatedValueSchema.nullable().describe('The observation, or null when none met the condition.'),
    run_start: DatedValueSchema.nullable().describe(
      'The first observation of the unbroken run of observations meeting the condition that holds `found`.',
    ),
    meets_now: z.boolean().describe('Whether the latest observation of the range meets the condition.'),
    latest: DatedValueSchema.nullable(),
  }),
  extremes: z.object({
    units: z.string(),
    low: z.number().nullable(),
    low_dates: z
      .array(z.string())
      .describe('YYYY-MM-DD: the date of each observation at the low (a yearly figure: the date the series gives it).'),
    low_periods: z
      .array(z.string())
      .optional()
      .describe('For a series of periods (a year, a quarter): the period of each observation at the low, e.g. "2018".'),
    high: z.number().nullable(),
    high_dates: z.array(z.string()).describe('YYYY-MM-DD: the date of each observation at the high.'),
    high_periods: z.array(z.string()).optional().describe('For a series of periods: the period of each observation at the high.'),
    observations: z.int(),
  }),
  'per-resident': z.object({
    figure: PointSchema,
    residents: PointSchema,
    per: z.int(),
    value: z.number().nullable().describe('figure ÷ residents × per.'),
  }),
  payment: z.object({
    amount: z.number(),
    rate_percent: z
      .number()
      .describe('The rate the payment is computed from: as given, or the series figure unrounded (a mean shows 4 decimals in `rate`).'),
    term_years: z.int(),
    monthly_payment: z.number().describe('Principal and interest, dollars and cents.'),
    total_interest: z.number().describe('Monthly payment × months − amount, dollars and cents; never negative.'),
    rate: PointSchema.nullable().describe('Where the rate came from a series.'),
  }),
  moves: z.object({
    units: z.string(),
    direction: z.enum(['up', 'down']),
    largest: z
      .object({
        change: z.number().describe('to − from, in the units (percentage points for rates).'),
        from: DatedValueSchema,
        to: DatedValueSchema,
        also: z.array(z.string()).describe('Other dates a step of the same size ended on.'),
      })
      .nullable()
      .describe('The largest step between consecutive observations, or null when none went that way.'),
    steps: z.int().describe('Steps between consecutive observations looked at (the first from the observation before the range).'),
  }),
  streak: z.object({
    units: z.string(),
    direction: z.enum(['up', 'down']).optional(),
    condition: z.string().optional().describe('For a run beyond a threshold: the condition each observation met.'),
    length: z.int().describe('Consecutive steps that way in the longest run.'),
    start: DatedValueSchema.nullable().describe('The observation the run started from.'),
    first_move: DatedValueSchema.nullable().optional().describe('The first observation of the run that moved that way.'),
    end: DatedValueSchema.nullable().describe('The last observation of the run.'),
    steps: z.int(),
  }),
} as const satisfies Record<Operation, z.ZodObject>;

const envelope = z.object({
  operation: z.enum(OPERATIONS),
  answer: z.string().describe('The result in one or two sentences, each figure with its date or period.'),
  method: z.string().describe('How it was computed, in one sentence.'),
  inputs: z.array(InputSchema).describe('The series used, with the figures taken from them, their sources and as-of dates.'),
  notes: z.array(z.string()).describe('What the figures are and are not (e.g. a vintage used for another year).'),
  sources: z.array(SourceSchema),
  dataset_versions: DatasetVersionsSchema,
});

function answerSchema<O extends Operation>(operation: O) {
  return envelope.extend({ operation: z.literal(operation), result: RESULT_SCHEMAS[operation] });
}

export const ANSWER_SCHEMAS = {
  value: answerSchema('value'),
  change: answerSchema('change'),
  compare: answerSchema('compare'),
  share: answerSchema('share'),
  rank: answerSchema('rank'),
  count: answerSchema('count'),
  crossing: answerSchema('crossing'),
  extremes: answerSchema('extremes'),
  'per-resident': answerSchema('per-resident'),
  payment: answerSchema('payment'),
  moves: answerSchema('moves'),
  streak: answerSchema('streak'),
} as const;

export type AnalysisAnswer<O extends Operation = Operation> = z.infer<(typeof ANSWER_SCHEMAS)[O]>;
export type ResultOf<O extends Operation> = z.infer<(typeof RESULT_SCHEMAS)[O]>;
export type QueryOf<O extends Operation> = z.output<(typeof QUERY_SCHEMAS)[O]>;

/** A field of an operation's query, optional and without its default (the operation's own schema applies it). */
function optionalField(schema: z.ZodType): z.ZodType {
  const inner = schema instanceof z.ZodDefault || schema instanceof z.ZodOptional ? (schema.unwrap() as z.ZodType) : schema;
  // The description sits on the wrapper `.optional()`/`.default()` made: kept, so the listing names what each field takes.
  const description = schema.description ?? inner.description;
  return description === undefined ? inner.optional() : inner.optional().describe(description);
}

const fieldsOf = () => {
  const fields: Record<string, z.ZodType> = {};
  for (const schema of Object.values(QUERY_SCHEMAS))
    for (const [name, field] of Object.entries(schema.shape)) fields[name] ??= optionalField(field as z.ZodType);
  return fields;
};

/** The /ask model's tool: one operation and its parameters (each operation's own schema then applies). */
export const AnalysisToolInputSchema = z.object({
  operation: choice(OPERATIONS).describe(
    'compare: with `other`; share: `part` of `whole`; count, crossing: `above`/`below`/`equal`; moves: largest step; ' +
      'streak: longest run.',
  ),
  ...fieldsOf(),
});

export const AnalysisToolAnswerSchema = envelope.extend({
  result: z.record(z.string(), z.unknown()).describe("The operation's result, as GET /api/v1/analysis/<operation> answers it."),
});
