// The typed LAR schema agrees with the official dictionaries: the 99 public columns in order (the
// data science kit list, BOM and underscores), their numeric/text kinds, the hyphenated headers of
// the real files, and the code values of the platform's public LAR spec (title row, header on line 2).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { ACTION_TAKEN, DENIAL_REASON, LIEN_STATUS, LOAN_PURPOSE, LOAN_TYPE } from '../../api/hmda/codes.ts';
import { readHeader } from '../../api/hmda/ingest.ts';
import { LAR_COLUMNS, normaliseHeader } from '../../api/hmda/schema.ts';
import { LAR_HEADER } from '../../api/hmda/synthetic.ts';
import { hasSourceData, sourceFile } from '../support/source-data.ts';
import { parseCsv } from '../integration/hmda-fixtures.ts';

describe('LAR schema', () => {
  it('has 99 distinct columns', () => {
    expect(LAR_COLUMNS).toHaveLength(99);
    expect(new Set(LAR_COLUMNS.map((c) => c.name)).size).toBe(99);
  });

  it('spells the headers as the FFIEC files do and maps them back to the column names', () => {
    const headers = new Map(LAR_COLUMNS.map((c) => [c.name, c.header]));
    expect(headers.get('derived_msa_md')).toBe('derived_msa-md');
    expect(headers.get('applicant_race_1')).toBe('applicant_race-1');
    expect(headers.get('co_applicant_age')).toBe('co-applicant_age');
    expect(headers.get('open_end_line_of_credit')).toBe('open-end_line_of_credit');
    expect(headers.get('aus_1')).toBe('aus-1');
    expect(headers.get('denial_reason_4')).toBe('denial_reason-4');
    for (const column of LAR_COLUMNS) expect(normaliseHeader(column.header)).toBe(column.name);
    expect(normaliseHeader('\uFEFF"Derived_MSA-MD"')).toBe('derived_msa_md');
    expect(LAR_HEADER.split(',')).toHaveLength(99);
  });
});

describe.skipIf(!hasSourceData)('LAR schema against the official dictionaries', () => {
  it('lists the columns of lar_2018_2019.csv in the same order', () => {
    const dictionary = parseCsv(fs.readFileSync(sourceFile('hmda', 'dictionary', 'hmda_data_science_kit', 'lar_2018_2019.csv'), 'utf8'));
    expect(dictionary.header[0]).toBe('Data Field Number');
    expect(dictionary.rows).toHaveLength(99);
    dictionary.rows.forEach((row, index) => {
      expect(Number(row[0])).toBe(index + 1);
      expect(LAR_COLUMNS[index]?.name).toBe(row[1]);
      // Fields the dictionary calls Numeric are numbers in the warehouse too.
      if (row[2] === 'Numeric') expect(LAR_COLUMNS[index]?.type, String(row[1])).not.toBe('VARCHAR');
    });
  });

  it('knows every column of the real 24-column extract', () => {
    const header = fs.readFileSync(sourceFile('hmda', 'loan_level', 'hmda_subset_24cols_26k_rows.csv'), 'utf8').split('\n')[0] ?? '';
    const names = new Set(LAR_COLUMNS.map((c) => c.name));
    for (const cell of header.split(',')) expect(names.has(normaliseHeader(cell)), cell).toBe(true);
  });

  it.each(['hmda_lar_99cols_2020_CA_two_lenders.csv', 'hmda_subset_24cols_26k_rows.csv', 'hmda_subset_11cols_50k_rows.csv'])(
    'reads the header record of the real file %s, plain and gzipped',
    async (name) => {
      const file = sourceFile('hmda', 'loan_level', name);
      const firstLine = fs.readFileSync(file, 'utf8').split(/\r?\n/)[0] ?? '';
      expect(await readHeader(file)).toEqual(firstLine.split(','));
      const gzipped = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'lar-header-')), `${name}.gz`);
      fs.writeFileSync(gzipped, gzipSync(fs.readFileSync(file)));
      expect(await readHeader(gzipped)).toEqual(firstLine.split(','));
      fs.rmSync(path.dirname(gzipped), { recursive: true });
    },
  );

  it('uses the code values of Public_File_LAR_Spec.csv for action taken, loan type, purpose, lien and denial reasons', () => {
    const text = fs.readFileSync(sourceFile('hmda', 'dictionary', 'hmda_platform_spec', 'Public_File_LAR_Spec.csv'), 'utf8');
    const { header, rows } = parseCsv(text.split(/\r?\n/).slice(1).join('\n'));
    expect(header[0]?.trim()).toBe('Data Field Number');
    const validValues = (name: string) => {
      const row = rows.find((cells) => cells[1]?.trim() === name);
      return (row?.[4] ?? '')
        .trim()
        .split(/\s+/)
        .map(Number)
        .sort((a, b) => a - b);
    };
    const codes = (labels: Record<number, string>) =>
      Object.keys(labels)
        .map(Number)
        .sort((a, b) => a - b);
    expect(codes(ACTION_TAKEN)).toEqual(validValues('Action Taken'));
    expect(codes(LOAN_TYPE)).toEqual(validValues('Loan Type'));
    expect(codes(LOAN_PURPOSE)).toEqual(validValues('Loan Purpose'));
    expect(codes(LIEN_STATUS)).toEqual(validValues('Lien Status'));
    expect(codes(DENIAL_REASON)).toEqual(validValues('Reason for Denial: 1'));
  });
});
