// An APOR table in the FFIEC's published layout (YieldTableFixed.txt: pipe-delimited, the header
// `Term of Loan in Years|1|…|50`, one row per Monday), which the official mirror lacks. The VALUES ARE
// SYNTHETIC: each term's rate is a fixed function of the week, so tests can check which term and week
// answered; they are not the FFIEC's figures.
import fs from 'node:fs';
import path from 'node:path';

/** The synthetic rate of a term in the nth week of the table. */
export const syntheticApor = (week: number, term: number) => Math.round((5 + term * 0.02 + (week % 10) * 0.01) * 100) / 100;

/** A table of `weeks` Mondays ending on `lastMonday` (YYYY-MM-DD), as the FFIEC writes it. */
export function aporTable(lastMonday: string, weeks: number): string {
  const header = ['Term of Loan in Years', ...Array.from({ length: 50 }, (_, index) => String(index + 1))].join('|');
  const rows: string[] = [];
  for (let week = 0; week < weeks; week += 1) {
    const date = new Date(Date.parse(`${lastMonday}T00:00:00Z`) - (weeks - 1 - week) * 7 * 86_400_000);
    const day = `${date.getUTCMonth() + 1}/${date.getUTCDate()}/${date.getUTCFullYear()}`;
    rows.push([day, ...Array.from({ length: 50 }, (_, index) => String(syntheticApor(week, index + 1)))].join('|'));
  }
  return `${[header, ...rows].join('\n')}\n`;
}

/** Writes the table where a mirror keeps it (`rates/apor/YieldTableFixed.txt`) under `root`. */
export function writeAporMirror(root: string, lastMonday: string, weeks: number): void {
  fs.mkdirSync(path.join(root, 'rates', 'apor'), { recursive: true });
  fs.writeFileSync(path.join(root, 'rates', 'apor', 'YieldTableFixed.txt'), aporTable(lastMonday, weeks));
}
