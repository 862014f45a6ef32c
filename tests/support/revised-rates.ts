// A copy of the mirror's rate files whose newest survey week can be revised, for tests that sync
// the survey twice (pinned dataset versions): what the publisher's file said, and a revision of it.
import fs from 'node:fs';
import path from 'node:path';
import { SOURCE_DIR } from './source-data.ts';

/** The files the pmms and optimal_blue datasets read (the mirror's `rates/` without the NMDB zip). */
const RATE_FOLDERS = ['.', 'history_to_2022', 'history_to_2024', 'pmms_2026', 'recent_2020_2025', 'fred'];
/** The survey files holding the newest week; a changed figure must agree across them. */
const NEWEST_WEEK_FILES = ['rates/MORTGAGE30US_weekly_1971_2026.csv', 'rates/pmms_2026/MORTGAGE30US_weekly_1971_to_2026-10-08_CRLF.csv'];
export const NEWEST_WEEK = '2026-10-08';

export function copyRates(target: string): void {
  for (const folder of RATE_FOLDERS) {
    const from = path.join(SOURCE_DIR, 'rates', folder);
    if (!fs.existsSync(from)) continue;
    fs.mkdirSync(path.join(target, 'rates', folder), { recursive: true });
    for (const entry of fs.readdirSync(from, { withFileTypes: true })) {
      if (entry.isFile()) fs.copyFileSync(path.join(from, entry.name), path.join(target, 'rates', folder, entry.name));
    }
  }
}

/** Freddie Mac's 30-year figure of a week, read from the mirror's file. */
export function officialWeek(day: string): number {
  const text = fs.readFileSync(path.join(SOURCE_DIR, NEWEST_WEEK_FILES[0] as string), 'utf8');
  const line = text.split(/\r?\n/).find((candidate) => candidate.startsWith(`${day},`));
  if (!line) throw new Error(`no ${day} in the survey file`);
  return Number(line.split(',')[1]);
}

/** Writes `value` as the newest week's figure in every file that holds it. */
export function setNewestWeek(folder: string, value: number): void {
  for (const file of NEWEST_WEEK_FILES) {
    const full = path.join(folder, file);
    const text = fs.readFileSync(full, 'utf8');
    const changed = text.replace(new RegExp(`^${NEWEST_WEEK},[0-9.]+`, 'm'), `${NEWEST_WEEK},${value.toFixed(2)}`);
    if (changed === text) throw new Error(`${file}: the newest week was not found or already ${value}`);
    fs.writeFileSync(full, changed);
  }
}
