// The research profiles' contract: a state's and a county's mortgage picture drawn from the loaded
// official data (loan limits, HMDA aggregates, FHFA's NMDB, Freddie Mac's survey, escrow schedules,
// tracked bills), each part with its publisher and as-of date, and analysis sentences written from
// the figures. GET /research/states/{state}, GET /research/counties/{fips} and the /research pages
// derive from it.
import { z } from 'zod';
import { stateCode } from '../platform/contract/places.ts';
import { SourceSchema } from '../platform/contract/sources.ts';
import { UnitLimitsSchema } from '../loan-limits/contract.ts';

export const ResearchStatePathSchema = z.object({
  state: stateCode().describe('The state: 2-letter code or name in any case, e.g. "OH", "ohio" or "Ohio" (the 50 states and DC).'),
});

export const ResearchCountyPathSchema = z.object({
  fips: z
    .string()
    .trim()
    .regex(/^\d{5}$/, { error: 'fips must be a 5-digit county FIPS code, e.g. "04013" (Maricopa County, AZ).' })
    .describe('5-digit county FIPS code, e.g. "04013" (Maricopa County, AZ) or "39049" (Franklin County, OH).'),
});

/** A publisher's file behind a part of a profile: name, page and the publisher's vintage. */
export const ResearchSourceSchema = SourceSchema.extend({ name: z.string().describe('Publisher and file.') });
export type ResearchSource = z.infer<typeof ResearchSourceSchema>;

const ShareSchema = z.object({
  label: z.string(),
  percent: z.number().describe('Share of all HMDA records of the place, percent (two decimals).'),
  compare_percent: z.number().nullable().describe('The same share for the nation (state profile) or the state (county profile).'),
});

export const HmdaPictureSchema = z.object({
  year: z.int(),
  records: z.int().describe('HMDA records (applications and purchased loans).'),
  originations: z.int().describe('Loans originated (action taken 1).'),
  denial_rate_percent: z.number().nullable().describe('Denied / (originated + approved not accepted + denied).'),
  compare_denial_rate_percent: z
    .number()
    .nullable()
    .describe('The same rate for the nation (state profile) or the state (county profile).'),
  rank_by_records: z.int().describe('1 = most records among the states (state profile) or the counties of the state (county profile).'),
  ranked_among: z.int(),
  first_year: z.int(),
  records_first_year: z.int().nullable(),
  loan_types: z.array(ShareSchema),
  purposes: z.array(ShareSchema),
  source: ResearchSourceSchema,
});
export type HmdaPicture = z.infer<typeof HmdaPictureSchema>;

export const LimitHistoryEntrySchema = z.object({
  year: z.int(),
  conforming_one_unit: z.int().nullable(),
  fha_one_unit: z.int().nullable(),
  national_baseline: z.int().nullable().describe('The national one-unit conforming baseline that year.'),
});

export const CountyLinkSchema = z.object({
  fips: z.string(),
  county: z.string(),
  path: z.string(),
  conforming_one_unit: z.int().nullable(),
  fha_one_unit: z.int().nullable(),
  conforming_tier: z.enum(['baseline', 'high_cost']).nullable(),
  hmda_records: z.int().nullable(),
});
export type CountyLink = z.infer<typeof CountyLinkSchema>;

export const AnalysisSchema = z.array(z.string()).describe('Sentences written from the figures above: comparisons, ranks and changes.');

export const CountyProfileSchema = z.object({
  fips: z.string(),
  county: z.string(),
  state: z.string(),
  state_name: z.string(),
  title: z.string(),
  path: z.string().describe('The page on this site.'),
  state_path: z.string(),
  limits: z.object({
    conforming: z.object({
      year: z.int(),
      limits: UnitLimitsSchema,
      tier: z.enum(['baseline', 'high_cost']),
      source: ResearchSourceSchema,
    }),
    fha: z
      .object({ year: z.int(), limits: UnitLimitsSchema, tier: z.enum(['standard', 'high_cost']), source: ResearchSourceSchema })
      .nullable(),
    va: z.object({ year: z.int(), limits: UnitLimitsSchema, note: z.string() }),
    national: z.object({
      conforming_baseline: z.int().nullable(),
      conforming_ceiling: z.int().nullable(),
      fha_floor: z.int().nullable(),
      fha_ceiling: z.int().nullable(),
    }),
    history: z.array(LimitHistoryEntrySchema).describe('One-unit limits by year since the first county file (2018).'),
  }),
  hmda: HmdaPictureSchema.nullable().describe('Null when the county had no HMDA records in the latest year.'),
  analysis: AnalysisSchema,
  sources: z.array(ResearchSourceSchema),
});
export type CountyProfile = z.infer<typeof CountyProfileSchema>;

export const RatePointSchema = z.object({
  period: z.string().describe('Quarter, e.g. "2025Q3".'),
  quarter_end: z.string(),
  state_outstanding_percent: z.number().nullable().describe("Average contract rate of the state's outstanding mortgages (NMDB)."),
  survey_percent: z.number().nullable().describe('Average of the weekly Freddie Mac PMMS 30-year rates in the quarter.'),
});

export const StateProfileSchema = z.object({
  state: z.string(),
  state_name: z.string(),
  title: z.string(),
  path: z.string(),
  limits: z.object({
    year: z.int(),
    fha_year: z.int().nullable(),
    counties: z.int(),
    high_cost_counties: z.int(),
    fha_high_cost_counties: z.int().nullable(),
    national_baseline: z.int().nullable(),
    history: z.array(z.object({ year: z.int(), highest_conforming: z.int(), high_cost_counties: z.int() })),
    sources: z.array(ResearchSourceSchema),
  }),
  counties: z.array(CountyLinkSchema).describe('Every county of the state in the latest conforming file, by name.'),
  hmda: HmdaPictureSchema.nullable(),
  rates: z
    .object({
      latest: RatePointSchema,
      rank_highest: z.int().describe('1 = the highest average outstanding rate among the 51.'),
      ranked_among: z.int(),
      quarters: z.array(RatePointSchema).describe('Oldest first.'),
      definition: z.string(),
      sources: z.array(ResearchSourceSchema),
    })
    .nullable(),
  escrow: z.object({
    frequency: z.string(),
    disbursement_months: z.array(z.string()),
    months_at_closing: z.record(z.string(), z.int()).describe('Months of tax collected at closing, by closing month.'),
    notes: z.string(),
    sources: z.array(z.object({ title: z.string(), url: z.string().nullable() })),
  }),
  bills: z
    .array(
      z.object({
        bill_id: z.string(),
        citation: z.string(),
        title: z.string(),
        url: z.string(),
        sponsor: z.string().nullable(),
        status: z.string(),
      }),
    )
    .nullable()
    .describe('Tracked bills whose sponsor represents the state; null while the bills are not loaded.'),
  analysis: AnalysisSchema,
  sources: z.array(ResearchSourceSchema),
});
export type StateProfile = z.infer<typeof StateProfileSchema>;

/** A research page as /articles, the feed and the sitemap list it. */
export interface ResearchListing {
  title: string;
  path: string;
  description: string;
  /** YYYY-MM-DD: the newest publisher's date among the page's figures. */
  date: string;
  kind: 'state' | 'county';
  /** The place by name: the state's, or the county's without its state ("Harris County"). */
  place: string;
  /** The state's name (a county's state), for listing counties under their state. */
  stateName: string;
}
