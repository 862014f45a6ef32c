// The economic calendar capability: events by date range, impact and category, with their sources.
// Shared by GET /calendar, the MCP tool get_economic_calendar, /ask and the /calendar page.
//
// Every event is held in memory (./snapshot.ts), read after each load of the `economic_calendar`
// dataset: a request compares the dataset record (itself cached by DatasetStatus, re-read at most
// every few seconds or as soon as a sync publishes) with the snapshot's and filters an array. The
// serialised answer of each distinct request is remembered until the next load.
import type { Clock } from '../platform/clock.ts';
import type { Queryable } from '../platform/db/database.ts';
import type { DatasetRecord, DatasetStatus } from '../platform/datasets.ts';
import { currentVersion, publicVersions, type DatasetVersions } from '../platform/dataset-versions.ts';
import type { DatasetVersion } from '../platform/contract/versions.ts';
import { BadRequestError } from '../platform/errors.ts';
import { BoundedCache, rememberedAnswerBytes } from '../platform/bounded-cache.ts';
import { preSerialize, type PreSerialized } from '../platform/pre-serialized.ts';
import { CALENDAR_LIMIT_DEFAULT, CALENDAR_WINDOW_DAYS, type CalendarAnswer, type CalendarQuery } from './contract.ts';
import { writeIcs } from './ics-writer.ts';
import {
  archiveCalendar,
  calendarSnapshotOf,
  publisherOf,
  readCalendarSnapshot,
  selectEvents,
  type CalendarArchive,
  type CalendarSnapshot,
  type SnapshotEvent,
} from './snapshot.ts';
import { CALENDAR_DATASET } from './sync.ts';
import { CATEGORIES, IMPACTS } from './series.ts';
import { addDays, isoDay } from '../platform/dates.ts';

/** The calendar as a request may ask it: every field of the contract's query, the limit optional. */
export type CalendarRequest = Omit<CalendarQuery, 'limit'> & { limit?: number | undefined };

export interface CalendarService {
  /** The answer every face gives. */
  answer(query: CalendarRequest): Promise<CalendarAnswer>;
  /** The same answer serialised once per distinct request: the REST hot path. */
  answerJson(query: CalendarRequest): Promise<PreSerialized<CalendarAnswer>>;
  /** The same events as an iCalendar document; `host` names our events' UIDs. */
  ics(query: CalendarRequest, host: string): Promise<string>;
  /** Forgets the snapshot: the next request reads the events again. */
  invalidate(): void;
}

/** Bytes of remembered answers (their JSON and objects); the least recently used go first. */
const MAX_REMEMBERED_BYTES = 8 * 1024 * 1024;
/** Pinned (`as_of`) snapshots kept in memory (a few hundred events each: counted, not sized). */
const MAX_PINNED_SNAPSHOTS = 4;

const answerCacheOf = (maxBytes: number) => new BoundedCache<Remembered>({ maxBytes, sizeOf: rememberedAnswerBytes });

interface Resolved {
  from: string;
  to: string;
  impacts: readonly (typeof IMPACTS)[number][];
  categories: readonly (typeof CATEGORIES)[number][];
  limit: number;
  key: string;
}

interface Remembered {
  answer: CalendarAnswer;
  json: PreSerialized<CalendarAnswer>;
  events: SnapshotEvent[];
}

const versionOf = (record: DatasetRecord): string => `${record.loadedAt}|${record.checksum ?? ''}`;

const coverages = new WeakMap<CalendarSnapshot, CalendarAnswer['coverage']>();

/** Where each publisher's schedule ends in a snapshot (its last event), earliest first; once per snapshot. */
export function coverageOf(data: CalendarSnapshot): CalendarAnswer['coverage'] {
  let coverage = coverages.get(data);
  if (!coverage) {
    const through = new Map<string, string>();
    for (const event of data.events) {
      const publisher = publisherOf(event);
      if ((through.get(publisher) ?? '') < event.date) through.set(publisher, event.date);
    }
    coverage = [...through]
      .map(([publisher, date]) => ({ publisher, through: date }))
      .sort((a, b) => a.through.localeCompare(b.through) || a.publisher.localeCompare(b.publisher));
    coverages.set(data, coverage);
  }
  return coverage;
}

