// Loan limits for a state or one county: conforming (FHFA), FHA (HUD), VA (the conforming limit) and
// USDA (no limit), 1–4 units, with each figure's source and as-of date. The REST route, the MCP tool
// `get_loan_limits`, /ask, the page and the MCP resource all answer through this service. Answers
// come from an in-memory snapshot of the synced tables (./snapshot.ts), replaced when a loan-limit
// dataset is reloaded, and each distinct answer is remembered serialised until then.
import type { Clock } from '../deps.ts';
import type { Queryable } from '../platform/db/database.ts';
import type { DatasetRecord, DatasetStatus } from '../platform/datasets.ts';
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
import { readSnapshot, type LoanLimitSnapshot } from './snapshot.ts';

export { USDA_NOTE, VA_NOTE } from './answer.ts';

/** Datasets whose loads the snapshot is read under: a new load of any of them replaces it. */
const WATCHED = ['counties', DATASET.conforming, DATASET.fha];
/** Distinct answers remembered; the oldest goes first (a flood of distinct queries only costs a compose). */
const MAX_REMEMBERED = 2_000;
/** And at most this many characters of JSON in all (a whole large state is about 150,000). */
const MAX_REMEMBERED_CHARS = 32_000_000;

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

export function createLoanLimitsService(db: Queryable, options: { datasets: DatasetStatus; clock?: Clock }): LoanLimitsService {
  const { datasets } = options;
  const clock = options.clock ?? (() => new Date());
  let snapshot: { version: string; data: Promise<LoanLimitSnapshot> } | undefined;
  let seen: { records: DatasetRecord[]; version: string } | undefined;
  const remembered = new Map<string, Remembered>();
  let rememberedChars = 0;

  /** The records of the datasets a request needs (a 503 saying why when one is missing) and the snapshot's version. */
  async function current(programs: readonly Program[]): Promise<{ version: string; records: Map<Program, DatasetRecord | undefined> }> {
    const list = await datasets.list(); // cached by the dataset status for a few seconds
    if (seen?.records !== list) {
      const version = list
        .filter((record) => WATCHED.includes(record.name))
        .map((record) => `${record.name}@${record.loadedAt}`)
        .join(',');
      seen = { records: list, version };
    }
    const byName = (name: string) => list.find((record) => record.name === name);
    if (!byName('counties')) await datasets.require('counties'); // throws the 503 saying why
    const records = new Map<Program, DatasetRecord | undefined>();
    for (const program of programs) records.set(program, byName(DATASET[program]) ?? (await datasets.require(DATASET[program])));
    return { version: seen.version, records };
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

  async function lookup(query: LoanLimitsQuery): Promise<Remembered> {
    const { version, records } = await current(programsFor(query.loan_type));
    const data = await dataAt(version);
    const state = resolveState(data.states, query.state);
    const county = query.county === undefined || query.county === '' ? undefined : resolveCounty(data.countiesOf(state), state, query.county);
    const currentYear = clock().getFullYear();
    // The default year depends on today's year, so it is part of what an answer is remembered for.
    const key = `${currentYear}|${state}|${county?.fips ?? ''}|${query.year ?? ''}|${query.loan_type}|${query.units ?? ''}`;
    const hit = remembered.get(key);
    if (hit) return hit;
    const request: ResolvedRequest = { state, county, year: query.year, loanType: query.loan_type, units: query.units };
    const answer = deepFreeze(await composeAnswer(data, request, { records, currentYear }));
    const entry = { answer, json: preSerialize(answer) };
    if (snapshot?.version === version) remember(key, entry);
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
