// The `hmda_aggregates` dataset: the official HMDA Maps state and county aggregates and the Data
// Browser record counts, 2018–2025, validated against each other, with national rows summed from
// every state-level key (50 states, DC, territories and the records whose state was not reported).
import { ValidationError } from '../sync/errors.ts';
import { yearsOption } from '../sync/runner.ts';
import { combineChecksums } from '../sync/source.ts';
import { deleteMissingRows, upsertRows } from '../sync/upsert.ts';
import type { DatasetDefinition, SourceFile, SyncContext } from '../sync/types.ts';
import type { Queryable } from '../platform/db/database.ts';
import { STATE_CODES } from '../geo/states.ts';
import { checkAgainstRecordCounts, parseGeoAggregates, parseRecordCounts, sumCounts, type GeoAggregates } from './parse.ts';
import { AGGREGATE_YEARS, DATA_BROWSER_URL, countyAggregatesEntry, recordCountsEntry, stateAggregatesEntry } from './sources.ts';

export const HMDA_AGGREGATES_DATASET = 'hmda_aggregates';

/** Published national record counts used as anchors (SOURCES: the 2024 states sum to 12,259,199). */
const ANCHOR_TOTALS: Record<number, number> = { 2024: 12_259_199 };

interface YearLoad {
  year: number;
  files: SourceFile[];
  states: GeoAggregates;
  counties: GeoAggregates;
  stateCounts: Record<string, number>;
  countyCounts: Record<string, number>;
  unbroken: Record<string, number>;
}

async function readYear(context: SyncContext, year: number): Promise<YearLoad | undefined> {
  const stateFile = await context.readOptionalSource(stateAggregatesEntry(year));
  if (!stateFile) return undefined;
  const countyFile = await context.readSource(countyAggregatesEntry(year));
  const stateCountsFile = await context.readSource(recordCountsEntry('state', year));
  const countyCountsFile = await context.readSource(recordCountsEntry('county', year));
  const states = parseGeoAggregates(stateFile.bytes.toString('utf8'), stateFile.origin);
  const counties = parseGeoAggregates(countyFile.bytes.toString('utf8'), countyFile.origin);
  const stateCounts = parseRecordCounts(stateCountsFile.bytes.toString('utf8'), stateCountsFile.origin);
  const countyCounts = parseRecordCounts(countyCountsFile.bytes.toString('utf8'), countyCountsFile.origin);

  const stateCheck = checkAgainstRecordCounts(states, stateCounts, stateFile.origin, stateCountsFile.origin);
  const countyCheck = checkAgainstRecordCounts(counties, countyCounts, countyFile.origin, countyCountsFile.origin);
  for (const key of Object.keys(states)) {
    if (!/^[A-Z]{2}$/.test(key)) throw new ValidationError(`${stateFile.origin}: "${key}" is not a two-letter state code.`);
  }
  const missing = STATE_CODES.filter((code) => states[code] === undefined);
  if (missing.length > 0) throw new ValidationError(`${stateFile.origin}: no aggregates for ${missing.join(', ')}.`);
  // Both record-count files count every record of the year once: their totals must agree.
  const stateTotal = sumCounts(stateCounts);
  const countyTotal = sumCounts(countyCounts);
  if (stateTotal !== countyTotal) {
    throw new ValidationError(
      `${year}: state record counts sum to ${stateTotal} but county record counts to ${countyTotal} (${stateCountsFile.origin}, ${countyCountsFile.origin}).`,
    );
  }
  const anchor = ANCHOR_TOTALS[year];
  if (anchor !== undefined && stateTotal !== anchor) {
    throw new ValidationError(
      `${stateCountsFile.origin}: ${year} record counts sum to ${stateTotal}; the published national total is ${anchor}.`,
    );
  }
  return {
    year,
    files: [stateFile, countyFile, stateCountsFile, countyCountsFile],
    states,
    counties,
    stateCounts,
    countyCounts,
    unbroken: {
      ...stateCheck.unbrokenKeys,
      ...Object.fromEntries(Object.entries(countyCheck.unbrokenKeys).map(([key, value]) => [`county:${key}`, value])),
    },
  };
}

type LongRow = [number, string, string, string, string, number];

function longRows(load: YearLoad): LongRow[] {
  const rows: LongRow[] = [];
  const nation = new Map<string, number>();
  for (const [geo, dimensions] of Object.entries(load.states)) {
    for (const [dimension, codes] of Object.entries(dimensions)) {
      for (const [code, value] of Object.entries(codes)) {
        rows.push([load.year, 'state', geo, dimension, code, value]);
        const key = `${dimension}\u0000${code}`;
        nation.set(key, (nation.get(key) ?? 0) + value);
      }
    }
  }
  for (const [key, value] of nation) {
    const [dimension = '', code = ''] = key.split('\u0000');
    rows.push([load.year, 'nation', 'US', dimension, code, value]);
  }
  return rows;
}

/** What the dataset's record keeps of a year once its rows are stored: its files' identity and counts. */
interface StoredYear {
  year: number;
  files: Pick<SourceFile, 'entry' | 'checksum'>[];
  records: number;
  unbroken: Record<string, number>;
}

