// Expected facts for the /ask eval, computed straight from the official files in MDS_SOURCE_DIR (and
// the escrow schedule facts in data/escrow) without any of the service's code, so a wrong figure in
// the service shows up as a miss.
import fs from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT } from '../../api/config.ts';
import type { Fact } from './ask-questions.ts';
import { STATES } from '../../api/geo/states.ts';

/** What an answer must contain: a number (matched numerically), a date, or a pattern. */
export type ResolvedFact =
  | { kind: 'number'; value: number; tolerance: number; label: string }
  | { kind: 'date'; iso: string; label: string }
  | { kind: 'regex'; pattern: RegExp; label: string };

const readLines = (file: string) =>
  fs
    .readFileSync(file, 'utf8')
    .replace(/^\uFEFF/, '')
    .split(/\r?\n/)
    .filter((line) => line.trim() !== '');

function seriesFile(source: string, series: string): string {
  const candidates: Record<string, string[]> = {
    MORTGAGE30US: ['rates/MORTGAGE30US_weekly_1971_2026.csv'],
    MORTGAGE15US: ['rates/MORTGAGE15US_weekly_1991_2025.csv'],
  };
  const found = (candidates[series] ?? [`rates/recent_2020_2025/${series}.csv`])
    .map((file) => path.join(source, file))
    .find((file) => fs.existsSync(file));
  if (!found) throw new Error(`no mirror file for ${series}`);
  return found;
}

function seriesObservations(source: string, series: string): { date: string; value: number }[] {
  return readLines(seriesFile(source, series))
    .slice(1)
    .map((line) => line.split(','))
    .filter(([, value]) => value !== undefined && value.trim() !== '' && value.trim() !== '.')
    .map(([date, value]) => ({ date: date ?? '', value: Number(value) }));
}

function fhfaRow(source: string, fips: string, year: number): number[] {
  if (year === 2026) {
    const file = path.join(source, 'loan_limits/fhfa_conforming/FullCountyLoanLimitList2026_converted_from_xlsx.csv');
    for (const line of readLines(file).slice(1)) {
      const cells = line.split(',');
      if (`${cells[0]}${cells[1]}` === fips) return cells.slice(-4).map(Number);
    }
  } else {
    const file = path.join(source, `loan_limits/fhfa_conforming/FullCountyLoanLimitList${year}.txt`);
    for (const line of readLines(file).slice(1)) {
      const cells = line.split('|');
      if (`${cells[0]}${cells[1]}` === fips) return cells.slice(5, 9).map(Number);
    }
  }
  throw new Error(`county ${fips} not in the FHFA ${year} file`);
}

/** Splits one CSV line, honouring double quotes (HUD's metro names contain commas). */
function splitCsv(line: string): string[] {
  const cells: string[] = [];
  let current = '';
  let quoted = false;
  for (const char of line) {
    if (char === '"') quoted = !quoted;
    else if (char === ',' && !quoted) {
      cells.push(current);
      current = '';
    } else current += char;
  }
  cells.push(current);
  return cells;
}

function fhaRow(source: string, fips: string, year: number): number[] {
  const lines = readLines(path.join(source, `loan_limits/hud_fha/forward_limits_${year}.csv`));
  const header = splitCsv(lines[0] ?? '');
  const column = (name: string) => header.indexOf(name);
  // HUD's file gives the state's postal code and the 3-digit county code.
  const stateCode = STATES.find((state) => state.fips === fips.slice(0, 2))?.code;
  for (const line of lines.slice(1)) {
    const cells = splitCsv(line);
    if (cells[column('state')] === stateCode && cells[column('county-fips')] === fips.slice(2)) {
      return ['limit-1-unit', 'limit-2-units', 'limit-3-units', 'limit-4-units'].map((name) => Number(cells[column(name)]));
    }
  }
  throw new Error(`county ${fips} not in the HUD ${year} file`);
}

