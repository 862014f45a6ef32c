// Builds scratch HMDA warehouses for the HMDA tests: real extracts (the 26k-row, 24-column one and
// the 99-column 2020 CA slice, each as one state-year in a warehouse marked partial, since neither is
// a whole state-year and the aggregate gate refuses them) or SYNTHETIC rows, in temp folders.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { loadConfig, PROJECT_ROOT, type Config } from '../../api/config.ts';
import { openInstance } from '../../api/hmda/duck.ts';
import { hmdaSettings, type HmdaSettings } from '../../api/hmda/service.ts';
import { loadLar, loadLenders } from '../../api/hmda/warehouse.ts';
import { sourceFile } from '../support/source-data.ts';

export const EXTRACT_CSV = sourceFile('hmda', 'loan_level', 'hmda_subset_24cols_26k_rows.csv');
/** 1,985 real 2020 California records of two lenders, all 99 Data Browser columns. */
export const SLICE_99_CSV = sourceFile('hmda', 'loan_level', 'hmda_lar_99cols_2020_CA_two_lenders.csv');
export const TRANSMITTAL_2020 = sourceFile('hmda', 'institutions', '2020_ts_csv.csv');
export const silentLogger = pino({ level: 'silent' });

export function tempDir(prefix: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), `mds-${prefix}-`));
}

export function hmdaConfig(root: string, env: Record<string, string> = {}): Config {
  return loadConfig({ HMDA_DIR: root, LOG_LEVEL: 'silent', ...env });
}

/** The HMDA service's settings for a warehouse at `root`, the HMDA_* variables in `env` applied. */
export function hmdaServiceSettings(root: string, env: Record<string, string> = {}): HmdaSettings {
  return hmdaSettings(hmdaConfig(root, env));
}

export async function withConnection<T>(
  task: (connection: Awaited<ReturnType<Awaited<ReturnType<typeof openInstance>>['connect']>>) => Promise<T>,
): Promise<T> {
  const instance = await openInstance({ threads: 2, memoryLimit: '512MB' });
  const connection = await instance.connect();
  try {
    return await task(connection);
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

/** A warehouse holding the real 26k-row extract as 2022 CO (its true year and state are unknown). */
export async function extractWarehouse(root: string): Promise<void> {
  await withConnection(async (connection) => {
    await loadLar(connection, {
      root,
      synthetic: false,
      partial: true,
      aggregatesFor: () => undefined,
      files: [{ csvPath: EXTRACT_CSV, sourceUrl: 'hmda_subset_24cols_26k_rows.csv', checksum: 'extract', year: 2022, state: 'CO' }],
    });
    await loadLenders(connection, root, { csvPath: TRANSMITTAL_2020, year: 2020, sourceUrl: '2020_ts_csv.csv', checksum: 'ts' });
  });
}

/** A warehouse holding the real 99-column 2020 CA slice (two lenders) and the 2020 transmittal sheet. */
export async function sliceWarehouse(root: string): Promise<void> {
  await withConnection(async (connection) => {
    await loadLar(connection, {
      root,
      synthetic: false,
      partial: true,
      aggregatesFor: () => undefined,
      files: [{ csvPath: SLICE_99_CSV, sourceUrl: 'hmda_lar_99cols_2020_CA_two_lenders.csv', checksum: 'slice', year: 2020, state: 'CA' }],
    });
    await loadLenders(connection, root, { csvPath: TRANSMITTAL_2020, year: 2020, sourceUrl: '2020_ts_csv.csv', checksum: 'ts' });
  });
}

/** The attack list: one query per line; `\n` and `\u{…}` escapes let a line hold newlines and any code point. */
export function attackQueries(): string[] {
  return fs
    .readFileSync(path.join(PROJECT_ROOT, 'tests', 'fixtures', 'hmda-sql-attacks.txt'), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '' && !line.startsWith('#'))
    .map((line) =>
      line.replace(/\\n/g, '\n').replace(/\\u\{([0-9A-Fa-f]+)\}/g, (_, hex: string) => String.fromCodePoint(parseInt(hex, 16))),
    );
}

/** Parses a simple CSV (quoted fields, no embedded newlines) into header and rows. */
export function parseCsv(text: string): { header: string[]; rows: string[][] } {
  const lines = text
    .replace(/^\uFEFF/, '')
    .split(/\r?\n/)
    .filter((line) => line !== '');
  const split = (line: string) => {
    const cells: string[] = [];
    let cell = '';
    let quoted = false;
    for (let i = 0; i < line.length; i += 1) {
      const char = line[i];
      if (quoted) {
        if (char === '"' && line[i + 1] === '"') {
          cell += '"';
          i += 1;
        } else if (char === '"') quoted = false;
        else cell += char;
      } else if (char === '"') quoted = true;
      else if (char === ',') {
        cells.push(cell);
        cell = '';
      } else cell += char;
    }
    cells.push(cell);
    return cells;
  };
  const [first, ...rest] = lines;
  return { header: split(first ?? ''), rows: rest.map(split) };
}
