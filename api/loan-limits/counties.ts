// The `counties` dataset: Census's county list (FIPS, state, official name) plus Connecticut's
// planning regions from data/loan-limits, so lookups accept both the old CT counties and the
// regions, by name or 5-digit FIPS, and answers use Census spellings.
import fs from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT } from '../config.ts';
import { parseCountyList } from '../geo/county-list.ts';
import { ValidationError } from '../sync/errors.ts';
import type { DatasetDefinition } from '../sync/types.ts';
import { deleteMissingRows, upsertRows } from '../sync/upsert.ts';
import { matchKey } from '../geo/county-names.ts';
import { countiesSource } from './sources.ts';
import { archiveCounties } from './snapshot.ts';

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

/**
 * The list's vintage: Census publishes its county list without a date, so the list is dated by the
 * newest county code it holds, at the date that code took effect in Census's register of county
 * changes (below). Codes are checked against the Census file's own rows, before the planning
 * regions of our own data file are added.
 *
 * Each date is the one its `source` gives: Census's register, one page per decade, and for
 * Connecticut the date the Federal Register published the notice making the planning regions county
 * equivalents. Checked 2026-11-24, not against the live pages but against the decade pages' text as
 * copied into public repositories (the 2000s page whole; the 2010s page as copied in 2017 for the
 * 2015 renames, and as quoted entry by entry for the 2019 Alaska split), and for Connecticut against
 * the Connecticut Office of Policy and Management's account of the notice (portal.ct.gov); Census's
 * own 2020s page was not found.
 */
export const COUNTY_CHANGES_PAGE = 'https://www.census.gov/programs-surveys/geography/technical-documentation/county-changes.html';
const CHANGES_2000S = 'https://www.census.gov/programs-surveys/geography/technical-documentation/county-changes.2000.html';
const CHANGES_2010S = 'https://www.census.gov/programs-surveys/geography/technical-documentation/county-changes.2010.html';
const CONNECTICUT_NOTICE =
  'https://www.federalregister.gov/documents/2022/06/06/2022-12063/change-to-county-equivalents-in-the-state-of-connecticut';
const COUNTY_CODE_CHANGES: { fips: string; effective: string; change: string; source: string }[] = [
  { fips: '08014', effective: '2001-11-15', change: 'Broomfield County, CO created', source: CHANGES_2000S },
  {
    fips: '46102',
    effective: '2015-05-01',
    change: 'Shannon County, SD renamed Oglala Lakota County (46113 → 46102)',
    source: CHANGES_2010S,
  },
  {
    fips: '02158',
    effective: '2015-07-01',
    change: 'Wade Hampton Census Area, AK renamed Kusilvak Census Area (02270 → 02158)',
    source: CHANGES_2010S,
  },
  {
    fips: '02063',
    effective: '2019-01-02',
    change: 'Chugach Census Area, AK created from Valdez-Cordova Census Area',
    source: CHANGES_2010S,
  },
  {
    fips: '02066',
    effective: '2019-01-02',
    change: 'Copper River Census Area, AK created from Valdez-Cordova Census Area',
    source: CHANGES_2010S,
  },
  {
    fips: '09110',
    effective: '2022-06-06',
    change: "Connecticut's planning regions adopted as county equivalents (09110–09190)",
    source: CONNECTICUT_NOTICE,
  },
];

/** The effective date of the newest county code in the list, and which change that was. */
export function countyListVintage(
  counties: readonly Pick<CountyRow, 'fips'>[],
  file: string,
): { asOf: string; fips: string; change: string } {
  const codes = new Set(counties.map((county) => county.fips));
  const newest = COUNTY_CODE_CHANGES.filter((entry) => codes.has(entry.fips))
    .sort((a, b) => a.effective.localeCompare(b.effective))
    .at(-1);
  if (!newest) throw new ValidationError(`${file}: none of the county codes created since 2001 is in the list, so its vintage is unknown.`);
  return { asOf: newest.effective, fips: newest.fips, change: newest.change };
}

export const PLANNING_REGIONS_FILE = path.join(PROJECT_ROOT, 'data', 'loan-limits', 'connecticut-planning-regions.json');

export function readPlanningRegions(): PlanningRegions {
  return JSON.parse(fs.readFileSync(PLANNING_REGIONS_FILE, 'utf8')) as PlanningRegions;
}

export const countiesDataset: DatasetDefinition = {
  name: 'counties',
  description: 'Census county FIPS codes and names, plus Connecticut planning regions',
  archive: archiveCounties,
  async load(tx, context) {
    const file = await context.readSource(countiesSource);
    const counties: CountyRow[] = parseCountyList(file.bytes, file.origin).map((county) => ({ ...county, kind: 'county', note: null }));
    const vintage = countyListVintage(counties, file.origin);
    const regions = readPlanningRegions();
    const ctFips = counties.find((county) => county.state === 'CT')?.stateFips ?? '09';
    for (const county of counties) {
      if (county.state === 'CT')
        county.note = 'Former Connecticut county (replaced by planning regions in 2022); FHFA and HUD still list it for some years.';
    }
    for (const region of regions.regions) {
      if (counties.some((county) => county.fips === region.fips)) continue;
      counties.push({
        fips: region.fips,
        state: 'CT',
        stateFips: ctFips,
        name: region.name,
        kind: 'planning_region',
        note: `Census county-equivalent since 2022 (${regions.sourceUrl}).`,
      });
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
      asOf: vintage.asOf,
      sourceUrl: countiesSource.publisherUrl,
      checksum: file.checksum,
      rows: counties.length,
      changed,
      details: {
        file: countiesSource.mirrorPath,
        planningRegions: regions.regions.length,
        planningRegionSource: regions.sourceUrl,
        vintage: { newestCode: vintage.fips, change: vintage.change, effective: vintage.asOf, source: COUNTY_CHANGES_PAGE },
      },
    };
  },
};
