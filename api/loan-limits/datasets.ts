// The loan-limit datasets `npm run sync` loads: FHFA conforming limits and HUD FHA forward limits,
// every county, every year the source has. Each year is parsed and validated before anything is
// written; the whole dataset then upserts in the runner's single transaction.
import type { Queryable } from '../platform/db/database.ts';
import { SourceUnavailableError, ValidationError } from '../sync/errors.ts';
import { yearsOption } from '../sync/runner.ts';
import { combineChecksums } from '../sync/source.ts';
import type { DatasetDefinition, DatasetLoadResult, SourceEntry, SourceFile, SyncContext } from '../sync/types.ts';
import { deleteMissingRows, upsertRows } from '../sync/upsert.ts';
import { parseConformingFile, type LimitRow } from './fhfa-parser.ts';
import { parseFhaFile, type FhaRow } from './hud-parser.ts';
import { CONFORMING_YEARS, FHA_YEARS, FHFA_PAGE, HUD_PAGE, LOOKAHEAD_YEARS, conformingSource, fhaSource } from './sources.ts';
import {
  CONFORMING_ANCHORS,
  FHA_ANCHORS,
  checkAgainstHistory,
  checkAnchors,
  checkCounties,
  nationalFigures,
  type NationalFigures,
} from './validate.ts';
import { archiveProgram } from './snapshot.ts';

type Program = 'conforming' | 'fha';

interface YearLoad {
  year: number;
  file: SourceFile;
  rows: (LimitRow | FhaRow)[];
  national: NationalFigures;
  notes: string[];
}

/** Years to read: published ones must exist; later ones (and requested unpublished ones) may not. */
function plannedYears(context: SyncContext, published: readonly number[]): { year: number; required: boolean }[] {
  const requested = yearsOption(context.options);
  if (requested) return requested.map((year) => ({ year, required: published.includes(year) }));
  const last = Math.max(...published);
  const lookahead = Array.from({ length: LOOKAHEAD_YEARS }, (_v, index) => last + index + 1);
  const first = Math.min(...published);
  const all = Array.from({ length: last - first + 1 }, (_v, index) => first + index);
  return [...all, ...lookahead].map((year) => ({ year, required: published.includes(year) }));
}

async function readYear(context: SyncContext, entry: SourceEntry, required: boolean): Promise<SourceFile | undefined> {
  return required ? context.readSource(entry) : context.readOptionalSource(entry);
}

async function countyNames(tx: Queryable): Promise<Set<string>> {
  const { rows } = await tx.query<{ fips: string }>('SELECT fips FROM counties');
  return new Set(rows.map((row) => row.fips));
}

async function publishYears(tx: Queryable, program: Program, loads: YearLoad[], context: SyncContext): Promise<number> {
  const rows = loads.flatMap(({ year, rows: counties }) =>
    counties.map((row) => {
      const fha = 'limitType' in row ? row : undefined;
      return [
        program,
        year,
        row.fips,
        row.state,
        row.sourceName,
        row.cbsa,
        ...row.limits,
        fha?.limitType ?? null,
        fha?.medianPrice ?? null,
      ];
    }),
  );
  let changed = await upsertRows(tx, {
    table: 'loan_limits',
    key: ['program', 'year', 'fips'],
    columns: [
      'program',
      'year',
      'fips',
      'state',
      'source_name',
      'cbsa',
      'limit_1',
      'limit_2',
      'limit_3',
      'limit_4',
      'limit_type',
      'median_price',
    ],
    rows,
    onBatch: (done, total) => context.progress(total + done, 2 * total), // reading was the first half
  });
  const years = loads.map((load) => load.year);
  changed += await deleteMissingRows(tx, {
    table: 'loan_limits',
    key: ['program', 'year', 'fips'],
    scope: 'program = $1 AND year = ANY($2::int[])',
    scopeParams: [program, years],
    keep: rows.map((row) => row.slice(0, 3)),
  });
  const national = loads.flatMap(({ year, national: figures, notes }) => [
    [program, year, 'floor', ...figures.floor, notes.join(' ') || null],
    [program, year, 'ceiling', ...figures.ceiling, null],
  ]);
  await upsertRows(tx, {
    table: 'loan_limit_national',
    key: ['program', 'year', 'kind'],
    columns: ['program', 'year', 'kind', 'limit_1', 'limit_2', 'limit_3', 'limit_4', 'note'],
    rows: national,
  });
  return changed;
}

async function finish(
  tx: Queryable,
  program: Program,
  loads: YearLoad[],
  changed: number,
  sourceUrl: string,
  missing: number[],
): Promise<DatasetLoadResult> {
  const { rows } = await tx.query<{ count: string | number }>('SELECT count(*) AS count FROM loan_limits WHERE program = $1', [program]);
  const latest = Math.max(...loads.map((load) => load.year));
  return {
    asOf: `${latest}-01-01`,
    sourceUrl,
    checksum: combineChecksums(loads.map((load) => load.file)),
    rows: Number(rows[0]?.count ?? 0),
    changed,
    details: {
      years: loads.map((load) => load.year),
      missingYears: missing,
      files: loads.map((load) => ({
        year: load.year,
        url: load.file.entry.publisherUrl,
        checksum: load.file.checksum,
        counties: load.rows.length,
      })),
      national: Object.fromEntries(loads.map((load) => [load.year, { floor: load.national.floor, ceiling: load.national.ceiling }])),
      notes: loads.flatMap((load) => load.notes.map((note) => `${load.year}: ${note}`)),
    },
  };
}

