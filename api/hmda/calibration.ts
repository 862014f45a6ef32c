// Reads the official aggregates the synthetic generator is calibrated to: the FFIEC state and county
// aggregates for a year and the state FIPS codes, from a source folder (MDS_SOURCE_DIR layout).
import fs from 'node:fs';
import path from 'node:path';
import { columnIndexes, parseDelimited } from '../sync/delimited.ts';
import { SourceFormatError } from '../sync/errors.ts';
import { parseStateAggregates, type StateAggregates } from './validate.ts';

export interface Calibration {
  year: number;
  states: StateAggregates;
  counties: Record<string, [string, number][]>;
}

export function loadCalibration(sourceDir: string, year: number): Calibration {
  const statePath = path.join(sourceDir, 'hmda', 'aggregates', `by_state_${year}.json`);
  const states = parseStateAggregates(fs.readFileSync(statePath, 'utf8'), statePath);
  const counties: Record<string, [string, number][]> = {};
  const countyPath = path.join(sourceDir, 'hmda', 'aggregates', `by_county_${year}.json`);
  const codesPath = path.join(sourceDir, 'geo', 'state_codes_DERIVED.csv');
  if (fs.existsSync(countyPath) && fs.existsSync(codesPath)) {
    const stateOfFips = readStateCodes(codesPath);
    const byCounty = JSON.parse(fs.readFileSync(countyPath, 'utf8')) as Record<string, { actionTaken?: Record<string, number> }>;
    for (const [fips, entry] of Object.entries(byCounty)) {
      const state = stateOfFips.get(fips.slice(0, 2));
      if (!state || !/^\d{5}$/.test(fips)) continue;
      const records = Object.values(entry.actionTaken ?? {}).reduce((a, b) => a + b, 0);
      (counties[state] ??= []).push([fips, records]);
    }
  }
  return { year, states, counties };
}

/** The mirror's state codes (`state_abbr,state_fips,county_count`): state by 2-digit FIPS. */
function readStateCodes(file: string): Map<string, string> {
  const [header, ...rows] = parseDelimited(fs.readFileSync(file, 'utf8'), ',', file);
  if (!header) throw new SourceFormatError(file, 1, 'the file is empty');
  const column = columnIndexes(header, { abbr: ['state_abbr'], fips: ['state_fips'] }, file);
  const stateOfFips = new Map<string, string>();
  for (const { fields } of rows) {
    const abbr = fields[column.abbr]?.trim();
    const fips = fields[column.fips]?.trim();
    if (abbr && fips) stateOfFips.set(fips.padStart(2, '0'), abbr);
  }
  return stateOfFips;
}

/** States (not the `NA` bucket) with records in the aggregates, sorted. */
export function statesWithRecords(states: StateAggregates): string[] {
  return Object.keys(states)
    .filter((state) => /^[A-Z]{2}$/.test(state) && state !== 'NA')
    .sort();
}

export function recordCount(states: StateAggregates, list: string[]): number {
  return list.reduce((total, state) => total + Object.values(states[state]?.actionTaken ?? {}).reduce((a, b) => a + b, 0), 0);
}
