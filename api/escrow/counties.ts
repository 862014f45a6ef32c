// Resolves the optional `county` of an escrow request (a name or a 5-digit FIPS) to a county
// override or to "no override". All county matching lives behind `createCountyResolver` so a
// shared county table can replace the Census list read here without touching the service.
import fs from 'node:fs';
import path from 'node:path';
import { BadRequestError } from '../platform/errors.ts';
import { parseCountyList } from '../geo/county-list.ts';
import type { CountyOverride } from './schedules.ts';
import type { StateInfo } from '../geo/states.ts';

export interface CountyRecord {
  fips: string;
  name: string;
}

export type CountyMatch =
  { kind: 'override'; override: CountyOverride } | { kind: 'no-override'; county: CountyRecord | undefined; query: string };

/** Lowercase, no punctuation, without a trailing "county"/"parish"/"borough"; "city" is kept (VA). */
export function normaliseCountyName(name: string): string {
  return name
    .toLowerCase()
    .replace(/\(.*?\)/g, ' ')
    .replace(/[.'’,]/g, '')
    .replace(/\bsaint\b/g, 'st')
    .replace(/\bcity and borough( of)?\b/g, ' ')
    .replace(/\b(county|parish|borough|census area|municipality)\b/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Names an override answers to: its name without the suffix, and any alias in parentheses. */
function overrideKeys(override: CountyOverride): string[] {
  const aliases = [...override.county.matchAll(/\(([^)]+)\)/g)].map((match) => normaliseCountyName(match[1] ?? ''));
  return [normaliseCountyName(override.county), ...aliases].filter((key) => key.length > 0);
}

/** Reads the Census county list (`geo/county_FIPS.csv` below the source folder) when present. */
export function readCensusCounties(sourceDir: string | undefined): Map<string, CountyRecord[]> | undefined {
  if (!sourceDir) return undefined;
  const file = path.join(sourceDir, 'geo', 'county_FIPS.csv');
  if (!fs.existsSync(file)) return undefined;
  const byState = new Map<string, CountyRecord[]>();
  for (const { state, fips, name } of parseCountyList(fs.readFileSync(file), file)) {
    const counties = byState.get(state);
    if (counties) counties.push({ fips, name });
    else byState.set(state, [{ fips, name }]);
  }
  return byState;
}

export type CountyResolver = (state: StateInfo, query: string, overrides: readonly CountyOverride[]) => CountyMatch;

/**
 * With a county list, an unknown county is a 400 (a typo must not silently fall back to the state
 * schedule); without one, only overrides can be recognised and anything else gets the state schedule.
 */
export function createCountyResolver(counties: Map<string, CountyRecord[]> | undefined): CountyResolver {
  return (state, rawQuery, overrides) => {
    const query = rawQuery.trim();
    if (/^\d{5}$/.test(query)) {
      if (!query.startsWith(state.fips)) {
        throw new BadRequestError(
          `Invalid value for 'county': "${query}" is not a county of ${state.code} (its FIPS codes start with ${state.fips}).`,
        );
      }
      const override = overrides.find((candidate) => candidate.fips === query);
      if (override) return { kind: 'override', override };
      const county = counties?.get(state.code)?.find((candidate) => candidate.fips === query);
      if (counties && !county) {
        throw new BadRequestError(`Invalid value for 'county': no county with FIPS "${query}" in ${state.code}.`);
      }
      return { kind: 'no-override', county, query };
    }
    const key = normaliseCountyName(query);
    if (key.length === 0 || query.length > 100) {
      throw new BadRequestError(`Invalid value for 'county': give a county name (e.g. "Cook County") or a 5-digit FIPS code.`);
    }
    const override = overrides.find((candidate) => overrideKeys(candidate).includes(key));
    if (override) return { kind: 'override', override };
    if (!counties) return { kind: 'no-override', county: undefined, query };
    const county = counties.get(state.code)?.find((candidate) => normaliseCountyName(candidate.name) === key);
    if (!county) {
      throw new BadRequestError(
        `Invalid value for 'county': "${query.slice(0, 80)}" is not a county of ${state.name}; give its name (e.g. "${counties.get(state.code)?.[0]?.name ?? 'Cook County'}") or 5-digit FIPS code.`,
      );
    }
    return { kind: 'no-override', county, query };
  };
}
