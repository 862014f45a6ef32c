// The question frame: what a question asks, read slot by slot by independent readers (operation,
// measure, places, times, qualifiers, numbers), with what each slot consumed and what nothing
// consumed. The planner composes analysis operations from a frame; nothing here reads data.
import type { Place } from '../../../geo/gazetteer.ts';

/** What the question wants done with its figures. */
export type OperationKind =
  | 'value'
  | 'change'
  | 'compare'
  | 'rank'
  | 'count'
  | 'share'
  | 'extremes'
  | 'crossing'
  | 'streak'
  | 'average'
  | 'biggest-move'
  | 'payment'
  | 'per-resident'
  | 'calendar-arithmetic'
  | 'list';

export interface OperationSlot {
  kind: OperationKind;
  /** rank/extremes: highest or lowest first; biggest-move/streak: up or down. */
  /** Both: "where is it highest and lowest" across a set of places, a rank each way. */
  direction?: 'highest' | 'lowest' | 'both';
  /** crossing: the last or first time. */
  which?: 'last' | 'first';
  /** biggest-move, streak: which way the steps go. */
  step?: 'up' | 'down' | 'either';
  /** "the average … rose": the figures compared are period means. */
  averaged?: boolean;
  /** count: the places counted are asked for too ("and which ones", "name them", "which states had …"). */
  names?: boolean;
  /** share: the part is written before its whole ("VA loans as a share of all originations"). */
  partFirst?: boolean;
  /** A direction the question takes for granted ("why did the limit go down in 2023"): checked against the figures. */
  claimed?: 'up' | 'down';
  /** extremes: what is asked of the high and low beyond them (the payment at each, or the time between). */
  then?: 'payment' | 'apart';
  /** "Compared with the same week a year earlier": the latest figure against the one a year before it. */
  yearEarlier?: boolean;
  /** An actor's move taken for granted that no data here holds ("when the Fed raised rates"), as written. */
  claimedActor?: string;
}

/** A span of the question, in days: `from`–`to` inclusive (ISO dates), with the grain it was said in. */
export interface TimeSlot {
  /** `season`: a run of months named as a whole (a season, a half of a year). */
  grain: 'day' | 'week' | 'month' | 'quarter' | 'season' | 'year' | 'latest';
  from: string;
  to: string;
  /** The words, as written. */
  text: string;
  /** "since 2019": runs to the latest figure. */
  open?: boolean;
  /** How a relative or named time was read ("this past summer" → June–August 2026). */
  readAs?: string;
  /** A Fed meeting named by month ("the December 2024 Fed meeting"): resolved against the calendar. */
  fedMeeting?: { year: number; month: number; week: boolean };
}

/**
 * How times relate: one moment each, a range from the first to the last, each listed, or one period
 * asked on its own ("how much did the rate change in 2024": within it, first figure to last).
 */
export type TimeRelation = 'each' | 'range' | 'since' | 'within';

/** A place kind the question ranges over ("states", "each county of Texas", "counties"). */
export interface PlaceSet {
  among: 'states' | 'counties';
  /** Counties of this state only. */
  state?: string;
  /** "Which counties …" (not "which county"): more than one place is asked for. */
  plural?: boolean;
  /** "the states with the most counties …": the counties, counted by state. */
  by?: 'state';
  /** "with more than 100,000 residents". */
  filter?: { measure: 'population'; op: 'above' | 'below'; value: number };
}

export interface Qualifiers {
  units?: number;
  /** Every number of units named, in order ("a 4-unit home … a one-unit home"). */
  unitsAll?: number[];
  program?: 'conforming' | 'fha' | 'va' | 'usda' | 'jumbo' | 'conventional';
  /** Every program named, in order ("the jumbo index than the conforming index"). */
  programsAll?: string[];
  /** Every term named ("the 15-year rate than the 30-year"). */
  termsAll?: number[];
  termYears?: number;
  purpose?: string;
  /** Every purpose named, in order ("refinances, counting cash-out refis too"). */
  purposesAll?: string[];
  lender?: string;
  tract?: string;
  zip?: string;
  metro?: string;
  creditScore?: number;
}

export interface Threshold {
  /** `equal`: "at the FHA ceiling". */
  op: 'above' | 'below' | 'equal';
  /** A number in the measure's units, or a series id ("above the baseline"). */
  value: number | string;
  text: string;
  /** The number is a percent of a whole ("above 30%", "more than half"): a share, not a count. */
  percent?: boolean;
}

export interface NumberSlot {
  amount?: number;
  rate?: number;
  termYears?: number;
  termsAll?: number[];
  topN?: number;
  /** Which place after the top ones ("after Maricopa", "second"). */
  ordinal?: number;
  threshold?: Threshold;
  per?: number;
}

/** A measure as the question names it: the catalogue entry it matched and the words that matched. */
export interface MeasureSlot {
  /** A catalogue template with `{place}` where the place goes, or a national series id. */
  template: string;
  family: string;
  title: string;
  /** The catalogue's kind: count, share, rate, limit, population. */
  kind: string;
  /** What the measure stands for, as the catalogue says (`{program: 'fha', units: 1}`). */
  qualifiers: Readonly<Record<string, string | number>>;
  /** A share's part and whole, as templates. */
  share?: { part: string; whole: string };
  words: string[];
}

export interface Refusal {
  /** The part of the question that cannot be answered, in its words. */
  part: string;
  /** Why, in one clause, and what is held instead. */
  why: string;
  /** True when the rest of the question cannot be answered without it (a lender's count is not the county's). */
  blocking: boolean;
}

export interface Frame {
  question: string;
  operation: OperationSlot;
  measures: MeasureSlot[];
  /** The broad subject when no catalogue measure matched (a rate, a limit, HMDA, the calendar). */
  topic?: string;
  places: Place[];
  placeSet?: PlaceSet;
  times: TimeSlot[];
  timeRelation: TimeRelation;
  qualifiers: Qualifiers;
  numbers: NumberSlot;
  /** Parts that cannot be answered or make no sense, said first. */
  refusals: Refusal[];
  /** How words were read (a city as its county, a relative date). */
  readings: string[];
  /** Measures asked for that no source here publishes, as written. */
  unheld: string[];
  /** Names written where a place goes that the gazetteer does not know ("in Toronto", "of Mars"). */
  unknownPlaces?: string[];
  /** Words that name a measure none of the measures read matched ("limit" read as USDA records). */
  measureGaps: string[];
  /** Content words no slot consumed, as written. */
  unread: string[];
}
