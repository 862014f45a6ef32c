// The series service behind GET /series, GET /series/{id}, the MCP resource, /ask and the site's
// charts. Each family of series is held in memory, read from its own datasets and re-read when a
// sync publishes a new load of one of them (so one publisher's missing data never hides another's).
// Answers are remembered per normalised question, serialised, until the family is re-read.
import type { Queryable } from '../platform/db/database.ts';
import type { Logger } from '../platform/logger.ts';
import type { DatasetStatus } from '../platform/datasets.ts';
import { HttpError, NotFoundError } from '../platform/errors.ts';
import { parseOrThrow } from '../platform/validation.ts';
import { BoundedCache } from '../platform/bounded-cache.ts';
import { preSerialize, type PreSerialized } from '../platform/pre-serialized.ts';
import {
  CatalogueQuerySchema,
  FAMILY_IDS,
  SeriesQuerySchema,
  type FamilyId,
  type CatalogueAnswer,
  type CatalogueQuery,
  type SeriesAnswer,
  type SeriesInfo,
  type SeriesQuery,
} from './contract.ts';
import { answerCsv, buildAnswer, csvFileName, seriesInfo } from './answer.ts';
import { buildCatalogue, type FamilyState } from './catalogue.ts';
import { datasetSnapshot, type DatasetSnapshot } from '../platform/dataset-snapshot.ts';
import type { HeldFamily, HeldSeries, SeriesFamily } from './types.ts';
import { shareRepeats } from './share-repeats.ts';
import { optimalBlueFamily, pmmsFamily } from './families/rates.ts';
import { nmdbFamily } from './families/nmdb.ts';
import { countyLimitFamily, nationalLimitFamily } from './families/loan-limits.ts';
import { hmdaCountyFamily, hmdaFamily } from './families/hmda.ts';
import { populationFamily } from './families/population.ts';
import { incomeLimitFamily } from './families/income-limits.ts';
import { currentVersion } from '../platform/dataset-versions.ts';
import type { DatasetVersion } from '../platform/contract/versions.ts';

/** Bytes of remembered bodies per family copy (JSON and CSV each), and of catalogue pages: the least recently used go first. */
const MAX_ANSWER_BYTES_PER_FAMILY = 8 * 1024 * 1024;
const MAX_CATALOGUE_BYTES = 4 * 1024 * 1024;
/** Bodies above this size are not remembered (a daily series since 2017 is about 80 KB). */
const MAX_REMEMBERED_BYTES = 512 * 1024;
/** Requested ids resolved to their family and canonical id (a few dozen bytes each). */
const MAX_RESOLVED_BYTES = 1024 * 1024;

export interface CsvAnswer {
  text: string;
  fileName: string;
}

export interface SeriesService {
  /**
   * The catalogue page for the given filters (validated like the REST query). Words (`query`) are
   * the catalogue's to read: with them, `ranked` lists the matching ids best first, and the page
   * holds those of them the other filters keep, in that order.
   */
  catalogue(query: unknown, ranked?: readonly string[]): Promise<CatalogueAnswer>;
  catalogueJson(query: CatalogueQuery, ranked?: readonly string[]): Promise<PreSerialized<CatalogueAnswer>>;
  /** One series in a range (validated like the REST query): every face but REST's hot path. */
  answer(id: string, query?: unknown): Promise<SeriesAnswer>;
  /** The serialised JSON answer for an already-validated query: the REST hot path. */
  answerJson(id: string, query: SeriesQuery): Promise<PreSerialized<SeriesAnswer>>;
  answerCsv(id: string, query: SeriesQuery): Promise<CsvAnswer>;
  /** What a series is (no observations), or a 404 like answer(). */
  info(id: string): Promise<SeriesInfo>;
  /** Ids of the series held that start with `prefix` (any case), for argument completion. */
  complete(prefix: string, limit?: number): Promise<string[]>;
  /** One series as held (dates and values), with the loads it was read from: for computations over it. */
  read(id: string): Promise<ReadSeries>;
  /** Every series of one family as held, with the loads they were read from (cross-sections: ranks, counts). */
  readFamily(family: FamilyId): Promise<{ series: HeldFamily; versions: readonly DatasetVersion[] }>;
  /** The family an id belongs to (its syntax, not whether it is held), or undefined. */
  familyOf(id: string): FamilyId | undefined;
  /** The canonical form of an id in any accepted form (`MORTGAGE30US`, `hmda/hi/va`), held or not; undefined when no family reads it. */
  canonicalId(id: string): string | undefined;
  /** Drops every held copy; the next request reads the datasets again. */
  invalidate(): void;
}

export interface ReadSeries {
  series: HeldSeries;
  versions: readonly DatasetVersion[];
}

interface FamilyCopy {
  /** The series by id, in the family's order, as the catalogue lists them (described only for the page asked for). */
  byId: HeldFamily;
  json: BoundedCache<PreSerialized<SeriesAnswer>>;
  csv: BoundedCache<CsvAnswer>;
  /** The loads the copy was read from, as answers name them. */
  versions: DatasetVersion[];
}

