// The real 99-column Data Browser export slice (2020, California, two lenders) through the ingest:
// the aggregate gate refuses it as CA 2020, since it is not the whole state-year, and nothing is
// published; loaded into a warehouse flagged partial (the path for extracts), every answer says so,
// and its counts by action taken, its NA/Exempt cells and its 1111/8888/9999 codes match the file
// as read here, cell by cell, without the ingest's code.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHmdaService, type HmdaService } from '../../api/hmda/service.ts';
import { parseStateAggregates } from '../../api/hmda/validate.ts';
import { layout, loadLar, readManifest } from '../../api/hmda/warehouse.ts';
import { ValidationError } from '../../api/sync/errors.ts';
import { hasSourceData, sourceFile } from '../support/source-data.ts';
import { hmdaServiceSettings, silentLogger, SLICE_99_CSV, sliceWarehouse, tempDir, withConnection } from './hmda-fixtures.ts';

/** The slice as the file has it: LF lines, no quoting (SOURCES.md), so a split on commas is exact. */
function readSlice(): { header: string[]; rows: string[][] } {
  const [head = '', ...lines] = fs
    .readFileSync(SLICE_99_CSV, 'utf8')
    .split('\n')
    .filter((line) => line !== '');
  return { header: head.split(','), rows: lines.map((line) => line.split(',')) };
}

const warehouseName = (header: string) => {
  const name = header.toLowerCase().replace(/-/g, '_');
  return name === 'loan_to_value_ratio' ? 'combined_loan_to_value_ratio' : name;
};

