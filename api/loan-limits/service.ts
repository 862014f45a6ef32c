// Loan limits for a state or one county: conforming (FHFA), FHA (HUD), VA (the conforming limit) and
// USDA (no limit), 1–4 units, with each figure's source and as-of date. The REST route, the MCP tool
// `get_loan_limits`, /ask, the page and the MCP resource all answer through this service. Answers
// come from an in-memory snapshot of the synced tables (./snapshot.ts), replaced when a loan-limit
// dataset is reloaded, and each distinct answer is remembered serialised until then.
import type { Clock } from '../deps.ts';
import type { Queryable } from '../platform/db/database.ts';
import type { DatasetRecord, DatasetStatus } from '../platform/datasets.ts';
import { currentVersions, publicVersions, type DatasetVersions, type PinnedVersion } from '../platform/dataset-versions.ts';
import type { DatasetVersion } from '../platform/contract/versions.ts';
import { preSerialize, type PreSerialized } from '../platform/http/api-registry.ts';
import { parseOrThrow } from '../platform/http/validation.ts';
import { composeAnswer, DATASET, programsFor, type ResolvedRequest } from './answer.ts';
import {
  LoanLimitsQuerySchema,
  type LoanLimitHistory,
  type LoanLimitHistoryQuery,
  type LoanLimitsAnswer,
  type LoanLimitsQuery,
  type LoanLimitsQueryInput,
  type Program,
} from './contract.ts';
import { readNationalHistory, type NationalHistory } from './history.ts';
import { historyView } from './history-view.ts';
import { resolveCounty, resolveState, type CountyRecord } from './resolve.ts';
import { archiveCounties, archiveProgram, readSnapshot, snapshotFromArchives, type CountiesArchive, type LoanLimitSnapshot, type ProgramArchive } from './snapshot.ts';

export { USDA_NOTE, VA_NOTE } from './answer.ts';

/** Datasets whose loads the snapshot is read under: a new load of any of them replaces it. */
const WATCHED = ['counties', DATASET.conforming, DATASET.fha];
/** Distinct answers remembered; the oldest goes first (a flood of distinct queries only costs a compose). */
const MAX_REMEMBERED = 2_000;
/** And at most this many characters of JSON in all (a whole large state is about 150,000). */
const MAX_REMEMBERED_CHARS = 32_000_000;
/** Pinned (`as_of`) snapshots kept in memory, and pinned answers remembered across them. */
const MAX_PINNED_SNAPSHOTS = 3;
const MAX_PINNED_ANSWERS = 500;

export interface LoanLimitsService {
  /** The answer for parsed parameters. */
  answer(query: LoanLimitsQuery): Promise<LoanLimitsAnswer>;
  /** The same answer serialised: the REST hot path. */
  answerJson(query: LoanLimitsQuery): Promise<PreSerialized<LoanLimitsAnswer>>;
  /** The answer for parameters as a page, /ask or a resource has them (parsed with the contract's query schema). */
  getLoanLimits(params: LoanLimitsQueryInput): Promise<LoanLimitsAnswer>;
  /** The counties of a state or territory from the loaded `counties` dataset, sorted by name (a 503 saying why before it is loaded). */
  counties(state: string): Promise<readonly CountyRecord[]>;
  /** The states and territories with counties loaded and the years with county limits of any program (a 503 before they load). */
  coverage(): Promise<{ states: readonly string[]; years: number[] }>;
  /** The national history fact file (conforming since 1972, FHA since 2008), with sources. */
  nationalHistory(): NationalHistory;
  /** The national history as served (GET /loan-limits/history): a program and year range, each figure with its source. */
  history(query: LoanLimitHistoryQuery): LoanLimitHistory;
}

interface Remembered {
  answer: LoanLimitsAnswer;
  json: PreSerialized<LoanLimitsAnswer>;
}

/** Frozen all the way down: a remembered answer is handed to every caller and must stay as it was. */
function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
  }
  return value;
}