export function unknownSeriesError(id: string, baseUrl: string): NotFoundError {
  const shown = id.length > 80 ? `${id.slice(0, 77)}...` : id;
  return new NotFoundError(
    `No series "${shown}". Find its id with the MCP tool find_series {"query":"<measure and place in words>"}, or the catalogue at ${baseUrl}/api/v1/series?query= (filter it with family, state or query); ` +
      'ids look like pmms/30-year, optimal-blue/conforming-30-year, nmdb/CA/ave_intrate, loan-limits/conforming/06037 or hmda/TX/denial_rate.',
  );
}

/** Ids people write for a series of another family: the residents of an HMDA place (`hmda/06037/population`). */
const redirect = (lower: string) => lower.replace(/^hmda\/([a-z]{2}|\d{5})\/(population|residents)$/, 'population/$1');

/** A cache of bodies bounded by their bytes (a JSON or CSV body is mostly one-byte characters). */
const bodyCache = <T extends NonNullable<unknown>>(maxBytes: number, bodyOf: (value: T) => string) =>
  new BoundedCache<T>({ maxBytes, sizeOf: (value, key) => bodyOf(value).length + 2 * key.length + 64 });

export function createSeriesService({
  db,
  logger: parentLogger,
  baseUrl,
  datasets,
  checkIntervalMs,
}: {
  db: Queryable;
  logger: Logger;
  /** The site's address, for the links answers and errors carry. */
  baseUrl: string;
  datasets: DatasetStatus;
  /** How often a request may start a background check for a newer sync (default 5 s). */
  checkIntervalMs?: number;
}): SeriesService {
  const logger = parentLogger.child({ service: 'series' });
  const families: SeriesFamily[] = [
    pmmsFamily(db),
    optimalBlueFamily(db),
    nmdbFamily(db),
    nationalLimitFamily(),
    countyLimitFamily('conforming', db),
    countyLimitFamily('fha', db),
    incomeLimitFamily(db),
    hmdaFamily(db),
    hmdaCountyFamily(db),
    populationFamily(db),
  ].sort((a, b) => FAMILY_IDS.indexOf(a.id) - FAMILY_IDS.indexOf(b.id));

  const copies = new Map<SeriesFamily, DatasetSnapshot<FamilyCopy>>(
    families.map((family) => [
      family,
      datasetSnapshot<FamilyCopy>({
        datasets,
        names: family.datasets,
        logger,
        label: `series ${family.id}`,
        ...(checkIntervalMs === undefined ? {} : { checkIntervalMs }),
        read: async (records) => {
          const loaded = await family.load(records);
          return {
            byId: Array.isArray(loaded) ? new Map(shareRepeats(loaded).map((series) => [series.id, series])) : loaded,
            json: bodyCache<PreSerialized<SeriesAnswer>>(MAX_ANSWER_BYTES_PER_FAMILY, (body) => body),
            csv: bodyCache<CsvAnswer>(MAX_ANSWER_BYTES_PER_FAMILY, (csv) => csv.text),
            versions: records.map(currentVersion),
          };
        },
      }),
    ]),
  );

  /** Requested id → its family and canonical id; a bounded memo, since ids repeat. */
  const resolved = new BoundedCache<{ family: SeriesFamily; id: string }>({
    maxBytes: MAX_RESOLVED_BYTES,
    sizeOf: (found, key) => 2 * (key.length + found.id.length) + 64,
  });
  function resolveOrUndefined(id: string): { family: SeriesFamily; id: string } | undefined {
    const hit = resolved.get(id);
    if (hit) return hit;
    const lower = redirect(
      id
        .trim()
        .replace(/^\/+|\/+$/g, '')
        .toLowerCase(),
    );
    for (const family of families) {
      if (!family.claims(lower)) continue;
      const canonical = family.canonical(lower);
      if (canonical === undefined) return undefined;
      const found = { family, id: canonical };
      resolved.set(id, found);
      return found;
    }
    return undefined;
  }
  function resolve(id: string): { family: SeriesFamily; id: string } {
    const found = resolveOrUndefined(id);
    if (!found) throw unknownSeriesError(id, baseUrl);
    return found;
  }

  async function held(id: string): Promise<{ copy: FamilyCopy; series: HeldSeries }> {
    const { family, id: canonical } = resolve(id);
    const copy = await (copies.get(family) as DatasetSnapshot<FamilyCopy>).get();
    const series = copy.byId.get(canonical);
    if (!series) throw unknownSeriesError(canonical, baseUrl);
    return { copy, series };
  }

  const answerKey = (series: HeldSeries, query: SeriesQuery) =>
    `${series.id}\u0000${query.from ?? ''}\u0000${query.to ?? ''}\u0000${query.frequency}`;

  let catalogueCache: { copies: (FamilyCopy | string)[]; pages: BoundedCache<PreSerialized<CatalogueAnswer>> } | undefined;

  async function familyStates(): Promise<{ states: FamilyState[]; versions: (FamilyCopy | string)[] }> {
    const states: FamilyState[] = [];
    const versions: (FamilyCopy | string)[] = [];
    for (const family of families) {
      try {
        const copy = await (copies.get(family) as DatasetSnapshot<FamilyCopy>).get();
        states.push({ family, series: copy.byId });
        versions.push(copy);
      } catch (error) {
        // A family whose datasets cannot answer is listed with the reason; the others still answer.
        if (!(error instanceof HttpError)) throw error;
        states.push({ family, series: { message: error.message } });
        versions.push(error.message);
      }
    }
    return { states, versions };
  }

  async function cataloguePage(query: CatalogueQuery, ranked?: readonly string[]): Promise<PreSerialized<CatalogueAnswer>> {
    if (query.query !== undefined && ranked === undefined)
      throw new Error('series catalogue: words are read by the catalogue of measures (services.catalogue), which ranks the ids');
    const { states, versions } = await familyStates();
    if (!catalogueCache || catalogueCache.copies.some((version, index) => version !== versions[index])) {
      catalogueCache = { copies: versions, pages: bodyCache<PreSerialized<CatalogueAnswer>>(MAX_CATALOGUE_BYTES, (page) => page) };
    }
    const key = JSON.stringify([query.family, query.state, query.query, query.limit, query.offset]);
    const hit = catalogueCache.pages.get(key);
    if (hit) return hit;
    const page = preSerialize(
      buildCatalogue(
        states,
        query,
        (series) => seriesInfo(series, baseUrl),
        ranked,
        (id) => resolveOrUndefined(id)?.family.id,
      ),
    );
    catalogueCache.pages.set(key, page);
    return page;
  }

  async function json(id: string, query: SeriesQuery): Promise<PreSerialized<SeriesAnswer>> {
    const { copy, series } = await held(id);
    const key = answerKey(series, query);
    const hit = copy.json.get(key);
    if (hit) return hit;
    const body = preSerialize(buildAnswer(series, query, baseUrl, copy.versions));
    if (body.length <= MAX_REMEMBERED_BYTES) copy.json.set(key, body);
    return body;
  }

  return {
    async catalogue(input, ranked) {
      return JSON.parse(await cataloguePage(parseOrThrow(CatalogueQuerySchema, input ?? {}, 'query'), ranked)) as CatalogueAnswer;
    },
    catalogueJson: cataloguePage,
    async answer(id, input) {
      const query = parseOrThrow(SeriesQuerySchema, input ?? {}, 'query');
      const { copy, series } = await held(id);
      return buildAnswer(series, query, baseUrl, copy.versions);
    },
    answerJson: json,
    async answerCsv(id, query) {
      const { copy, series } = await held(id);
      const key = answerKey(series, query);
      const hit = copy.csv.get(key);
      if (hit) return hit;
      const answer = buildAnswer(series, query, baseUrl, copy.versions);
      const csv = { text: answerCsv(answer), fileName: csvFileName(answer) };
      if (csv.text.length <= MAX_REMEMBERED_BYTES) copy.csv.set(key, csv);
      return csv;
    },
    async info(id) {
      const { series } = await held(id);
      return seriesInfo(series, baseUrl);
    },
    async complete(prefix, limit = 20) {
      const lower = prefix.trim().toLowerCase();
      const found: string[] = [];
      for (const family of families) {
        if (found.length >= limit) break;
        // Only families the prefix could belong to are read (every one for a blank prefix).
        if (lower !== '' && !family.id.startsWith(lower.split('/')[0] ?? '') && !lower.startsWith(family.example.split('/')[0] ?? ''))
          continue;
        let copy: FamilyCopy;
        try {
          copy = await (copies.get(family) as DatasetSnapshot<FamilyCopy>).get();
        } catch {
          continue; // a family that cannot answer offers nothing to complete
        }
        for (const id of copy.byId.keys()) {
          if (id.toLowerCase().startsWith(lower)) found.push(id);
          if (found.length >= limit) break;
        }
      }
      return found;
    },
    async read(id) {
      const { copy, series } = await held(id);
      return { series, versions: copy.versions };
    },
    async readFamily(id) {
      const family = families.find((candidate) => candidate.id === id) as SeriesFamily;
      const copy = await (copies.get(family) as DatasetSnapshot<FamilyCopy>).get();
      return { series: copy.byId, versions: copy.versions };
    },
    familyOf(id) {
      const lower = redirect(
        id
          .trim()
          .replace(/^\/+|\/+$/g, '')
          .toLowerCase(),
      );
      return families.find((family) => family.claims(lower))?.id;
    },
    canonicalId(id) {
      return resolveOrUndefined(id)?.id;
    },
    invalidate() {
      for (const snapshot of copies.values()) snapshot.invalidate();
      catalogueCache = undefined;
      datasets.invalidate();
    },
  };
}