export function createCalendarService({
  db,
  datasets,
  versions,
  clock,
}: {
  db: Queryable;
  datasets: DatasetStatus;
  versions: DatasetVersions;
  clock: Clock;
}): CalendarService {
  let snapshot: (CalendarSnapshot & { versions: DatasetVersion[] }) | undefined;
  let loading: { version: string; promise: Promise<CalendarSnapshot & { versions: DatasetVersion[] }> } | undefined;
  let remembered = answerCacheOf(MAX_REMEMBERED_BYTES);

  /** The snapshot of the dataset's current load (503 while the calendar has never been loaded). */
  async function current(): Promise<CalendarSnapshot & { versions: DatasetVersion[] }> {
    const record = await datasets.require(CALENDAR_DATASET);
    const version = versionOf(record);
    if (snapshot?.version === version) return snapshot;
    if (loading?.version === version) return loading.promise;
    const promise = readCalendarSnapshot(db, { version, asOf: record.asOf, loadedAt: record.loadedAt }).then(
      (read) => {
        const fresh = { ...read, versions: [currentVersion(record)] };
        // A slower read of an older load must not replace a newer snapshot.
        if (loading?.promise === promise) {
          snapshot = fresh;
          remembered = answerCacheOf(MAX_REMEMBERED_BYTES);
          loading = undefined;
        }
        return fresh;
      },
      (error: unknown) => {
        if (loading?.promise === promise) loading = undefined;
        throw error;
      },
    );
    loading = { version, promise };
    return promise;
  }

  function resolve(query: CalendarRequest): Resolved {
    const from = query.from ?? isoDay(clock());
    const to = query.to ?? addDays(from, CALENDAR_WINDOW_DAYS);
    // A rule across two fields: checked here, where every face passes.
    if (from > to) throw new BadRequestError(`'from' must not be after 'to' (${from} is after ${to}); give a 'from' on or before 'to'.`);
    const impacts = query.impact?.length ? IMPACTS.filter((impact) => query.impact?.includes(impact)) : [...IMPACTS];
    const categories = query.category?.length ? CATEGORIES.filter((category) => query.category?.includes(category)) : [...CATEGORIES];
    const limit = query.limit ?? CALENDAR_LIMIT_DEFAULT;
    return { from, to, impacts, categories, limit, key: [from, to, impacts.join(','), categories.join(','), limit].join('|') };
  }

  function compose(data: CalendarSnapshot & { versions: DatasetVersion[] }, request: Resolved): Remembered {
    const { events, total } = selectEvents(data, {
      from: request.from,
      to: request.to,
      impacts: new Set(request.impacts),
      categories: new Set(request.categories),
      limit: request.limit,
    });
    const sources = new Map<string, string>();
    for (const event of events) if (!sources.has(event.sourceUrl)) sources.set(event.sourceUrl, publisherOf(event));
    const answer: CalendarAnswer = {
      from: request.from,
      to: request.to,
      events: events.map((event) => ({
        name: event.name,
        date: event.date,
        impact: event.impact,
        category: event.category,
        description: event.description,
        source_url: event.sourceUrl,
      })),
      total,
      limit: request.limit,
      as_of: data.asOf,
      coverage: coverageOf(data),
      sources: [...sources].map(([url, name]) => ({ url, as_of: data.asOf, name })),
      dataset_versions: data.versions,
    };
    return { answer, json: preSerialize(answer), events };
  }

  const pinnedSnapshots = new BoundedCache<{
    data: Promise<CalendarSnapshot & { versions: DatasetVersion[] }>;
    answers: BoundedCache<Remembered>;
  }>({
    maxBytes: MAX_PINNED_SNAPSHOTS,
    sizeOf: () => 1,
  });

  /** The events as this service held them at the end of `day`, with the answers given from them. */
  async function pinned(day: string) {
    const [pin] = await versions.pin({ required: [CALENDAR_DATASET] }, day);
    if (!pin || pin.current) return undefined;
    let entry = pinnedSnapshots.get(pin.version);
    if (!entry) {
      const data = versions
        .snapshot<CalendarArchive>(pin, () => archiveCalendar(db))
        .then((archive) => ({
          ...calendarSnapshotOf(archive.events, { version: pin.version, asOf: pin.as_of, loadedAt: pin.publishedAt }),
          versions: publicVersions([pin]),
        }));
      entry = { data, answers: answerCacheOf(MAX_REMEMBERED_BYTES / MAX_PINNED_SNAPSHOTS) };
      const key = pin.version;
      data.catch(() => pinnedSnapshots.delete(key));
      pinnedSnapshots.set(key, entry);
    }
    return entry;
  }

  async function answered(query: CalendarRequest): Promise<Remembered & { data: CalendarSnapshot }> {
    const request = resolve(query);
    const pinnedEntry = query.as_of === undefined ? undefined : await pinned(query.as_of);
    if (pinnedEntry) {
      const data = await pinnedEntry.data;
      const hit = pinnedEntry.answers.get(request.key);
      if (hit) return { ...hit, data };
      const fresh = compose(data, request);
      pinnedEntry.answers.set(request.key, fresh);
      return { ...fresh, data };
    }
    const data = await current();
    const hit = remembered.get(request.key);
    if (hit && snapshot === data) return { ...hit, data };
    const fresh = compose(data, request);
    if (snapshot === data) {
      remembered.set(request.key, fresh);
    }
    return { ...fresh, data };
  }

  return {
    async answer(query) {
      return (await answered(query)).answer;
    },
    async answerJson(query) {
      return (await answered(query)).json;
    },
    async ics(query, host) {
      const { events, data } = await answered(query);
      return writeIcs(
        events.map((event) => ({
          uid: `${event.series}-${event.date.replace(/-/g, '')}@${host}`,
          date: event.date,
          summary: event.name,
          description: `${event.description} Impact: ${event.impact}. Source: ${event.sourceUrl}`,
          categories: [event.category, `${event.impact} impact`],
          url: event.sourceUrl,
        })),
        { name: 'Economic calendar (Mortgage Data Service)', stamp: new Date(data.loadedAt) },
      );
    },
    invalidate() {
      snapshot = undefined;
      loading = undefined;
      remembered = answerCacheOf(MAX_REMEMBERED_BYTES);
      datasets.invalidate();
    },
  };
}
