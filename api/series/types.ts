// What the series service holds in memory: each series as parallel arrays (dates, values), with
// what it is and where it comes from, grouped in families that load from their own datasets.
import type { DatasetRecord } from '../platform/datasets.ts';
import type { FamilyId, Frequency } from './contract.ts';

export interface HeldSeries {
  /** Canonical id, e.g. `pmms/30-year`. */
  id: string;
  title: string;
  family: FamilyId;
  publisher: string;
  frequency: Frequency;
  units: string;
  /** YYYY-MM-DD, ascending: the publisher's dates (quarter end, January 1 of an annual figure). */
  dates: readonly string[];
  /** The period each value covers for quarterly and annual series ("2025Q3", "2026"); absent for daily and weekly ones. */
  periods?: readonly string[];
  values: (number | null)[];
  /** The publisher's page or file cited for the values. */
  sourceUrl: string;
  sourceName: string;
  /** Further sources the values cite (the national loan-limit history cites one per year). */
  otherSources?: { url: string; name: string }[];
  asOf: string | null;
  /** Two-letter code of the state the series covers, for the catalogue's filter. */
  state?: string;
  /** The place the series covers as people name it ("Los Angeles County, CA", "Texas"), where it covers one. */
  place?: string;
  aliases?: string[];
  /** Said on every answer of the series (what the figure is and is not). */
  notes: readonly string[];
  /**
   * Periods whose value is computed here rather than published (the 2026 FHA floor from FHFA's
   * baseline), each with its method: every face labels such a figure computed.
   */
  computed?: Readonly<Record<string, string>>;
}

export interface FamilyDescription {
  id: FamilyId;
  title: string;
  publisher: string;
  frequency: Frequency;
  idPattern: string;
  example: string;
  /** Datasets that must be loaded for the family to answer (empty: a file shipped with the code). */
  datasets: readonly string[];
  /** Whether a (lower-cased) id is written in this family's syntax. */
  claims(id: string): boolean;
}

/**
 * A family's series by canonical id. Families held whole are a Map; a family whose series are made
 * when read (the HMDA aggregates: hundreds of thousands of series from one table of counts) says
 * the ids of a cross-section itself, so a ranking does not make every series of the family.
 */
export interface HeldFamily extends ReadonlyMap<string, HeldSeries> {
  /** The ids a template with one `*` for the place (lower case) can stand for, when the family can list them without a scan. */
  idsLike?(template: string): Iterable<string> | undefined;
  /** The ids from the `offset`-th on, in the family's order, without making those before (a deep catalogue page). */
  keysFrom?(offset: number): Iterable<string>;
}

export interface SeriesFamily extends FamilyDescription {
  /**
   * Every series of the family, read from its datasets (`records`: theirs, in the order of
   * `datasets`): a list held whole, or a family that makes its series when they are read.
   */
  load(records: readonly DatasetRecord[]): Promise<HeldSeries[] | HeldFamily>;
  /** The canonical id for an id in this family's syntax (case, aliases), or undefined. */
  canonical(id: string): string | undefined;
}