function unknownCountyCheck(rows: readonly LimitRow[], known: ReadonlySet<string>, file: string): void {
  const unknown = rows.filter((row) => !known.has(row.fips));
  // A handful of renamed county-equivalents is normal; many means the file or the geography is wrong.
  if (unknown.length > 25) {
    throw new ValidationError(
      `${file}: ${unknown.length} county codes are not in the county list (e.g. ${unknown
        .slice(0, 5)
        .map((row) => `${row.fips} line ${row.line}`)
        .join(', ')}).`,
    );
  }
}

export const conformingDataset: DatasetDefinition = {
  name: 'loan_limits_conforming',
  description: 'FHFA conforming loan limits, 1–4 units, every county, 2018 onward (VA uses these)',
  dependsOn: ['counties'],
  archive: (tx) => archiveProgram(tx, 'conforming'),
  async load(tx, context) {
    const known = await countyNames(tx);
    const loads: YearLoad[] = [];
    const missing: number[] = [];
    const plan = plannedYears(context, CONFORMING_YEARS);
    for (const [index, { year, required }] of plan.entries()) {
      context.progress(index, plan.length * 2);
      const file = await readYear(context, conformingSource(year), required);
      if (!file) {
        missing.push(year);
        continue;
      }
      const rows = await parseConformingFile(file.bytes, file.origin);
      checkCounties(rows, file.origin);
      unknownCountyCheck(rows, known, file.origin);
      const national = nationalFigures(rows);
      checkAgainstHistory('conforming', year, national, file.origin);
      checkAnchors(CONFORMING_ANCHORS, year, rows, national, file.origin);
      loads.push({ year, file, rows, national, notes: [] });
    }
    if (loads.length === 0)
      throw new SourceUnavailableError(`No FHFA conforming loan-limit file found for ${plan.map((p) => p.year).join(', ')}.`);
    const changed = await publishYears(tx, 'conforming', loads, context);
    return finish(tx, 'conforming', loads, changed, FHFA_PAGE, missing);
  },
};

export const fhaDataset: DatasetDefinition = {
  name: 'loan_limits_fha',
  description: 'HUD FHA forward mortgage limits, 1–4 units, every county (CHUMS)',
  dependsOn: ['counties'],
  archive: (tx) => archiveProgram(tx, 'fha'),
  async load(tx, context) {
    const known = await countyNames(tx);
    const { rows: states } = await tx.query<{ state: string; state_fips: string }>('SELECT DISTINCT state, state_fips FROM counties');
    const stateFips = new Map(states.map((row) => [row.state, row.state_fips]));
    const loads: YearLoad[] = [];
    const missing: number[] = [];
    const plan = plannedYears(context, FHA_YEARS);
    for (const [index, { year, required }] of plan.entries()) {
      context.progress(index, plan.length * 2);
      const file = await readYear(context, fhaSource(year), required);
      if (!file) {
        missing.push(year);
        continue;
      }
      const parsed = parseFhaFile(file.bytes, file.origin, stateFips);
      checkCounties(parsed.counties, file.origin);
      unknownCountyCheck(parsed.counties, known, file.origin);
      const national = nationalFigures(parsed.counties);
      const notes: string[] = [];
      // HUD's national rows should restate the county floor and ceiling; trust the counties when a
      // national row disagrees slightly (2025's 203B row reads 524,255 for 524,225), fail when far off.
      for (const [label, row, value] of [
        ['203B floor', parsed.floor, national.floor[0]],
        ['ZZ203 ceiling', parsed.ceiling, national.ceiling[0]],
      ] as const) {
        if (!row) {
          notes.push(`no national ${label} row; the county figure ${value} is used`);
        } else if (row.limits[0] !== value) {
          if (Math.abs(row.limits[0] - value) / value > 0.01) {
            throw new ValidationError(
              `${file.origin}:${row.line}: national ${label} ${row.limits[0]} disagrees with the county records (${value}).`,
            );
          }
          notes.push(
            `HUD's national ${label} row (line ${row.line}) reads ${row.limits[0]}; the county records give ${value}, which is used`,
          );
        }
      }
      checkAgainstHistory('fha', year, national, file.origin);
      checkAnchors(FHA_ANCHORS, year, parsed.counties, national, file.origin);
      loads.push({ year, file, rows: parsed.counties, national, notes });
    }
    if (loads.length === 0) throw new SourceUnavailableError(`No HUD FHA limit file found for ${plan.map((p) => p.year).join(', ')}.`);
    const changed = await publishYears(tx, 'fha', loads, context);
    return finish(tx, 'fha', loads, changed, HUD_PAGE, missing);
  },
};
