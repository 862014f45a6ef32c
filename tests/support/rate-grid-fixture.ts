// A mirror holding Optimal Blue's FICO × LTV grid, 15-year and USDA series, which the official mirror
// lacks. Each file is the mirror's real FRED download of OBMMIC30YF (`recent_2020_2025/OBMMIC30YF.csv`:
// FRED's `observation_date,<ID>` header, its dates, its blank holiday cells, its line endings) with the
// series id replaced and every value moved by a per-series offset. The VALUES ARE SYNTHETIC: they test
// the file layout and which series answers which cell, not the market.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { GRID_SERIES } from '../../api/rates/series.ts';
import { SOURCE_DIR } from './source-data.ts';

export const FIXTURE_SERIES = [...GRID_SERIES, 'OBMMIC15YF', 'OBMMIUSDA30YF'] as const;
const TEMPLATE = path.join(SOURCE_DIR, 'rates', 'recent_2020_2025', 'OBMMIC30YF.csv');

/** The FRED download of `id` in the fixture: OBMMIC30YF's file with shifted values. */
export function fixtureCsv(id: string): string {
  const offset = (FIXTURE_SERIES.indexOf(id as (typeof FIXTURE_SERIES)[number]) + 1) * 0.037 - 0.25;
  return fs
    .readFileSync(TEMPLATE, 'utf8')
    .split('\n')
    .map((line, index) => {
      if (index === 0) return line.replace('OBMMIC30YF', id);
      const [date, value] = line.split(',');
      if (value === undefined || value.trim() === '') return line;
      return `${date},${(Number(value) + offset).toFixed(3)}`;
    })
    .join('\n');
}

/**
 * A private copy of the mirror's rates folder plus `rates/fred/<ID>.csv` for each fixture series.
 * Returns its root (use as MDS_SOURCE_DIR) and a remover.
 */
export function createGridMirror(): { dir: string; remove: () => void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mds-rate-grid-'));
  fs.cpSync(path.join(SOURCE_DIR, 'rates'), path.join(dir, 'rates'), {
    recursive: true,
    dereference: true,
    filter: (source) => !source.includes('state_nmdb'),
  });
  fs.mkdirSync(path.join(dir, 'rates', 'fred'), { recursive: true });
  for (const id of FIXTURE_SERIES) fs.writeFileSync(path.join(dir, 'rates', 'fred', `${id}.csv`), fixtureCsv(id));
  for (const file of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    fs.chmodSync(path.join(file.parentPath, file.name), file.isDirectory() ? 0o755 : 0o644);
  }
  fs.chmodSync(dir, 0o755);
  return { dir, remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

/**
 * The test's own reader of a fixture file: the last published value and its date (FRED leaves
 * holidays blank), independent of the service's parser.
 */
export function lastValueIn(text: string): { date: string; value: number } {
  const rows = text
    .trim()
    .split(/\r?\n/)
    .slice(1)
    .map((line) => line.split(','));
  const last = rows.filter(([, value]) => value !== undefined && value.trim() !== '').at(-1) ?? [];
  return { date: String(last[0]), value: Number(last[1]) };
}
