// Loan limits for a state or one county: conforming (FHFA), FHA (HUD), VA (the conforming limit) and
// USDA (no limit), 1–4 units, with each figure's source and as-of date. The REST route, the MCP tool
// `get_loan_limits`, /ask, the page and the MCP resource all answer through this service. Answers
// come from an in-memory snapshot of the synced tables (./snapshot.ts), held by the shared dataset
// snapshot and replaced when a loan-limit dataset is reloaded; each distinct answer is remembered
// serialised (bounded by bytes) with that copy.
import type { Clock } from '../platform/clock.ts';
import type { Queryable } from '../platform/db/database.ts';
import type { DatasetRecord, DatasetStatus } from '../platform/datasets.ts';
import { currentVersions, publicVersions, type DatasetVersions, type PinnedVersion } from '../platform/dataset-versions.ts';
import { answerCache, BoundedCache, rememberAnswer, type RememberedAnswer } from '../platform/bounded-cache.ts';
import { datasetSnapshot } from '../platform/dataset-snapshot.ts';
import { createLogger, type Logger } from '../platform/logger.ts';
import type { DatasetVersion } from '../platform/contract/versions.ts';
import { preSerialize, type PreSerialized } from '../platform/pre-serialized.ts';
import { parseOrThrow } from '../platform/validation.ts';
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
import {
  archiveCounties,
  archiveProgram,
  readSnapshot,
  snapshotFromArchives,
  type CountiesArchive,
  type LoanLimitSnapshot,
  type ProgramArchive,
} from './snapshot.ts';

/** Datasets whose loads the snapshot is read under: a new load of any of them replaces it. */
const WATCHED = ['counties', DATASET.conforming, DATASET.fha];
/**
 * Bytes of remembered answers (their JSON and objects); the least recently used go first, so a
 * flood of distinct queries only costs a compose. A whole large state is about 150,000 characters
 * of JSON, so this holds every state page the site's publication asks for about twice over.
 */
const MAX_REMEMBERED_BYTES = 16 * 1024 * 1024;
/** Pinned (`as_of`) snapshots kept in memory (counted, not sized), and bytes of pinned answers remembered across them. */
const MAX_PINNED_SNAPSHOTS = 3;
const MAX_PINNED_ANSWER_BYTES = 4 * 1024 * 1024;

export interface LoanLimitsService {
  /** The answer for parsed parameters. */
  answer(query: LoanLimitsQuery): Promise<LoanLimitsAnswer>;
  /**
   * The same answer serialised: the REST hot path. `remember: false` leaves it out of the remembered
   * answers (the publication composes every state of every year, and keeps the bytes itself).
   */
  answerJson(query: LoanLimitsQuery, options?: { remember?: boolean }): Promise<PreSerialized<LoanLimitsAnswer>>;
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

type Remembered = RememberedAnswer<LoanLimitsAnswer>;

/** The current snapshot, the records of the loads it was read from, and the answers composed from it. */
interface CurrentCopy {
  data: LoanLimitSnapshot;
  records: DatasetRecord[];
  versions: DatasetVersion[];
  answers: BoundedCache<Remembered>;
}

/** Frozen all the way down: a remembered answer is handed to every caller and must stay as it was. */
function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
  }
  return value;
}