export function createLoanLimitsService(
  db: Queryable,
  options: { datasets: DatasetStatus; versions: DatasetVersions; clock?: Clock },
): LoanLimitsService {
  const { datasets, versions } = options;
  const clock = options.clock ?? (() => new Date());
  let snapshot: { version: string; data: Promise<LoanLimitSnapshot> } | undefined;
  let seen: { records: DatasetRecord[]; version: string; versions: DatasetVersion[] } | undefined;
  const remembered = new Map<string, Remembered>();
  let rememberedChars = 0;

  /** The records of the datasets a request needs (a 503 saying why when one is missing) and the snapshot's version. */
  async function current(
    programs: readonly Program[],
  ): Promise<{ version: string; versions: DatasetVersion[]; records: Map<Program, DatasetRecord | undefined> }> {
    const list = await datasets.list(); // cached by the dataset status for a few seconds
    if (seen?.records !== list) {
      const version = list
        .filter((record) => WATCHED.includes(record.name))
        .map((record) => `${record.name}@${record.loadedAt}`)
        .join(',');
      seen = { records: list, version, versions: currentVersions(list, WATCHED) };
    }
    const byName = (name: string) => list.find((record) => record.name === name);
    if (!byName('counties')) await datasets.require('counties'); // throws the 503 saying why
    const records = new Map<Program, DatasetRecord | undefined>();
    for (const program of programs) records.set(program, byName(DATASET[program]) ?? (await datasets.require(DATASET[program])));
    return { version: seen.version, versions: seen.versions, records };
  }

  function dataAt(version: string): Promise<LoanLimitSnapshot> {
    if (snapshot?.version !== version) {
      const data = readSnapshot(db, version);
      snapshot = { version, data };
      remembered.clear();
      rememberedChars = 0;
      // A failed read is not kept: the next request reads again.
      data.catch(() => {
        if (snapshot?.data === data) snapshot = undefined;
      });
    }
    return snapshot.data;
  }

  function remember(key: string, entry: Remembered): void {
    while (remembered.size > 0 && (remembered.size >= MAX_REMEMBERED || rememberedChars + entry.json.length > MAX_REMEMBERED_CHARS)) {
      const [oldestKey, oldest] = remembered.entries().next().value as [string, Remembered];
      remembered.delete(oldestKey);
      rememberedChars -= oldest.json.length;
    }
    remembered.set(key, entry);
    rememberedChars += entry.json.length;
  }

  /** The request's state and county found in a snapshot, and the key its answer is remembered under. */
  function resolveIn(data: LoanLimitSnapshot, query: LoanLimitsQuery): { request: ResolvedRequest; key: string; currentYear: number } {
    const state = resolveState(data.states, query.state);
    const county = query.county === undefined || query.county === '' ? undefined : resolveCounty(data.countiesOf(state), state, query.county);
    const currentYear = clock().getFullYear();
    // The default year depends on today's year, so it is part of what an answer is remembered for.
    const key = `${currentYear}|${state}|${county?.fips ?? ''}|${query.year ?? ''}|${query.loan_type}|${query.units ?? ''}`;
    return { request: { state, county, year: query.year, loanType: query.loan_type, units: query.units }, key, currentYear };
  }

  async function lookup(query: LoanLimitsQuery): Promise<Remembered> {
    if (query.as_of !== undefined) return pinnedLookup({ ...query, as_of: query.as_of });
    const { version, versions: loaded, records } = await current(programsFor(query.loan_type));
    const data = await dataAt(version);
    const { request, key, currentYear } = resolveIn(data, query);
    const hit = remembered.get(key);
    if (hit) return hit;
    const answer = deepFreeze(await composeAnswer(data, request, { records, currentYear, versions: loaded }));
    const entry = { answer, json: preSerialize(answer) };
    if (snapshot?.version === version) remember(key, entry);
    return entry;
  }

  const pinnedSnapshots = new Map<string, Promise<LoanLimitSnapshot>>();
  const pinnedAnswers = new Map<string, Remembered>();

  function pinnedSnapshot(key: string, pins: readonly PinnedVersion[]): Promise<LoanLimitSnapshot> {
    let entry = pinnedSnapshots.get(key);
    if (!entry) {
      const countyPin = pins.find((pin) => pin.dataset === 'counties') as PinnedVersion;
      const programPins = pins.filter((pin) => pin !== countyPin);
      entry = Promise.all([
        versions.snapshot<CountiesArchive>(countyPin, () => archiveCounties(db)),
        Promise.all(
          programPins.map((pin) => {
            const program = pin.dataset === DATASET.fha ? 'fha' : 'conforming';
            return versions.snapshot<ProgramArchive>(pin, () => archiveProgram(db, program));
          }),
        ),
      ]).then(([counties, programs]) => snapshotFromArchives(key, counties, programs));
      entry.catch(() => pinnedSnapshots.delete(key));
      pinnedSnapshots.set(key, entry);
      while (pinnedSnapshots.size > MAX_PINNED_SNAPSHOTS) pinnedSnapshots.delete(pinnedSnapshots.keys().next().value as string);
    }
    return entry;
  }

  /** The answer as this service gave it at the end of `as_of` (the current one when nothing changed since). */
  async function pinnedLookup(query: LoanLimitsQuery & { as_of: string }): Promise<Remembered> {
    const programs = programsFor(query.loan_type);
    const pins = await versions.pin({ required: ['counties', ...programs.map((program) => DATASET[program])] }, query.as_of);
    if (versions.allCurrent(pins)) return lookup({ ...query, as_of: undefined });
    const pinsKey = pins.map((pin) => `${pin.dataset}@${pin.version}`).join(',');
    const data = await pinnedSnapshot(pinsKey, pins);
    const { request, key, currentYear } = resolveIn(data, query);
    const hit = pinnedAnswers.get(`${pinsKey}|${key}`);
    if (hit) return hit;
    const records = new Map<Program, DatasetRecord | undefined>(
      programs.map((program) => {
        const pin = pins.find((candidate) => candidate.dataset === DATASET[program]);
        return [program, pin && { name: pin.dataset, asOf: pin.as_of, sourceUrl: pin.sourceUrl, checksum: null, rows: 0, loadedAt: '' }];
      }),
    );
    const answer = deepFreeze(await composeAnswer(data, request, { records, currentYear, versions: publicVersions(pins) }));
    const entry = { answer, json: preSerialize(answer) };
    if (pinnedAnswers.size >= MAX_PINNED_ANSWERS) pinnedAnswers.delete(pinnedAnswers.keys().next().value as string);
    pinnedAnswers.set(`${pinsKey}|${key}`, entry);
    return entry;
  }

  return {
    async answer(query) {
      return (await lookup(query)).answer;
    },
    async answerJson(query) {
      return (await lookup(query)).json;
    },
    async getLoanLimits(params) {
      return (await lookup(parseOrThrow(LoanLimitsQuerySchema, params, 'query'))).answer;
    },
    async counties(state) {
      const { version } = await current([]);
      return (await dataAt(version)).countiesOf(state);
    },
    async coverage() {
      const { version } = await current(['conforming']);
      const data = await dataAt(version);
      return { states: data.states, years: [...new Set([...data.years.conforming, ...data.years.fha])].sort((a, b) => a - b) };
    },
    nationalHistory: () => readNationalHistory(),
    history: (query) => historyView(readNationalHistory(), query),
  };
}
