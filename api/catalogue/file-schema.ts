// The shape of data/catalogue/measures.yaml, checked with zod at load: a bad entry (a kind that does
// not exist, an HMDA code without a name, a word list left empty) fails loudly, naming the path.
import { z } from 'zod';

export const MEASURE_KINDS = ['rate', 'share', 'count', 'limit', 'income', 'population'] as const;
export type MeasureKind = (typeof MEASURE_KINDS)[number];

export const PLACE_KINDS = ['nation', 'state', 'county'] as const;
export type PlaceKind = (typeof PLACE_KINDS)[number];

/** A phrase; a bare number in the file ("760") is read as its text. */
const phrase = z.union([z.string().min(1), z.number()]).transform(String);
const words = z.array(phrase).min(1);
const qualifiers = z.record(z.string(), z.union([z.string(), z.number()])).default({});

/** A series template written out: an id with at most one place slot. */
const EntrySchema = z.strictObject({
  id: z.string().regex(/^[a-z0-9{}/_-]+$/),
  title: z.string().min(1),
  kind: z.enum(MEASURE_KINDS),
  unit: z.string().min(1),
  places: z.array(z.enum(PLACE_KINDS)).min(1).optional(),
  words,
  qualifiers,
});

/** One value of an axis of a generated family of templates (a market, a weight, an LTV tier). */
const AxisValueSchema = z.strictObject({
  value: z.string(),
  title: z.string(),
  words: z.array(phrase).default([]),
  qualifiers,
  kind: z.enum(MEASURE_KINDS).optional(),
  unit: z.string().optional(),
});
export type AxisValue = z.infer<typeof AxisValueSchema>;

const RateGridSchema = z.strictObject({
  id: z.string(),
  title: z.string(),
  kind: z.enum(MEASURE_KINDS),
  unit: z.string(),
  words,
  qualifiers,
  ltv: z.array(AxisValueSchema).min(1),
  fico: z.array(AxisValueSchema).min(1),
});

const OutstandingSchema = z.strictObject({
  id: z.string(),
  words,
  measure: z.array(AxisValueSchema.extend({ kind: z.enum(MEASURE_KINDS), unit: z.string() })).min(1),
  market: z.array(AxisValueSchema).min(1),
  weight: z.array(AxisValueSchema).min(1),
});

/** Which records of one dimension a count takes: every code, the codes listed, or all but some. */
export const CountRuleSchema = z.strictObject({
  dimension: z.string().min(1),
  codes: z.array(z.string()).min(1).optional(),
  except: z.array(z.string()).min(1).optional(),
});
export type CountRule = z.infer<typeof CountRuleSchema>;

const HmdaTotalSchema = z
  .strictObject({
    id: z.string().regex(/^[a-z0-9_]+$/),
    title: z.string(),
    kind: z.enum(MEASURE_KINDS),
    unit: z.string(),
    words,
    qualifiers,
    note: z.string(),
    count: CountRuleSchema.optional(),
    ratio: z.strictObject({ part: CountRuleSchema, whole: CountRuleSchema }).optional(),
  })
  .refine((total) => (total.count === undefined) !== (total.ratio === undefined), 'give one of `count` or `ratio`');

const HmdaCodeSchema = z.strictObject({
  code: z.string(),
  name: z.string().regex(/^[a-z0-9_]+$/),
  /** The count's id when it is not `<name>_records` (the action-taken counts: `originations`). */
  count: z
    .string()
    .regex(/^[a-z0-9_]+$/)
    .optional(),
  title: z.string(),
  /** What the code means as the CFPB's public LAR spec words it, when the title says it otherwise ("Mortgages originated" is "Loan originated"). */
  meaning: z.string().min(1).optional(),
  unit: z.string().default('records'),
  words,
  qualifiers,
});

/** A field of the register the aggregates do not count (denial reason): its codes' meanings only. */
const CodeBookFieldSchema = z.strictObject({
  dimension: z.string(),
  label: z.string(),
  /** The field's name in the CFPB's public LAR spec ("Reason for Denial: 1"), which a test checks the meanings against. */
  spec: z.string().optional(),
  /** Other ways people name the field ("reason for denial", the public file's column `denial_reason_1`). */
  words: z.array(phrase).default([]),
  codes: z.array(z.strictObject({ code: z.string(), title: z.string().min(1) })).min(1),
});

const HmdaSchema = z.strictObject({
  words,
  totals: z.array(HmdaTotalSchema).min(1),
  dimensions: z
    .array(
      z.strictObject({
        dimension: z.string(),
        label: z.string(),
        spec: z.string().optional(),
        words: z.array(phrase).default([]),
        codes: z.array(HmdaCodeSchema).min(1),
      }),
    )
    .min(1),
  code_book: z.array(CodeBookFieldSchema).default([]),
});

/** HUD's income figures by county: the median family income, and a limit per level × household size. */
const IncomeSchema = z.strictObject({
  words,
  median: EntrySchema,
  limit: z.strictObject({
    id: z.string(),
    title: z.string(),
    kind: z.enum(MEASURE_KINDS),
    unit: z.string(),
    words,
    level: z.array(AxisValueSchema).min(1),
    size: z.array(AxisValueSchema).min(1),
  }),
});

export const CatalogueFileSchema = z.strictObject({
  rates: z.array(EntrySchema),
  rate_grid: RateGridSchema,
  outstanding: OutstandingSchema,
  limits: z.array(EntrySchema),
  income: IncomeSchema,
  population: z.array(EntrySchema),
  hmda: HmdaSchema,
});
export type CatalogueFile = z.infer<typeof CatalogueFileSchema>;