/** Writes one year's rows, removes the year's rows the files no longer have, and checks the national total. */
async function storeYear(tx: Queryable, load: YearLoad): Promise<number> {
  const long = longRows(load);
  const county = Object.entries(load.counties)
    .filter(([fips]) => /^\d{5}$/.test(fips))
    .map(([fips, counts]) => [load.year, fips, load.countyCounts[fips] ?? 0, counts] as const);
  const recordCounts = [
    ...Object.entries(load.stateCounts).map(([geo, records]) => [load.year, 'state', geo, records] as const),
    ...Object.entries(load.countyCounts).map(([geo, records]) => [load.year, 'county', geo, records] as const),
  ];
  let changed = await upsertRows(tx, {
    table: 'hmda_aggregates',
    key: ['year', 'geo_level', 'geo_code', 'dimension', 'code'],
    columns: ['year', 'geo_level', 'geo_code', 'dimension', 'code', 'count'],
    rows: long,
  });
  changed += await upsertRows(tx, {
    table: 'hmda_county_aggregates',
    key: ['year', 'fips'],
    columns: ['year', 'fips', 'records', 'counts'],
    rows: county,
  });
  // The year's counties once more as one document, which the series read in one row (migration 0420).
  const document = county.map(([, fips, , counts]) => `${fips} ${JSON.stringify(counts)}`).join('\n');
  await tx.query('INSERT INTO hmda_county_counts (year, body) VALUES ($1, $2) ON CONFLICT (year) DO UPDATE SET body = EXCLUDED.body', [
    load.year,
    document,
  ]);
  changed += await upsertRows(tx, {
    table: 'hmda_record_counts',
    key: ['year', 'geo_level', 'geo_code'],
    columns: ['year', 'geo_level', 'geo_code', 'records'],
    rows: recordCounts,
  });
  const scope = { scope: 'year = $1', scopeParams: [load.year] };
  changed += await deleteMissingRows(tx, {
    table: 'hmda_aggregates',
    key: ['year', 'geo_level', 'geo_code', 'dimension', 'code'],
    keep: long.map((row) => row.slice(0, 5)),
    ...scope,
  });
  changed += await deleteMissingRows(tx, {
    table: 'hmda_county_aggregates',
    key: ['year', 'fips'],
    keep: county.map((row) => row.slice(0, 2)),
    ...scope,
  });
  changed += await deleteMissingRows(tx, {
    table: 'hmda_record_counts',
    key: ['year', 'geo_level', 'geo_code'],
    keep: recordCounts.map((row) => row.slice(0, 3)),
    ...scope,
  });

  // The stored national action-taken total must equal the official records of the state keys.
  const { rows } = await tx.query<{ total: string }>(
    `SELECT sum(count)::text AS total FROM hmda_aggregates WHERE year = $1 AND geo_level = 'nation' AND dimension = 'actionTaken'`,
    [load.year],
  );
  const expected = Object.keys(load.states).reduce((total, geo) => total + (load.stateCounts[geo] ?? 0), 0);
  if (Number(rows[0]?.total) !== expected) {
    throw new ValidationError(
      `${load.year}: national action-taken total ${rows[0]?.total} differs from the state record counts (${expected}).`,
    );
  }
  return changed;
}

export const hmdaAggregatesDataset: DatasetDefinition = {
  name: HMDA_AGGREGATES_DATASET,
  description:
    'FFIEC HMDA Maps state and county aggregates with Data Browser record counts, 2018–2025 (counts by action, loan type, purpose, demographics)',
  async load(tx, context) {
    const wanted = yearsOption(context.options)?.filter((year) => (AGGREGATE_YEARS as readonly number[]).includes(year)) ?? [
      ...AGGREGATE_YEARS,
    ];
    // One year at a time, in the one transaction: a year's files and parsed objects are garbage before
    // the next year is read. All years at once held ~100 MiB in the sync's thread, the peak of a sync.
    const stored: StoredYear[] = [];
    let changed = 0;
    for (const [index, year] of wanted.entries()) {
      context.progress(index, wanted.length + 1);
      const load = await readYear(context, year);
      if (!load) continue;
      changed += await storeYear(tx, load);
      stored.push({
        year,
        files: load.files.map(({ entry, checksum }) => ({ entry, checksum })),
        records: sumCounts(load.stateCounts),
        unbroken: load.unbroken,
      });
    }
    if (stored.length === 0) throw new ValidationError(`No HMDA aggregate files found for ${wanted.join(', ')}.`);
    const years = stored.map((load) => load.year);
    context.progress(wanted.length + 1, wanted.length + 1);

    const { rows: total } = await tx.query<{ n: string }>(
      `SELECT ((SELECT count(*) FROM hmda_aggregates) + (SELECT count(*) FROM hmda_county_aggregates) + (SELECT count(*) FROM hmda_record_counts))::text AS n`,
    );
    const latest = Math.max(...years);
    return {
      asOf: `${latest}-12-31`,
      sourceUrl: DATA_BROWSER_URL,
      checksum: combineChecksums(stored.flatMap((load) => load.files)),
      rows: Number(total[0]?.n ?? 0),
      changed,
      details: {
        years,
        files: stored.flatMap((load) =>
          load.files.map((file) => (file.entry.publisherUrl === DATA_BROWSER_URL ? file.entry.downloadUrl : file.entry.publisherUrl)),
        ),
        national_records: Object.fromEntries(stored.map((load) => [load.year, load.records])),
        records_without_breakdown: Object.fromEntries(stored.map((load) => [load.year, load.unbroken])),
        nation_definition: 'sum of every state-level key: 50 states, DC, territories and NA (state not reported)',
      },
    };
  },
};
