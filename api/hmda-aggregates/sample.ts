// The `hmda_loan_sample` dataset: a 50,000-record sample of public HMDA records with 11 columns
// (originated or denied only). Its publisher states neither the year nor the state of the records,
// so nothing drawn from it claims one: its statistics carry no data_year and say why.
import { columnIndexes, parseDelimited } from '../sync/delimited.ts';
import { SourceFormatError, ValidationError } from '../sync/errors.ts';
import { upsertRows } from '../sync/upsert.ts';
import type { DatasetDefinition } from '../sync/types.ts';
import { loanSampleEntry } from './sources.ts';

export const HMDA_LOAN_SAMPLE_DATASET = 'hmda_loan_sample';

/**
 * The only date the file carries: the day its publisher committed it (BhavanaSai1/loan-approval-
 * bias-auditor, commit d77c91cbf14e0d8f8bedcabccead27da3ffba3ae "Add sample dataset", 2026-05-14;
 * unchanged at the commit the mirror copies). It dates the file, not the loans.
 */
export const SAMPLE_PUBLISHED = '2026-05-14';

/** What is known of the records' period, in place of a year the publisher does not state. */
export const SAMPLE_YEAR_NOTE =
  'The publisher of this 50,000-record sample states neither the year nor the state of its records. They carry loan-to-value ratios, ' +
  'property values and age bands, which public HMDA data hold from activity year 2018 on, so they describe 2018 or a later year; ' +
  `the file was published on ${SAMPLE_PUBLISHED}.`;

/** Empty, `NA` and HMDA's "Exempt" read as missing; anything else must be a number. */
function numberOrNull(value: string | undefined, file: string, line: number, column: string): number | null {
  const trimmed = (value ?? '').trim();
  if (trimmed === '' || trimmed === 'NA' || trimmed === 'Exempt') return null;
  const parsed = Number(trimmed);
  if (!Number.isFinite(parsed)) throw new SourceFormatError(file, line, `${column} "${trimmed}" is not a number`);
  return parsed;
}

export const hmdaLoanSampleDataset: DatasetDefinition = {
  name: HMDA_LOAN_SAMPLE_DATASET,
  description: 'A 50,000-record, 11-column sample of public HMDA records (year and state not stated by its publisher; 2018 or later), for loan-to-value statistics',
  async load(tx, context) {
    const file = await context.readSource(loanSampleEntry);
    const [header, ...records] = parseDelimited(file.bytes.toString('utf8'), ',', file.origin);
    if (!header) throw new SourceFormatError(file.origin, 1, 'empty file');
    const columns = columnIndexes(
      header,
      { approved: ['approved'], amount: ['loan_amount'], income: ['income'], ltv: ['loan_to_value_ratio'], purpose: ['loan_purpose'], value: ['property_value'], occupancy: ['occupancy_type'] },
      file.origin,
    );
    const rows = records.map((record, index) => {
      const cell = (name: keyof typeof columns) => record.fields[columns[name]];
      const approved = numberOrNull(cell('approved'), file.origin, record.line, 'approved');
      if (approved !== 0 && approved !== 1) throw new SourceFormatError(file.origin, record.line, `approved must be 0 or 1, found "${cell('approved')}"`);
      const ltv = numberOrNull(cell('ltv'), file.origin, record.line, 'loan_to_value_ratio');
      if (ltv !== null && ltv < 0) throw new SourceFormatError(file.origin, record.line, `loan_to_value_ratio ${ltv} is out of range`);
      return [
        index + 1, approved,
        numberOrNull(cell('amount'), file.origin, record.line, 'loan_amount'),
        numberOrNull(cell('income'), file.origin, record.line, 'income'),
        ltv,
        numberOrNull(cell('purpose'), file.origin, record.line, 'loan_purpose'),
        numberOrNull(cell('value'), file.origin, record.line, 'property_value'),
        numberOrNull(cell('occupancy'), file.origin, record.line, 'occupancy_type'),
      ];
    });
    if (rows.length !== 50_000) throw new ValidationError(`${file.origin}: expected 50,000 records, found ${rows.length}.`);
    const changed = await upsertRows(tx, {
      table: 'hmda_loan_sample',
      key: ['row_number'],
      columns: ['row_number', 'approved', 'loan_amount', 'income_thousands', 'loan_to_value_ratio', 'loan_purpose', 'property_value', 'occupancy_type'],
      rows,
      onBatch: (done, total) => context.progress(done, total),
    });
    return {
      // The file's own date (its publication), not an invented date of the loans.
      asOf: SAMPLE_PUBLISHED,
      sourceUrl: loanSampleEntry.publisherUrl,
      checksum: file.checksum,
      rows: rows.length,
      changed,
      details: { note: `${SAMPLE_YEAR_NOTE} as_of is that day, not a date of the loans.`, file: loanSampleEntry.downloadUrl },
    };
  },
};