const folders: string[] = [];
afterAll(() => {
  for (const dir of folders) fs.rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(!hasSourceData)('the real 99-column Data Browser slice', () => {
  const slice = hasSourceData ? readSlice() : { header: [], rows: [] };
  const column = (name: string) => slice.header.indexOf(name);

  it('is 1,985 rows of 99 columns from two lenders, as the mirror describes it', () => {
    expect(slice.header).toHaveLength(99);
    expect(slice.rows).toHaveLength(1985);
    expect(slice.rows.every((row) => row.length === 99)).toBe(true);
    const byLender = slice.rows.reduce<Record<string, number>>(
      (counts, row) => ({ ...counts, [row[column('lei')]!]: (counts[row[column('lei')]!] ?? 0) + 1 }),
      {},
    );
    expect(byLender).toEqual({ '549300UL36AJZ0WZ4U93': 1825, '549300QSUEE20YO86W39': 160 });
  });

  it('is refused as CA 2020 by the aggregate gate, with both figures, and nothing is published', async () => {
    const root = tempDir('hmda-slice-gate');
    folders.push(root);
    const aggregatesPath = sourceFile('hmda', 'aggregates', 'by_state_2020.json');
    const aggregates = parseStateAggregates(fs.readFileSync(aggregatesPath, 'utf8'), aggregatesPath);
    const originated = slice.rows.filter((row) => row[column('action_taken')] === '1').length;
    const official = aggregates.CA?.actionTaken['1'] ?? 0;
    expect(official).toBeGreaterThan(originated);

    const failure = await withConnection((connection) =>
      loadLar(connection, {
        root,
        synthetic: false,
        aggregatesFor: (year) => (year === 2020 ? aggregates : undefined),
        files: [
          {
            csvPath: SLICE_99_CSV,
            sourceUrl: 'hmda_lar_99cols_2020_CA_two_lenders.csv',
            checksum: 'slice',
            expect: { year: 2020, state: 'CA' },
          },
        ],
      }),
    ).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ValidationError);
    expect((failure as Error).message).toContain(
      `2020 CA action_taken 1: official aggregates say ${official.toLocaleString('en-US')} records, the loaded file has ${originated.toLocaleString('en-US')}`,
    );
    expect(Object.keys(readManifest(root)?.partitions ?? {})).toEqual([]);
    expect(fs.existsSync(layout(root).larDir)).toBe(false);

    // Nor can the gate be skipped for real rows, nor an extract put beside checked state-years.
    const skipped = await withConnection((connection) =>
      loadLar(connection, {
        root,
        synthetic: false,
        skipValidation: true,
        aggregatesFor: () => undefined,
        files: [{ csvPath: SLICE_99_CSV, sourceUrl: 'slice', checksum: 'slice' }],
      }),
    ).catch((error: unknown) => error);
    expect((skipped as Error).message).toMatch(/skipped only for synthetic rows/);
    const mixed = await withConnection((connection) =>
      loadLar(connection, {
        root,
        synthetic: false,
        partial: true,
        aggregatesFor: () => undefined,
        files: [{ csvPath: SLICE_99_CSV, sourceUrl: 'slice', checksum: 'slice' }],
      }),
    ).catch((error: unknown) => error);
    expect((mixed as Error).message).toMatch(
      /holds whole state-years checked against the official aggregates; load extracts into a separate folder/,
    );
  });

  describe('loaded into a warehouse flagged partial', () => {
    let root: string;
    let service: HmdaService;

    beforeAll(async () => {
      root = tempDir('hmda-slice-partial');
      folders.push(root);
      await sliceWarehouse(root);
      service = createHmdaService({ ...hmdaServiceSettings(root), logger: silentLogger });
    });
    afterAll(() => service?.close());

    it('says partial on every answer, in the data and in the source', async () => {
      expect(readManifest(root)).toMatchObject({ synthetic: false, partial: true });
      const answer = await service.answer({ preset: 'approvals', year: 2020, state: 'CA' });
      expect(answer).toMatchObject({ partial: true, synthetic: false, as_of: '2020-12-31' });
      expect(answer.source).toMatch(/EXTRACTS of state-years, not whole geographies/);
      expect(service.summary()).toMatchObject({ partial: true, rows: 1985 });
    });

    it('holds the counts by action taken that the file has', async () => {
      const answer = await service.answer({
        sql: 'SELECT action_taken, count(*) AS n FROM lar GROUP BY action_taken ORDER BY action_taken',
      });
      const fromFile: Record<string, number> = {};
      for (const row of slice.rows) fromFile[row[column('action_taken')]!] = (fromFile[row[column('action_taken')]!] ?? 0) + 1;
      expect(Object.fromEntries(answer.rows.map((row) => [String(row.action_taken), row.n]))).toEqual(fromFile);
      expect(fromFile).toEqual({ 1: 1181, 2: 4, 3: 73, 4: 476, 5: 91, 6: 160 });
      // The approvals preset counts the same file.
      const approvals = await service.answer({ preset: 'approvals', year: 2020 });
      const all = approvals.rows.find((row) => row.loan_type_label === 'All loan types');
      expect(all).toMatchObject({
        originated: fromFile['1'],
        approved_not_accepted: fromFile['2'],
        denied: fromFile['3'],
        withdrawn: fromFile['4'],
        incomplete: fromFile['5'],
      });
    });

    it('keeps NA and Exempt as missing values and 1111/8888/9999 as published, in every column', async () => {
      const names = slice.header.map(warehouseName);
      const nulls = names.map((name) => `count(*) FILTER (WHERE "${name}" IS NULL) AS "${name}"`).join(', ');
      const answer = await service.sql(`SELECT ${nulls} FROM lar`);
      const missing = answer.rows[0] ?? {};
      slice.header.forEach((header, index) => {
        const fromFile = slice.rows.filter((row) => ['NA', 'Exempt', ''].includes(row[index] ?? '')).length;
        expect(missing[names[index]!], header).toBe(fromFile);
      });
      // The file's combined LTV (headed loan_to_value_ratio) is kept, not dropped.
      expect(missing.combined_loan_to_value_ratio).toBeLessThan(slice.rows.length);

      for (const code of ['1111', '8888', '9999']) {
        const columns = slice.header.filter((_, index) => slice.rows.some((row) => row[index] === code));
        for (const header of columns) {
          const index = column(header);
          const name = warehouseName(header);
          const fromFile = slice.rows.filter((row) => row[index] === code).length;
          const counted = await service.sql(`SELECT count(*) AS n FROM lar WHERE CAST("${name}" AS VARCHAR) = '${code}'`);
          expect(counted.rows[0]?.n, `${header} = ${code}`).toBe(fromFile);
        }
      }
    });

    it('reads county codes with their leading zeros and the lenders of the 2020 transmittal sheet', async () => {
      const answer = await service.sql('SELECT county_code, count(*) AS n FROM lar GROUP BY 1 ORDER BY n DESC, 1 LIMIT 3');
      expect(answer.rows).toEqual([
        { county_code: '06065', n: 437 },
        { county_code: '06067', n: 268 },
        { county_code: '06059', n: 239 },
      ]);
      // Rankings count originations: the second lender's 160 records are all purchased loans (action 6).
      const rankings = await service.answer({ preset: 'lender_rankings', year: 2020 });
      const originatedBy = (lei: string) =>
        slice.rows.filter((row) => row[column('lei')] === lei && row[column('action_taken')] === '1').length;
      expect(originatedBy('549300QSUEE20YO86W39')).toBe(0);
      expect(rankings.rows).toEqual([
        expect.objectContaining({ rank: 1, lei: '549300UL36AJZ0WZ4U93', originations: originatedBy('549300UL36AJZ0WZ4U93') }),
      ]);
      expect(String(rankings.rows[0]?.lender)).not.toMatch(/^Name not in/);
      expect(path.basename(SLICE_99_CSV)).toBe('hmda_lar_99cols_2020_CA_two_lenders.csv');
    });
  });
});
