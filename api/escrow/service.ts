// The escrow capability: resolves state, closing month and county to a tax schedule and runs the
// RESPA aggregate analysis. Shared by GET /escrow, the MCP server and /ask.
import type { Config } from '../config.ts';
import { BadRequestError } from '../platform/http/errors.ts';
import { findCountyCheck, loadCountyChecks, type CountyCheck, type CountyCheckIndex } from './county-checks.ts';
import { createCountyResolver, readCensusCounties, type CountyResolver } from './counties.ts';
import {
  computeAllMonths,
  computeEscrow,
  CUSHION_MONTHS,
  monthName,
  type MonthName,
  type ProjectionMonth,
} from './engine.ts';
import { loadSchedules, servedSchedule, type ScheduleIndex } from './schedules.ts';
import { primarySource, type CheckedVerification, type Verification } from './verification.ts';
import { findState, STATE_CODES } from '../geo/states.ts';

export const RESPA_SOURCE = {
  title: '12 CFR 1024.17 (RESPA escrow accounts: aggregate analysis, 2-month cushion)',
  url: 'https://www.consumerfinance.gov/rules-policy/regulations/1024/17/',
};

export interface EscrowSource {
  title: string;
  url: string | null;
}

export interface EscrowResult {
  state: string;
  stateCode: string;
  closingMonth: number;
  closingMonthName: MonthName;
  escrowMonths: number;
  taxSchedule: { frequency: string; disbursementMonths: MonthName[]; notes: string };
  allMonths: Record<MonthName, number>;
  isCountySpecific: boolean;
  cushionMonths: number;
  firstPaymentMonth: MonthName;
  projection: ProjectionMonth[];
  sources: EscrowSource[];
}

export interface EscrowQuery {
  state: string;
  /** 1..12; defaults to the current month of the service clock. */
  closingMonth?: number;
  county?: string;
}

export interface EscrowService {
  calculate(query: EscrowQuery): EscrowResult;
  /** The 51 state codes the service covers. */
  stateCodes(): string[];
}

/** What a valid state is, with all 51 codes (the end of every invalid-state message). */
export const VALID_STATES_TEXT = `Give a 2-letter code or full name of the 50 states + DC. Valid values: ${STATE_CODES.join(', ')}.`;

export function invalidStateMessage(value: string): string {
  return `Invalid value for 'state': ${JSON.stringify(value.slice(0, 80))}. ${VALID_STATES_TEXT}`;
}

export function createEscrowService({
  config,
  clock,
  schedules = loadSchedules(),
  checks = loadCountyChecks(),
  resolveCounty = createCountyResolver(readCensusCounties(config.sourceDir)),
}: {
  config: Pick<Config, 'sourceDir'>;
  clock: () => Date;
  schedules?: ScheduleIndex;
  checks?: CountyCheckIndex;
  resolveCounty?: CountyResolver;
}): EscrowService {
  return {
    stateCodes: () => [...STATE_CODES],
    calculate(query) {
      const state = findState(query.state);
      if (!state) throw new BadRequestError(invalidStateMessage(query.state));
      const stateSchedule = schedules.byState.get(state.code);
      if (!stateSchedule) throw new Error(`no schedule for ${state.code}`);
      const closingMonth = query.closingMonth ?? clock().getUTCMonth() + 1;
      if (!Number.isInteger(closingMonth) || closingMonth < 1 || closingMonth > 12) {
        throw new BadRequestError(`Invalid value for 'closing_month': ${closingMonth}. Valid values: 1-12 or a month name (January ... December).`);
      }

      let schedule: Pick<ReturnType<typeof servedSchedule>, 'frequency' | 'installments' | 'source'> = stateSchedule;
      let notes = stateSchedule.notes;
      let isCountySpecific = false;
      let checkSources: EscrowSource[] = [];
      if (query.county !== undefined && query.county.trim() !== '') {
        const match = resolveCounty(state, query.county, schedules.overridesByState.get(state.code) ?? []);
        if (match.kind === 'override') {
          const served = servedSchedule(match.override);
          schedule = served;
          notes = `${match.override.county}, ${state.code}: ${served.notes}${verificationNote(served.verification)}`;
          checkSources = verificationSources(served.verification);
          isCountySpecific = true;
        } else {
          const label = match.county ? `${match.county.name} (${match.county.fips})` : JSON.stringify(match.query.slice(0, 80));
          const check = findCountyCheck(checks, state.code, match.county?.fips, match.query);
          notes = `${checkNote(check, label, state.name)} ${stateSchedule.notes}`;
          checkSources = check ? verificationSources(check.verification) : [];
        }
      }

      const installments = [...schedule.installments].sort((a, b) => a.month - b.month);
      const computation = computeEscrow(installments, closingMonth, CUSHION_MONTHS);
      return {
        state: state.name,
        stateCode: state.code,
        closingMonth,
        closingMonthName: monthName(closingMonth),
        escrowMonths: computation.escrowMonths,
        taxSchedule: {
          frequency: schedule.frequency,
          disbursementMonths: installments.map((installment) => monthName(installment.month)),
          notes,
        },
        allMonths: computeAllMonths(installments, CUSHION_MONTHS),
        isCountySpecific,
        cushionMonths: computation.cushionMonths,
        firstPaymentMonth: monthName(computation.firstPaymentMonth),
        projection: computation.projection,
        sources: uniqueByUrl([{ title: schedule.source.citation, url: schedule.source.url ?? null }, ...checkSources, RESPA_SOURCE]),
      };
    },
  };
}

/** The collector's page behind a county schedule, for the notes a reader sees. */
function verificationNote(verification: Verification): string {
  if (verification.status === 'unchecked') return ` Not checked against the collector's own calendar. ${verification.reason}`;
  return ` Checked against ${checkedAgainst(verification)}.`;
}

/** "Publisher (url) for tax year 2025", or, for a standing rule, "Publisher (url), which gives the same dates every year (tax year 2026)". */
function checkedAgainst(verification: CheckedVerification): string {
  const source = primarySource(verification);
  return source.taxYear === verification.taxYear
    ? `${source.publisher} (${source.url}) for tax year ${verification.taxYear}`
    : `${source.publisher} (${source.url}), which gives the same dates every year (tax year ${verification.taxYear})`;
}

/** What the record says about a county that has no schedule of its own. */
function checkNote(check: CountyCheck | undefined, label: string, stateName: string): string {
  if (!check || check.verification.status === 'unchecked') {
    return `No county-level schedule is recorded for ${label}; the ${stateName} schedule applies.`;
  }
  const where = checkedAgainst(check.verification);
  return check.result === 'agrees'
    ? `${check.county} (${check.fips}) collects on the ${stateName} schedule: ${check.finding} Checked against ${where}.`
    : `${check.county} (${check.fips}) has no single county calendar: ${check.finding} The ${stateName} schedule is used as an approximation; see ${where}.`;
}

function verificationSources(verification: Verification): EscrowSource[] {
  if (verification.status === 'unchecked') return [];
  return verification.sources.map((source) => ({
    title: `${source.publisher}${source.taxYear ? `, tax year ${source.taxYear}` : ''}`,
    url: source.url,
  }));
}

/** One entry per address: a check often reads the page the schedule already cites. */
function uniqueByUrl(sources: EscrowSource[]): EscrowSource[] {
  const seen = new Set<string>();
  return sources.filter((source) => source.url === null || (!seen.has(source.url) && Boolean(seen.add(source.url))));
}
