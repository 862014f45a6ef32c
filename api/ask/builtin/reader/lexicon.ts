// The reader's words (data/ask/reader-words.json): the phrases that name operations, qualifiers,
// ranges and thresholds, and the words that only carry a question's subject. Held as data so a new
// phrasing is a data change; checked with zod once, at first use (a bad entry fails the tests).
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { PROJECT_ROOT } from '../../../config.ts';
import type { OperationKind } from './frame.ts';

export const LEXICON_FILE = path.join(PROJECT_ROOT, 'data', 'ask', 'reader-words.json');

const phrases = z.array(z.string().min(1)).min(1);
const OPERATION_KINDS = [
  'value',
  'change',
  'compare',
  'rank',
  'count',
  'share',
  'extremes',
  'crossing',
  'streak',
  'average',
  'biggest-move',
  'payment',
  'per-resident',
  'calendar-arithmetic',
  'list',
] as const satisfies readonly OperationKind[];

const LexiconSchema = z.object({
  operations: z.partialRecord(z.enum(OPERATION_KINDS), phrases),
  directions: z.object({ highest: phrases, lowest: phrases }),
  first: phrases,
  last: phrases,
  /** `equal` phrases name a series only ("at the FHA ceiling"), never a number. */
  thresholds: z.object({ above: phrases, below: phrases, equal: phrases }),
  ranges: z.object({ from: phrases, to: phrases, since: phrases }),
  qualifiers: z.object({
    programs: z.record(z.enum(['fha', 'va', 'usda', 'jumbo', 'conforming', 'conventional']), phrases),
    purposes: z.record(z.string(), phrases),
    units: z.record(z.enum(['1', '2', '3', '4']), phrases),
    tract: phrases,
    zip: phrases,
    metro: phrases,
    creditScore: phrases,
    lenderCues: phrases,
    /** Lenders people name often, read before places ("Bank of America" is not the nation). */
    lenderNames: phrases,
  }),
  /** Which way a move or a run goes ("the largest one-week increase", "consecutive declines"). */
  steps: z.object({ up: phrases, down: phrases, either: phrases }),
  /** "the steepest one-week fall", "the sharpest weekly rise": a superlative a few words before a word for one step. */
  moves: z.object({ superlatives: phrases, words: phrases }),
  /** "By what percent did … fall": the percent is the change's, not a share measure's. */
  changeInPercent: phrases,
  carriers: phrases,
  /** Phrasal verbs that only carry the subject ("the survey Freddie Mac put out"): read before the measures, whose words ("take out") they would match. */
  carrierPhrases: phrases,
  /** The calendar's words ("FOMC", "CPI release"): its events are not measures of the catalogue. */
  calendarWords: phrases,
  /** Measures people ask for that no source here publishes: said first, never answered with another. */
  unheldMeasures: phrases,
  /** National levels a threshold may name ("above the baseline", "at the FHA ceiling"): their series. */
  seriesLevels: z.record(z.string().min(1), z.string().min(1)),
  /** HUD's income figures: the phrases that ask for them, each level's, and household sizes written as words. */
  income: z.object({
    asks: phrases,
    levels: z.object({ extremely_low: phrases, very_low: phrases, low: phrases, median: phrases }),
    households: z.record(z.enum(['1', '2', '3', '4', '5', '6', '7', '8']), phrases),
  }),
  /** Years counted from today ("the year before last": −2). */
  relativeYears: z.record(z.string().min(1), z.number().int()),
  /** Halves of a year ("the first half of 2024": 1). */
  halves: z.record(z.string().min(1), z.union([z.literal(1), z.literal(2)])),
  /** "the second quarter of 2024": a quarter named in words, read with the year written after it. */
  quarters: z.record(z.string().min(1), z.union([z.literal(1), z.literal(2), z.literal(3), z.literal(4)])),
  /** Releases people name, the words the calendar's event names hold for them, and their category. */
  calendarReleases: z.array(
    z.object({
      phrases,
      names: z.array(z.string().min(1)),
      category: z.enum(['fed', 'inflation', 'employment']).optional(),
      /** What the answer calls them when the names are many ("BLS releases"). */
      title: z.string().min(1).optional(),
    }),
  ),
  /** Calendar weeks counted from today's Monday-to-Sunday week ("next week": +1). */
  calendarWeeks: z.record(z.string().min(1), z.number().int()),
  /** What an FOMC decision was ("cut", "hike"): the calendar holds when it was decided, not what. */
  calendarDecisionWords: phrases,
  /** Words that point back at the place a question named ("there"), and what stands for them in a clause asked alone. */
  placeReferences: z.record(z.string().min(1), z.string().includes('{place}')),
  /** Words that pick one event of a span ("the first CPI release of 2026", "its last of 2024"). */
  calendarPicks: z.object({ first: z.array(z.string().min(1)), last: z.array(z.string().min(1)) }),
  /** Words that put a release on one side of a day ("before July 4th", "the first one after it"). */
  calendarEdges: z.object({ before: z.array(z.string().min(1)), after: z.array(z.string().min(1)) }),
  /** Days named by their holiday: "MM-DD", or "MM-<weekday>-<n|last>" for one that falls on a weekday of its month. */
  holidays: z.record(z.string().min(1), z.string().regex(/^\d{2}-(\d{2}|(mon|tue|wed|thu|fri|sat|sun)-([1-5]|last))$/)),
  /** A share written in words ("at least a quarter", "more than half"): its percent. */
  fractions: z.record(z.string().min(1), z.number().gt(0).lt(100)),
  /** The measure a share threshold reads a count as, where the share of all records is not what is meant (denials: the denial rate). */
  shareOfCount: z.record(z.string().min(1), z.string().min(1)),
  /** "and which ones", "name them": a count asked with the places it counts. */
  namesAsked: phrases,
  /** An HMDA field written before its codes ("purpose 31 vs 32"), by the catalogue's label of the field. */
  codeFields: z.record(z.string().min(1), phrases),
  /** HMDA fields whose codes the aggregates held do not count ("denial reason codes 1 and 4"). */
  unheldCodeFields: phrases,
  /**
   * A direction a question takes for granted ("why did the limit go down in 2023"): the words that ask
   * for a cause, each way's verbs, and actors whose decisions the data does not hold ("the Fed raised").
   */
  premises: z.object({ asks: phrases, up: phrases, down: phrases, actors: phrases }),
  /** "VA loans as a share of all originations": the part is written before its whole. */
  partBeforeWhole: phrases,
  /** "CPI comes out twice a month": a frequency a question claims, as events a year. */
  calendarFrequencies: z.record(z.string().min(1), z.number().int().positive()),
  /** "Compared with the same week a year earlier": the latest figure against the one a year before it. */
  yearEarlier: phrases,
});

export type Lexicon = z.infer<typeof LexiconSchema> & { carrierSet: ReadonlySet<string> };

let loaded: Lexicon | undefined;

export function lexicon(): Lexicon {
  if (!loaded) {
    const parsed = LexiconSchema.parse(JSON.parse(fs.readFileSync(LEXICON_FILE, 'utf8')));
    loaded = { ...parsed, carrierSet: new Set(parsed.carriers.map((word) => word.toLowerCase())) };
  }
  return loaded;
}
