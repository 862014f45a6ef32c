// The catalogue's contract: a search of the measures by words (what an agent or a reader writes:
// "VA share Hawaii", "denial rate Harris County") and its answer, the series that match with what
// each is, its coverage and as-of date, best first. The MCP tool `find_series` and the REST
// catalogue's `query` (GET /series) read it.
import { z } from 'zod';
import { integer, text } from '../platform/contract/lenient.ts';
import { SourceSchema } from '../platform/contract/sources.ts';
import { MEASURE_KINDS, PLACE_KINDS } from './file-schema.ts';

export const CatalogueSearchQuerySchema = z.object({
  query: text({ max: 200, example: 'VA share Hawaii' }).describe('A measure and places, e.g. "VA share Hawaii".'),
  limit: integer({ min: 1, max: 50 }).default(10).describe('Series per page (default 10).'),
  offset: integer({ min: 0, max: 10_000 }).default(0).describe('Series to skip (default 0).'),
});
export type CatalogueSearchQuery = z.output<typeof CatalogueSearchQuerySchema>;

export const FoundPlaceSchema = z.object({
  kind: z.enum(PLACE_KINDS),
  code: z.string().describe('US, a state code or a 5-digit county FIPS.'),
  name: z.string(),
  read_as: z.string().optional().describe('How the words were read, when not as written ("Houston → Harris County, TX").'),
});
export type FoundPlace = z.infer<typeof FoundPlaceSchema>;

export const SeriesMatchSchema = z.object({
  id: z
    .string()
    .describe('The series id (GET /api/v1/series/{id}, mds://series/{id}); with `{state}` or `{county}` when no place was given.'),
  template: z.string().describe('The measure, with its place slot: `hmda/{place}/va_share`.'),
  title: z.string(),
  kind: z.enum(MEASURE_KINDS),
  units: z.string(),
  frequency: z.string().nullable(),
  first_date: z.string().nullable(),
  last_date: z.string().nullable(),
  as_of: z.string().nullable(),
  place: FoundPlaceSchema.nullable().describe('The place of the series; null for a national series or a template.'),
  matched: z.array(z.string()).describe("The query's words this measure matched."),
  available: z.boolean().describe('Whether the series can be read now (its data loaded).'),
  message: z.string().optional().describe('Why not, when it cannot; or what place a template needs.'),
});
export type SeriesMatch = z.infer<typeof SeriesMatchSchema>;

/** What one code of an HMDA field means, from the catalogue's code book. */
export const HmdaCodeMeaningSchema = z.object({
  field: z.string().describe('The register field, e.g. "denial reason".'),
  code: z.string(),
  meaning: z.string().describe('What the code stands for, as the FFIEC describes it.'),
  series: z.string().nullable().describe("The template of the code's count (`hmda/{place}/denials`); null for a field not counted."),
});
export type HmdaCodeMeaning = z.infer<typeof HmdaCodeMeaningSchema>;

/** The codes the words name, said alike by every face that reads the catalogue by words. */
export const NamedCodesSchema = z
  .array(HmdaCodeMeaningSchema)
  .describe('HMDA codes the words name with a field ("denial reason 3", "loan purpose 32"), with what each means.');

/** The HMDA filers of a year by the records they reported, for words about lenders: said alike by every face that reads the catalogue by words. */
export const FilerRankingSchema = z
  .object({
    year: z.int(),
    total_records: z.int().describe('The records every filer reported that year: the national total.'),
    filers: z.int().describe('The filers on the sheet.'),
    note: z.string(),
    top: z.array(
      z.object({
        rank: z.int(),
        name: z.string(),
        lei: z.string().describe('Legal Entity Identifier.'),
        agency: z.string().describe('Its supervising agency.'),
        state: z.string().nullable(),
        city: z.string().nullable(),
        records: z.int().describe("Applications and purchased loans it reported (the sheet's `lar_count`)."),
        share_percent: z.number().describe('Its records as a percent of `total_records`.'),
      }),
    ),
  })
  .describe(
    'With words about lenders ("which institution reported the most HMDA records in 2020"): the filers of that year\'s HMDA transmittal sheet (the latest when no year is named), most records first.',
  );
export type FilerRanking = z.infer<typeof FilerRankingSchema>;

export const CatalogueSearchAnswerSchema = z.object({
  query: z.string(),
  places: z.array(FoundPlaceSchema).describe('The places read in the query.'),
  unmatched: z
    .array(z.string())
    .describe('Words of the query no measure uses (a lender, a ZIP code…): the catalogue has nothing for them.'),
  times: z.array(z.string()).describe('Years or dates in the query: give them to the series or analysis call, not to the search.'),
  codes: NamedCodesSchema,
  lenders: FilerRankingSchema.optional(),
  results: z.array(SeriesMatchSchema).describe('Best first.'),
  total: z.int(),
  offset: z.int(),
  limit: z.int(),
  notes: z.array(z.string()),
  sources: z.array(SourceSchema),
});
export type CatalogueSearchAnswer = z.infer<typeof CatalogueSearchAnswerSchema>;
