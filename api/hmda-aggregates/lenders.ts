// The `hmda_lenders` dataset: HMDA filers from the transmittal sheet (LEI, name, supervising agency,
// records reported). Only the 2020 sheet is available; no other year is inferred from it.
import { columnIndexes, decodeText, parseDelimited } from '../sync/delimited.ts';
import { SourceFormatError, ValidationError } from '../sync/errors.ts';
import { combineChecksums } from '../sync/source.ts';
import { deleteMissingRows, upsertRows } from '../sync/upsert.ts';
import type { DatasetDefinition, SourceFile } from '../sync/types.ts';
import { firstZipEntry, isZip } from '../sync/zip.ts';
import { LENDER_YEARS, agencyNamesEntry, transmittalSheetEntry } from './sources.ts';

export const HMDA_LENDERS_DATASET = 'hmda_lenders';

/** Published 2020 total of `lar_count` (SOURCES.md): the sheet must add up to it. */
const ANCHOR_LAR_TOTALS: Record<number, number> = { 2020: 25_551_868 };

const text = (file: SourceFile) => decodeText(isZip(file.bytes) ? firstZipEntry(file.bytes, file.origin) : file.bytes);

export function parseAgencyNames(file: SourceFile): Map<number, string> {
  const [header, ...records] = parseDelimited(text(file), ',', file.origin);
  if (!header) throw new SourceFormatError(file.origin, 1, 'empty file');
  const columns = columnIndexes(header, { code: ['agency_code'], name: ['agency_type'] }, file.origin);
  const names = new Map<number, string>();
  for (const record of records) {
    const code = Number(record.fields[columns.code]);
    const name = (record.fields[columns.name] ?? '').trim();
    if (!Number.isInteger(code) || name === '') throw new SourceFormatError(file.origin, record.line, 'expected an agency code and name');
    names.set(code, name);
  }
  return names;
}

export interface LenderRow {
  line: number;
  year: number;
  lei: string;
  name: string;
  agencyCode: number;
  state: string | null;
  city: string | null;
  larCount: number;
}

export function parseTransmittalSheet(file: SourceFile, year: number): LenderRow[] {
  const [header, ...records] = parseDelimited(text(file), ',', file.origin);
  if (!header) throw new SourceFormatError(file.origin, 1, 'empty file');
  const columns = columnIndexes(
    header,
    {
      year: ['activity_year'],
      lei: ['lei'],
      agency: ['agency_code'],
      name: ['respondent_name'],
      state: ['respondent_state'],
      city: ['respondent_city'],
      lar: ['lar_count'],
    },
    file.origin,
  );
  return records.map((record) => {
    const field = (name: keyof typeof columns) => (record.fields[columns[name]] ?? '').trim();
    const lei = field('lei').toUpperCase();
    const larCount = Number(field('lar'));
    const agencyCode = Number(field('agency'));
    if (Number(field('year')) !== year)
      throw new SourceFormatError(file.origin, record.line, `activity_year is ${field('year')}, expected ${year}`);
    if (!/^[A-Z0-9]{20}$/.test(lei)) throw new SourceFormatError(file.origin, record.line, `LEI "${lei}" is not 20 letters and digits`);
    if (!Number.isSafeInteger(larCount) || larCount < 0)
      throw new SourceFormatError(file.origin, record.line, `lar_count "${field('lar')}" is not a whole number`);
    if (!Number.isInteger(agencyCode))
      throw new SourceFormatError(file.origin, record.line, `agency_code "${field('agency')}" is not a number`);
    if (field('name') === '') throw new SourceFormatError(file.origin, record.line, 'respondent_name is empty');
    return {
      line: record.line,
      year,
      lei,
      name: field('name'),
      agencyCode,
      state: field('state') || null,
      city: field('city') || null,
      larCount,
    };
  });
}

export const hmdaLendersDataset: DatasetDefinition = {
  name: HMDA_LENDERS_DATASET,
  description: 'HMDA filers from the 2020 transmittal sheet: LEI, name, supervising agency, records reported (FFIEC)',
  async load(tx, context) {
    const agencyFile = await context.readSource(agencyNamesEntry);
    const agencies = parseAgencyNames(agencyFile);
    const files: SourceFile[] = [agencyFile];
    const rows: LenderRow[] = [];
    for (const year of LENDER_YEARS) {
      const file = await context.readSource(transmittalSheetEntry(year));
      files.push(file);
      const parsed = parseTransmittalSheet(file, year);
      const seen = new Set<string>();
      for (const row of parsed) {
        if (seen.has(row.lei)) throw new SourceFormatError(file.origin, row.line, `LEI ${row.lei} appears twice`);
        seen.add(row.lei);
        if (!agencies.has(row.agencyCode))
          throw new SourceFormatError(file.origin, row.line, `agency_code ${row.agencyCode} is not in ${agencyFile.origin}`);
      }
      const total = parsed.reduce((sum, row) => sum + row.larCount, 0);
      const anchor = ANCHOR_LAR_TOTALS[year];
      if (anchor !== undefined && total !== anchor) {
        throw new ValidationError(`${file.origin}: lar_count sums to ${total}; the published ${year} total is ${anchor}.`);
      }
      rows.push(...parsed);
    }
    const values = rows.map((row) => [
      row.year,
      row.lei,
      row.name,
      row.agencyCode,
      agencies.get(row.agencyCode) ?? '',
      row.state,
      row.city,
      row.larCount,
    ]);
    let changed = await upsertRows(tx, {
      table: 'hmda_lenders',
      key: ['year', 'lei'],
      columns: ['year', 'lei', 'respondent_name', 'agency_code', 'agency_name', 'respondent_state', 'respondent_city', 'lar_count'],
      rows: values,
      onBatch: (done, total) => context.progress(done, total),
    });
    changed += await deleteMissingRows(tx, {
      table: 'hmda_lenders',
      key: ['year', 'lei'],
      scope: 'year = ANY($1)',
      scopeParams: [[...LENDER_YEARS]],
      keep: values.map((row) => row.slice(0, 2)),
    });
    const latest = Math.max(...LENDER_YEARS);
    return {
      asOf: `${latest}-12-31`,
      sourceUrl: transmittalSheetEntry(latest).publisherUrl,
      checksum: combineChecksums(files),
      rows: rows.length,
      changed,
      details: {
        years: [...LENDER_YEARS],
        lenders: rows.length,
        lar_total: rows.reduce((sum, row) => sum + row.larCount, 0),
        agencies: Object.fromEntries(agencies),
      },
    };
  },
};
