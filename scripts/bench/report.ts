// Renders benchmark rows as a Markdown table, and records them in BENCHMARKS.md between markers so
// the hand-written explanation around the figures survives a rewrite.
import fs from 'node:fs';
import type { BenchRow } from './types.ts';
import { isoDay } from '../../api/platform/dates.ts';

const number = (value: number | undefined, digits = 0) => (value === undefined || Number.isNaN(value) ? '' : value.toFixed(digits));

export function formatTable(rows: BenchRow[]): string {
  const header = '| family | measurement | req/s | p50 ms | p99 ms | errors | peak RSS MiB | vs baseline | target | met |';
  const rule = '|---|---|---:|---:|---:|---:|---:|---|---|---|';
  const lines = rows.map((row) =>
    [
      row.family,
      row.name + (row.note ? ` — ${row.note}` : ''),
      number(row.requestsPerSecond),
      number(row.p50Ms, 2),
      number(row.p99Ms, 2),
      row.errors === undefined ? '' : String(row.errors),
      number(row.peakRssMb),
      row.ratio === undefined ? '' : `${row.ratio.toFixed(2)}× ${row.baseline ?? ''}`.trim(),
      row.target ?? '',
      row.met === undefined ? '' : row.met ? 'yes' : 'NO',
    ].join(' | '),
  );
  return [header, rule, ...lines.map((line) => `| ${line} |`)].join('\n');
}

const START = '<!-- bench:start -->';
const END = '<!-- bench:end -->';

export function writeBenchmarksFile(file: string, rows: BenchRow[], machine: string, run: { quick: boolean; seconds: number }): void {
  const block = [
    START,
    `Run on ${isoDay(new Date())} — ${machine}; ${run.seconds} s per measurement${run.quick ? ' (quick)' : ''}, 50 connections unless noted.`,
    '',
    formatTable(rows),
    END,
  ].join('\n');
  const existing = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : `# Benchmarks\n\n${START}\n${END}\n`;
  const updated = existing.includes(START)
    ? existing.replace(new RegExp(`${START}[\\s\\S]*?${END}`), block)
    : `${existing.trimEnd()}\n\n${block}\n`;
  fs.writeFileSync(file, updated);
}
