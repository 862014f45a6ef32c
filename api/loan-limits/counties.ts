// The `counties` dataset: Census's county list (FIPS, state, official name) plus Connecticut's
// planning regions from data/loan-limits, so lookups accept both the old CT counties and the
// regions, by name or 5-digit FIPS, and answers use Census spellings.
import fs from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT } from '../config.ts';
import { columnIndexes, decodeText, parseDelimited } from '../sync/delimited.ts';
import { SourceFormatError, ValidationError } from '../sync/errors.ts';
import type { DatasetDefinition } from '../sync/types.ts';
import { deleteMissingRows, upsertRows } from '../sync/upsert.ts';
import { matchKey } from './names.ts';
import { countiesSource } from './sources.ts';

export interface CountyRow {
  fips: string;
  state: string;
  stateFips: string;
  name: string;
  kind: 'county' | 'planning_region';
  note: string | null;
}

interface PlanningRegions {
  sourceUrl: string;
  regions: { fips: string; name: string }[];
}

export const PLANNING_REGIONS_FILE = path.join(PROJECT_ROOT, 'data', 'loan-limits', 'connecticut-planning-regions.json');

export function readPlanningRegions(): PlanningRegions {
  return JSON.parse(fs.readFileSync(PLANNING_REGIONS_FILE, 'utf8')) as PlanningRegions;
}

/** Parses Census's `State,State ANSI,County ANSI,County Name,ANSI Cl,Complete FIPS` list. */
export function parseCountyList(bytes: Buffer | string, file: string): CountyRow[] {
  const records = parseDelimited(decodeText(bytes), ',', file);
  const [header, ...body] = records;
  if (!header) throw new SourceFormatError(file, 1, 'the file is empty');
  const column = columnIndexes(
    header,
    { state: ['State'], stateFips: ['State ANSI'], countyFips: ['County ANSI'], name: ['County Name'], fips: ['Complete FIPS'] },
    file,
  );
  return body.map(({ line, fields }) => {
    const get = (index: number) => (fields[index] ?? '').trim();
    const state = get(column.state);
    const stateFips = get(column.stateFips).padStart(2, '0');
    const fips = get(column.fips).padStart(5, '0');
    const name = get(column.name);
    if (!/^[A-Z]{2}$/.test(state)) throw new SourceFormatError(file, line, `state "${state}" is not a 2-letter code`);
    if (!/^\d{5}$/.test(fips) || !fips.startsWith(stateFips)) {
      throw new SourceFormatError(file, line, `county FIPS "${get(column.fips)}" is not 5 digits of state ${stateFips}`);
    }
    if (name === '') throw new SourceFormatError(file, line, 'county name is empty');
    return { fips, state, stateFips, name, kind: 'county' as const, note: null };
  });
}

export const countiesDataset: DatasetDefinition = {
  name: 'counties',
  description: 'Census county FIPS codes and names, plus Connecticut planning regions',
  async load(tx, context) {
    const file = await context.readSource(countiesSource);
    const counties = parseCountyList(file.bytes, file.origin);
    const regions = readPlanningRegions();
    const ctFips = counties.find((county) => county.state === 'CT')?.stateFips ?? '09';
    for (const county of counties) {
      if (county.state === 'CT') county.note = 'Former Connecticut county (replaced by planning regions in 2022); FHFA and HUD still list it for some years.';
    }
    for (const region of regions.regions) {
      if (counties.some((county) => county.fips === region.fips)) continue;
      counties.push({ fips: region.fips, state: 'CT', stateFips: ctFips, name: region.name, kind: 'planning_region', note: `Census county-equivalent since 2022 (${regions.sourceUrl}).` });
    }
    // Validation gates: the whole country, unique codes, known anchors.
    const unique = new Set(counties.map((county) => county.fips));
    if (unique.size !== counties.length) throw new ValidationError(`${file.origin}: duplicate county FIPS codes.`);
    if (counties.length < 3_200) throw new ValidationError(`${file.origin}: only ${counties.length} counties; expected at least 3,200.`);
    const anchor = counties.find((county) => county.fips === '06037');
    if (anchor?.name !== 'Los Angeles County') throw new ValidationError(`${file.origin}: 06037 is not Los Angeles County.`);

    const rows = counties.map((c) => [c.fips, c.state, c.stateFips, c.name, matchKey(c.name), c.kind, c.note]);
    let changed = await upsertRows(tx, {
      table: 'counties',
      key: ['fips'],
      columns: ['fips', 'state', 'state_fips', 'name', 'match_key', 'kind', 'note'],
      rows,
      onBatch: (done, total) => context.progress(done, total),
    });
    changed += await deleteMissingRows(tx, { table: 'counties', key: ['fips'], scope: 'true', keep: rows.map((row) => [row[0]]) });
    return {
      asOf: context.clock().toISOString().slice(0, 10),
      sourceUrl: countiesSource.publisherUrl,
      checksum: file.checksum,
      rows: counties.length,
      changed,
      details: { file: countiesSource.mirrorPath, planningRegions: regions.regions.length, planningRegionSource: regions.sourceUrl },
    };
  },
};
