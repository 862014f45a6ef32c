// The publication gate: a state-year is served only when its record counts by action taken and by
// loan type equal the official FFIEC state aggregates (the HMDA Maps `state.json` for that year).
import { ValidationError } from '../sync/errors.ts';

/** One state's entry in `by_state_{year}.json`: counts of all LAR records keyed by code or label. */
export interface StateAggregate {
  actionTaken: Record<string, number>;
  loanType: Record<string, number>;
  loanPurpose?: Record<string, number>;
  lienStatus?: Record<string, number>;
  race?: Record<string, number>;
  ethnicity?: Record<string, number>;
  sex?: Record<string, number>;
  age?: Record<string, number>;
  [dimension: string]: Record<string, number> | undefined;
}

export type StateAggregates = Record<string, StateAggregate>;

export interface PartitionCounts {
  year: number;
  state: string;
  actionTaken: Record<string, number>;
  loanType: Record<string, number>;
}

export interface Mismatch {
  year: number;
  state: string;
  field: 'action_taken' | 'loan_type' | 'state';
  code: string;
  official: number;
  loaded: number;
}

export function parseStateAggregates(text: string, label: string): StateAggregates {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new ValidationError(`${label}: not valid JSON (${(error as Error).message}).`);
  }
  if (!parsed || typeof parsed !== 'object') throw new ValidationError(`${label}: expected an object keyed by state.`);
  for (const [state, entry] of Object.entries(parsed as Record<string, unknown>)) {
    const candidate = entry as Partial<StateAggregate> | null;
    if (!candidate || typeof candidate.actionTaken !== 'object' || typeof candidate.loanType !== 'object') {
      throw new ValidationError(`${label}: state ${state} lacks actionTaken/loanType counts.`);
    }
  }
  return parsed as StateAggregates;
}

function compare(
  mismatches: Mismatch[],
  partition: PartitionCounts,
  field: 'action_taken' | 'loan_type',
  official: Record<string, number>,
  loaded: Record<string, number>,
): void {
  const codes = new Set([...Object.keys(official), ...Object.keys(loaded)]);
  for (const code of [...codes].sort()) {
    const expected = official[code] ?? 0;
    const actual = loaded[code] ?? 0;
    if (expected !== actual) {
      mismatches.push({ year: partition.year, state: partition.state, field, code, official: expected, loaded: actual });
    }
  }
}

export function findMismatches(partitions: PartitionCounts[], aggregatesFor: (year: number) => StateAggregates | undefined): Mismatch[] {
  const mismatches: Mismatch[] = [];
  for (const partition of partitions) {
    const official = aggregatesFor(partition.year)?.[partition.state];
    if (!official) {
      mismatches.push({
        year: partition.year,
        state: partition.state,
        field: 'state',
        code: partition.state,
        official: 0,
        loaded: sum(partition.actionTaken),
      });
      continue;
    }
    compare(mismatches, partition, 'action_taken', official.actionTaken, partition.actionTaken);
    compare(mismatches, partition, 'loan_type', official.loanType, partition.loanType);
  }
  return mismatches;
}

function sum(counts: Record<string, number>): number {
  return Object.values(counts).reduce((total, value) => total + value, 0);
}

const format = (value: number) => value.toLocaleString('en-US');

export function describeMismatch(mismatch: Mismatch): string {
  if (mismatch.field === 'state') {
    return `${mismatch.year} ${mismatch.state}: no official aggregate exists for this state and year, so its ${format(mismatch.loaded)} records cannot be validated`;
  }
  return `${mismatch.year} ${mismatch.state} ${mismatch.field} ${mismatch.code}: official aggregates say ${format(mismatch.official)} records, the loaded file has ${format(mismatch.loaded)}`;
}

/** Throws a ValidationError listing (up to ten) mismatches with both figures. */
export function assertMatchesAggregates(partitions: PartitionCounts[], aggregatesFor: (year: number) => StateAggregates | undefined): void {
  const mismatches = findMismatches(partitions, aggregatesFor);
  if (mismatches.length === 0) return;
  const shown = mismatches.slice(0, 10).map(describeMismatch);
  const more = mismatches.length > shown.length ? `; and ${mismatches.length - shown.length} more` : '';
  throw new ValidationError(
    `HMDA records do not match the official FFIEC state aggregates, so nothing was published (the previous data stays served): ${shown.join('; ')}${more}.`,
  );
}
