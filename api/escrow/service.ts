// The escrow capability: resolves state, closing month and county to a tax schedule and runs the
// RESPA aggregate analysis. Shared by GET /escrow, /ask and the /escrow page. The schedules are kept
// by hand and change only with a deploy, so every state and county-override answer (51 states and
// 27 overrides, × 12 closing months) is computed and serialised once at start; answers for other
// counties (the state schedule with the county's own notes) are remembered as they are asked.
import { answerCache, BoundedCache, type RememberedAnswer, rememberAnswer } from '../platform/bounded-cache.ts';
import { preSerialize, type PreSerialized } from '../platform/pre-serialized.ts';
import { STATE_CODES, STATES, findState, type StateInfo } from '../geo/states.ts';
import type { EscrowAnswer, EscrowAtClosing, EscrowQuery, EscrowSource } from './contract.ts';
import { findCountyCheck, loadCountyChecks, type CountyCheckIndex } from './county-checks.ts';
import { createCountyResolver, readCensusCounties, type CountyMatch, type CountyResolver } from './counties.ts';
import { computeAllMonths, computeEscrow, CUSHION_MONTHS, monthName, roundingNote, type Installment, type MonthName } from './engine.ts';
import { RESPA_SOURCE, checkNote, uniqueByUrl, verificationNote, verificationSources } from './notes.ts';
import { loadSchedules, servedSchedule, type CountyOverride, type ScheduleIndex } from './schedules.ts';

export { RESPA_SOURCE };

export interface EscrowService {
  /** The answer to a request parsed with the contract's EscrowQuerySchema; 400 for a county the state does not have. */
  answer(query: EscrowQuery): EscrowAnswer;
  /** The same answer as JSON, serialised once. */
  answerJson(query: EscrowQuery): PreSerialized<EscrowAnswer>;
  /** The 51 state codes the service covers. */
  stateCodes(): string[];
  /** The counties whose tax calendar differs from their state's (the precomputed overrides). */
  countyOverrides(): { state: string; fips: string; county: string }[];
}

/** What every closing month of one state or county shares: the schedule, its notes and sources. */
interface Basis {
  state: StateInfo;
  frequency: string;
  installments: Installment[];
  notes: string;
  isCountySpecific: boolean;
  sources: EscrowSource[];
  allMonths: Record<MonthName, number>;
}

/** Answers for counties without an override (each has its own notes), remembered as asked (~3 KB each). */
const MAX_COUNTY_ANSWER_BYTES = 16 * 1024 * 1024;
/** Distinct spellings of a request remembered (each points at a shared answer): a few thousand. */
const MAX_ASKED_BYTES = 1024 * 1024;

function basis(
  state: StateInfo,
  schedule: { frequency: string; installments: readonly Installment[] },
  rest: Pick<Basis, 'notes' | 'isCountySpecific' | 'sources'>,
): Basis {
  const installments = [...schedule.installments].sort((a, b) => a.month - b.month);
  return { state, frequency: schedule.frequency, installments, ...rest, allMonths: computeAllMonths(installments, CUSHION_MONTHS) };
}

/** `asOf`: the day the schedules were last checked against their sources (the schedules file's asOf). */
function answerFor(basis: Basis, closingMonth: number, asOf: string): EscrowAnswer {
  const computation = computeEscrow(basis.installments, closingMonth, CUSHION_MONTHS);
  return {
    state: basis.state.name,
    stateCode: basis.state.code,
    closingMonth,
    closingMonthName: monthName(closingMonth),
    escrowMonths: computation.escrowMonths,
    escrowMonthsExact: computation.exactMonths,
    escrowMonthsRounding: roundingNote(computation.exactMonths, computation.escrowMonths),
    taxSchedule: {
      frequency: basis.frequency,
      disbursementMonths: basis.installments.map((installment) => monthName(installment.month)),
      notes: basis.notes,
    },
    allMonths: basis.allMonths,
    isCountySpecific: basis.isCountySpecific,
    cushionMonths: computation.cushionMonths,
    firstPaymentMonth: monthName(computation.firstPaymentMonth),
    projection: computation.projection,
    as_of: asOf,
    sources: basis.sources,
  };
}