export function createLoanLimitsService({
  db,
  datasets,
  versions,
  clock = () => new Date(),
  logger = createLogger('silent'),
}: {
  db: Queryable;
  datasets: DatasetStatus;
  versions: DatasetVersions;
  clock?: Clock;
  logger?: Logger;
}): LoanLimitsService {
  const snapshot = datasetSnapshot<CurrentCopy>({
    datasets,
    names: ['counties'],
    optional: [DATASET.conforming, DATASET.fha],
    logger,
    label: 'loan limits',
    // As before the shared snapshot: a request after a sync publishes is answered from the new load.
    checkIntervalMs: 0,
    awaitCheck: true,
    read: async (records) => ({
      data: await readSnapshot(db, records.map((record) => `${record.name}@${record.loadedAt}`).join(',')),
      records,
      versions: currentVersions(records, WATCHED),
      answers: answerCache<LoanLimitsAnswer>({ maxBytes: MAX_REMEMBERED_BYTES }),
    }),
  });

  /**
   * The current copy, holding every dataset `programs` need: a 503 saying why when one is not loaded,
   * and a fresh read when one was loaded after the copy was read.
   */
  async function current(programs: readonly Program[]): Promise<CurrentCopy & { byProgram: Map<Program, DatasetRecord | undefined> }> {
    for (let attempt = 0; ; attempt += 1) {
      const copy = await snapshot.get();
      const missing = programs.filter((program) => !copy.records.some((record) => record.name === DATASET[program]));
      for (const program of missing) await datasets.require(DATASET[program]); // throws the 503 saying why
      if (missing.length === 0 || attempt > 0) {
        const byProgram = new Map(programs.map((program) => [program, copy.records.find((record) => record.name === DATASET[program])]));
        return { ...copy, byProgram };
      }
      snapshot.invalidate(); // loaded since the copy was read
    }
  }

  /** The request's state and county found in a snapshot, and the key its answer is remembered under. */
  function resolveIn(data: LoanLimitSnapshot, query: LoanLimitsQuery): { request: ResolvedRequest; key: string; currentYear: number } {
    const state = resolveState(data.states, query.state);
    const county =
      query.county === undefined || query.county === '' ? undefined : resolveCounty(data.countiesOf(state), state, query.county);
    const currentYear = clock().getFullYear();
    // The default year depends on today's year, so it is part of what an answer is remembered for.
    const key = `${currentYear}|${state}|${county?.fips ?? ''}|${query.year ?? ''}|${query.loan_type}|${query.units ?? ''}`;
    return { request: { state, county, year: query.year, loanType: query.loan_type, units: query.units }, key, currentYear };
  }

  /** `remember: false` composes without keeping the answer (the publication, which keeps its own bytes). */
  async function lookup(query: LoanLimitsQuery, { remember = true } = {}): Promise<Remembered> {
    if (query.as_of !== undefined) return pinnedLookup({ ...query, as_of: query.as_of });
    const copy = await current(programsFor(query.loan_type));
    const { request, key, currentYear } = resolveIn(copy.data, query);
    const hit = copy.answers.get(key);
    if (hit) return hit;
    const answer = deepFreeze(await composeAnswer(copy.data, request, { records: copy.byProgram, currentYear, versions: copy.versions }));
    return remember ? rememberAnswer(copy.answers, key, answer) : { answer, json: preSerialize(answer) };
  }

  const pinnedSnapshots = new BoundedCache<Promise<LoanLimitSnapshot>>({ maxBytes: MAX_PINNED_SNAPSHOTS, sizeOf: () => 1 });
  const pinnedAnswers = answerCache<LoanLimitsAnswer>({ maxBytes: MAX_PINNED_ANSWER_BYTES });

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
    return rememberAnswer(pinnedAnswers, `${pinsKey}|${key}`, answer);
  }

  return {
    async answer(query) {
      return (await lookup(query)).answer;
    },
    async answerJson(query, options) {
      return (await lookup(query, options)).json;
    },
    async getLoanLimits(params) {
      return (await lookup(parseOrThrow(LoanLimitsQuerySchema, params, 'query'))).answer;
    },
    async counties(state) {
      return (await current([])).data.countiesOf(state);
    },
    async coverage() {
      const { data } = await current(['conforming']);
      return { states: data.states, years: [...new Set([...data.years.conforming, ...data.years.fha])].sort((a, b) => a - b) };
    },
    nationalHistory: () => readNationalHistory(),
    history: (query) => historyView(readNationalHistory(), query),
  };
}
