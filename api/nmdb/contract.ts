// The NMDB state rates' contract: what a question about the rates borrowers in a state are paying
// on their outstanding mortgages accepts and answers. The service, /ask and the series built from
// the same data derive from it.
import { z } from 'zod';
import { choice } from '../platform/contract/lenient.ts';
import { stateCode } from '../platform/contract/places.ts';
import { SourceSchema } from '../platform/contract/sources.ts';
import { NMDB_MARKETS } from './series.ts';

export const NMDB_MARKET_VALUES = [
  'all',
  'enterprise',
  'government',
  'other_conventional',
] as const satisfies readonly (keyof typeof NMDB_MARKETS)[];

export const NmdbStateRatesQuerySchema = z.object({
  state: stateCode().describe('The state (code or name, any case), e.g. "CA" or "California"; the 50 states and DC.'),
  market: choice(NMDB_MARKET_VALUES, {
    aliases: {
      'all mortgages': 'all',
      enterprises: 'enterprise',
      gse: 'enterprise',
      fha: 'government',
      'other conventional': 'other_conventional',
      conventional_other: 'other_conventional',
    },
  })
    .default('all')
    .describe(
      'Market segment: `all` (default, all mortgages), `enterprise` (Fannie Mae and Freddie Mac acquisitions), `government` ' +
        '(FHA, VA, USDA and other non-conventional) or `other_conventional` (conventional loans the Enterprises do not hold).',
    ),
});
export type NmdbStateRatesQuery = z.output<typeof NmdbStateRatesQuerySchema>;

const BucketsSchema = z.object({
  below_3: z.number().nullable(),
  from_3_to_4: z.number().nullable(),
  from_4_to_5: z.number().nullable(),
  from_5_to_6: z.number().nullable(),
  at_least_6: z.number().nullable(),
});

export const NmdbQuarterSchema = z.object({
  period: z.string().describe('The quarter, e.g. "2025Q3".'),
  quarter_end: z.string().describe('YYYY-MM-DD: the loans are those outstanding on this day.'),
  average_rate_percent: z
    .number()
    .nullable()
    .describe('Average contract rate, each loan counted once (FHFA VALUE1); null where FHFA suppressed it.'),
  average_rate_dollar_weighted_percent: z.number().nullable().describe('Average contract rate weighted by balance (FHFA VALUE2).'),
  percent_of_loans: BucketsSchema.describe('Share of loans by contract rate, percent (FHFA VALUE1).'),
  percent_of_balance: BucketsSchema.describe('Share of the outstanding balance by contract rate, percent (FHFA VALUE2).'),
  suppressed: z.boolean().describe('FHFA suppressed a figure of this quarter (too few sampled loans).'),
});
export type NmdbQuarter = z.infer<typeof NmdbQuarterSchema>;

export const NmdbStateRatesAnswerSchema = z.object({
  state: z.string(),
  state_name: z.string(),
  market: z.enum(NMDB_MARKET_VALUES),
  market_label: z.string().describe("FHFA's name of the segment."),
  quarters: z.array(NmdbQuarterSchema).describe('Oldest first.'),
  latest: NmdbQuarterSchema,
  definition: z.string(),
  as_of: z.string().describe("YYYY-MM-DD: the end of the latest quarter the publisher's file covers."),
  source_url: z.string(),
  sources: z.array(SourceSchema),
});
export type NmdbStateRatesAnswer = z.infer<typeof NmdbStateRatesAnswerSchema>;