export function createEscrowService({
  sourceDir,
  clock,
  schedules = loadSchedules(),
  checks = loadCountyChecks(),
  resolveCounty = createCountyResolver(readCensusCounties(sourceDir)),
}: {
  /** The official files' folder (MDS_SOURCE_DIR), where the Census county list is read from when set. */
  sourceDir: string | undefined;
  clock: () => Date;
  schedules?: ScheduleIndex;
  checks?: CountyCheckIndex;
  resolveCounty?: CountyResolver;
}): EscrowService {
  function stateSchedule(state: StateInfo) {
    const schedule = schedules.byState.get(state.code);
    if (!schedule) throw new Error(`no schedule for ${state.code}`);
    return schedule;
  }

  function stateBasis(state: StateInfo): Basis {
    const schedule = stateSchedule(state);
    return basis(state, schedule, {
      notes: schedule.notes,
      isCountySpecific: false,
      sources: uniqueByUrl([sourceOf(schedule.source), RESPA_SOURCE]),
    });
  }

  function overrideBasis(state: StateInfo, override: CountyOverride): Basis {
    const served = servedSchedule(override);
    return basis(state, served, {
      notes: `${override.county}, ${state.code}: ${served.notes}${verificationNote(served.verification)}`,
      isCountySpecific: true,
      sources: uniqueByUrl([sourceOf(served.source), ...verificationSources(served.verification), RESPA_SOURCE]),
    });
  }

  /** A county without an override: the state schedule, with what the record says about the county. */
  function countyBasis(state: StateInfo, match: Extract<CountyMatch, { kind: 'no-override' }>): Basis {
    const schedule = stateSchedule(state);
    const label = match.county ? `${match.county.name} (${match.county.fips})` : JSON.stringify(match.query.slice(0, 80));
    const check = findCountyCheck(checks, state.code, match.county?.fips, match.query);
    return basis(state, schedule, {
      notes: `${checkNote(check, label, state.name)} ${schedule.notes}`,
      isCountySpecific: false,
      sources: uniqueByUrl([sourceOf(schedule.source), ...(check ? verificationSources(check.verification) : []), RESPA_SOURCE]),
    });
  }

  // Every state and override answer, once: 936 answers, a few milliseconds at start.
  const precomputed = new Map<string, RememberedAnswer<EscrowAnswer>>();
  const remember = (target: string, found: Basis) => {
    for (let month = 1; month <= 12; month += 1) {
      const answer = answerFor(found, month, schedules.asOf);
      precomputed.set(`${target}|${month}`, { answer, json: preSerialize(answer) });
    }
  };
  for (const state of STATES) {
    remember(state.code, stateBasis(state));
    for (const override of schedules.overridesByState.get(state.code) ?? [])
      remember(`${state.code}|${override.fips}`, overrideBasis(state, override));
  }
  const counties = answerCache<EscrowAnswer>({ maxBytes: MAX_COUNTY_ANSWER_BYTES });
  // Each entry only points at an answer held above: its own cost is the key and the slot.
  const asked = new BoundedCache<RememberedAnswer<EscrowAnswer>>({
    maxBytes: MAX_ASKED_BYTES,
    sizeOf: (_answer, key) => 2 * key.length + 64,
  });

  function resolve(query: EscrowQuery): RememberedAnswer<EscrowAnswer> {
    const closingMonth = query.closing_month ?? clock().getUTCMonth() + 1;
    const key = `${query.state}|${closingMonth}|${query.county ?? ''}`;
    const hit = asked.get(key);
    if (hit) return hit;
    const state = findState(query.state);
    if (!state) throw new Error(`no state ${query.state}`); // the contract admits only the 51 codes
    let found: RememberedAnswer<EscrowAnswer> | undefined;
    if (query.county === undefined) {
      found = precomputed.get(`${state.code}|${closingMonth}`);
    } else {
      const match = resolveCounty(state, query.county, schedules.overridesByState.get(state.code) ?? []); // 400 for an unknown county
      if (match.kind === 'override') {
        found = precomputed.get(`${state.code}|${match.override.fips}|${closingMonth}`);
      } else {
        const target = `${state.code}|${match.county ? match.county.fips : `"${match.query}"`}|${closingMonth}`;
        found =
          counties.get(target) ?? rememberAnswer(counties, target, answerFor(countyBasis(state, match), closingMonth, schedules.asOf));
      }
    }
    if (!found) throw new Error(`no escrow answer for ${key}`);
    asked.set(key, found);
    return found;
  }

  return {
    stateCodes: () => [...STATE_CODES],
    countyOverrides: () =>
      [...schedules.overridesByState.values()]
        .flat()
        .map((override) => ({ state: override.state, fips: override.fips, county: override.county })),
    answer: (query) => withDollars(resolve(query).answer, query.annual_tax),
    // The dollar figures depend on the reader's tax bill, so only the months are remembered.
    answerJson: (query) =>
      query.annual_tax === undefined ? resolve(query).json : preSerialize(withDollars(resolve(query).answer, query.annual_tax)),
  };
}

/**
 * Dollars to the cent, half a cent rounded up (away from zero), computed exactly: the amount as a
 * fraction of whole cents (`numerator` ÷ `denominator`), so 0.005 is never read as 0.00499…
 */
function centsHalfUp(numerator: bigint, denominator: bigint): number {
  const cents = (2n * numerator + denominator) / (2n * denominator);
  return Number(cents) / 100;
}

/** Months as an exact fraction of a million (the engine's own precision: it rounds to 1e-6). */
const MONTH_SCALE = 1_000_000n;

/**
 * The escrow at closing in dollars for a yearly tax bill: months × one month of tax. The tax is
 * taken to the cent; each figure is rounded to the cent half up (a half cent goes up), from the exact
 * product, never from an already rounded one.
 */
export function escrowAtClosing(answer: Pick<EscrowAnswer, 'escrowMonths' | 'escrowMonthsExact'>, annualTax: number): EscrowAtClosing {
  const taxCents = BigInt(Math.round(annualTax * 100));
  const months = (value: number) => BigInt(Math.round(value * Number(MONTH_SCALE)));
  return {
    annualTax,
    monthlyTax: centsHalfUp(taxCents, 12n),
    amount: centsHalfUp(months(answer.escrowMonths) * taxCents, 12n * MONTH_SCALE),
    exactAmount: centsHalfUp(months(answer.escrowMonthsExact) * taxCents, 12n * MONTH_SCALE),
  };
}

function withDollars(answer: EscrowAnswer, annualTax: number | undefined): EscrowAnswer {
  return annualTax === undefined ? answer : { ...answer, atClosing: escrowAtClosing(answer, annualTax) };
}

function sourceOf(source: { citation: string; url?: string | undefined }): EscrowSource {
  return { title: source.citation, url: source.url ?? null };
}