function stateAggregate(
  source: string,
  state: string,
  year: number,
): { actionTaken: Record<string, number>; loanType: Record<string, number> } {
  const all = JSON.parse(fs.readFileSync(path.join(source, `hmda/aggregates/by_state_${year}.json`), 'utf8')) as Record<
    string,
    { actionTaken: Record<string, number>; loanType: Record<string, number> }
  >;
  const entry = all[state];
  if (!entry) throw new Error(`${state} not in HMDA aggregates ${year}`);
  return entry;
}

const sum = (values: Record<string, number>) => Object.values(values).reduce((total, value) => total + value, 0);

/** The contract's escrow convention, re-implemented here on purpose (an independent check). */
function escrowMonths(installments: { month: number; units: number }[], closingMonth: number): number {
  const firstPayment = ((closingMonth + 1) % 12) + 1;
  let balance = 0;
  let lowest = 0;
  for (let step = 0; step < 12; step += 1) {
    const month = ((firstPayment - 1 + step) % 12) + 1;
    balance += 1;
    for (const installment of installments) if (installment.month === month) balance -= installment.units;
    lowest = Math.min(lowest, balance);
  }
  return Math.max(0, 2 - lowest);
}

export function resolveFact(fact: Fact, source: string, today: Date): ResolvedFact | undefined {
  if ('text' in fact)
    return { kind: 'regex', pattern: new RegExp(fact.text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'i'), label: fact.text };
  if ('regex' in fact) return { kind: 'regex', pattern: new RegExp(fact.regex, 'i'), label: `/${fact.regex}/` };
  const args = fact.args ?? {};
  const str = (name: string) => String(args[name]);
  const num = (name: string) => Number(args[name]);
  switch (fact.compute) {
    case 'latestSeries': {
      const last = seriesObservations(source, str('series')).at(-1);
      return last && { kind: 'number', value: last.value, tolerance: 0.006, label: `${str('series')} ${last.date} = ${last.value}` };
    }
    case 'latestSeriesDate': {
      const last = seriesObservations(source, str('series')).at(-1);
      return last && { kind: 'date', iso: last.date, label: `${str('series')} date ${last.date}` };
    }
    case 'weeklyChange': {
      const observations = seriesObservations(source, str('series'));
      const [previous, last] = observations.slice(-2);
      if (!previous || !last) return undefined;
      const change = Math.abs(Math.round((last.value - previous.value) * 100) / 100);
      return { kind: 'number', value: change, tolerance: 0.006, label: `${str('series')} change ${change}` };
    }
    case 'conformingLimit': {
      const value = fhfaRow(source, str('fips'), num('year'))[num('units') - 1] ?? NaN;
      return { kind: 'number', value, tolerance: 0.5, label: `conforming ${str('fips')} ${num('year')} ${num('units')}-unit = ${value}` };
    }
    case 'fhaLimit': {
      const value = fhaRow(source, str('fips'), num('year'))[num('units') - 1] ?? NaN;
      return { kind: 'number', value, tolerance: 0.5, label: `FHA ${str('fips')} ${num('year')} = ${value}` };
    }
    case 'nationalBaseline': {
      const file = path.join(source, 'loan_limits/national_limits_summary_2018_2026_DERIVED.csv');
      const lines = readLines(file);
      const header = (lines[0] ?? '').split(',');
      const row = lines
        .slice(1)
        .map((line) => line.split(','))
        .find((cells) => Number(cells[0]) === num('year'));
      const value = Number(row?.[header.indexOf('gse_baseline_1unit')]);
      return { kind: 'number', value, tolerance: 0.5, label: `baseline ${num('year')} = ${value}` };
    }
    case 'escrowMonths': {
      const schedules = JSON.parse(fs.readFileSync(path.join(PROJECT_ROOT, 'data', 'escrow', 'state-tax-schedules.json'), 'utf8')) as {
        states: { code: string; installments: { month: number; units: number }[] }[];
      };
      const state = schedules.states.find((candidate) => candidate.code === str('state'));
      if (!state) return undefined;
      const value = escrowMonths(state.installments, num('month'));
      return { kind: 'number', value, tolerance: 0, label: `escrow ${str('state')} month ${num('month')} = ${value}` };
    }
    case 'nextFomcDecision': {
      // The Federal Reserve's published 2026 schedule (decision days).
      const decisions = ['2026-01-28', '2026-03-18', '2026-04-29', '2026-06-17', '2026-07-29', '2026-09-16', '2026-10-28', '2026-12-09'];
      const next = decisions.find((date) => date >= today.toISOString().slice(0, 10));
      return next ? { kind: 'date', iso: next, label: `next FOMC decision ${next}` } : undefined;
    }
    case 'hmdaStateTotal': {
      const counts = JSON.parse(
        fs.readFileSync(path.join(source, `hmda/aggregates/record_counts/stateCounts${num('year')}.json`), 'utf8'),
      ) as Record<string, number>;
      const value = counts[str('state')] ?? NaN;
      return { kind: 'number', value, tolerance: 0.5, label: `HMDA records ${str('state')} ${num('year')} = ${value}` };
    }
    case 'hmdaOriginations': {
      const value = stateAggregate(source, str('state'), num('year')).actionTaken['1'] ?? NaN;
      return { kind: 'number', value, tolerance: 0.5, label: `originations ${str('state')} ${num('year')} = ${value}` };
    }
    case 'hmdaDenialRate':
    case 'hmdaApprovalRate': {
      const action = stateAggregate(source, str('state'), num('year')).actionTaken;
      const decided = (action['1'] ?? 0) + (action['2'] ?? 0) + (action['3'] ?? 0);
      const share = fact.compute === 'hmdaDenialRate' ? (action['3'] ?? 0) / decided : ((action['1'] ?? 0) + (action['2'] ?? 0)) / decided;
      const value = Math.round(share * 1000) / 10;
      return { kind: 'number', value, tolerance: 0.051, label: `${fact.compute} ${str('state')} ${num('year')} = ${value}%` };
    }
    case 'hmdaLoanTypeShare': {
      const loanTypes = stateAggregate(source, str('state'), num('year')).loanType;
      const value = Math.round(((loanTypes[str('loanType')] ?? 0) / sum(loanTypes)) * 1000) / 10;
      return {
        kind: 'number',
        value,
        tolerance: 0.051,
        label: `loan type ${str('loanType')} share ${str('state')} ${num('year')} = ${value}%`,
      };
    }
    case 'topLender': {
      const lines = readLines(path.join(source, 'hmda/institutions/2020_ts_csv.csv'));
      let best = { name: '', count: -1 };
      for (const line of lines.slice(1)) {
        const name = /"([^"]*)"/.exec(line)?.[1] ?? '';
        const count = Number(line.split(',').at(-1));
        if (count > best.count) best = { name, count };
      }
      return {
        kind: 'regex',
        pattern: new RegExp(best.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'i'),
        label: `top lender ${best.name}`,
      };
    }
    default:
      throw new Error(`unknown fact computation ${fact.compute}`);
  }
}

/** A month's English name (1 = January), from Intl rather than a list of the service's. */
export const monthName = (month: number): string =>
  new Intl.DateTimeFormat('en-US', { month: 'long', timeZone: 'UTC' }).format(Date.UTC(2000, month - 1, 1));

/** Whether `answer` contains `fact`: numbers compared numerically (commas, $ and % ignored). */
export function answerContains(answer: string, fact: ResolvedFact): boolean {
  if (fact.kind === 'regex') return fact.pattern.test(answer);
  if (fact.kind === 'date') {
    const [year, month, day] = fact.iso.split('-').map(Number);
    const long = `${monthName(month ?? 1)} ${day}, ${year}`;
    return answer.includes(fact.iso) || answer.includes(long) || answer.includes(`${monthName(month ?? 1)} ${day}`);
  }
  const numbers = [
    ...answer
      .replace(/(\d),(\d{3})/g, '$1$2')
      .replace(/(\d),(\d{3})/g, '$1$2')
      .matchAll(/-?\d+(?:\.\d+)?/g),
  ].map((match) => Number(match[0]));
  return numbers.some((value) => Math.abs(value - fact.value) <= fact.tolerance);
}
