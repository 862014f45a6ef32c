// What `npm run sync` shows a person: a progress bar per dataset on stderr (redrawn in place on a
// terminal, one line per dataset otherwise, so logs and CI output stay readable) and a summary table.
import type { DatasetSyncResult, SyncProgressEvent } from './runner.ts';

export interface ProgressStream {
  write(chunk: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

const BAR_WIDTH = 24;

function bar(done: number, total: number): string {
  const ratio = total > 0 ? Math.min(1, Math.max(0, done / total)) : 0;
  const filled = Math.round(ratio * BAR_WIDTH);
  return `[${'#'.repeat(filled)}${'-'.repeat(BAR_WIDTH - filled)}] ${String(Math.round(ratio * 100)).padStart(3)}%`;
}

function outcome(result: DatasetSyncResult): string {
  if (result.status === 'ok') return `ok, ${result.rows ?? 0} rows, ${result.changed ?? 0} changed`;
  return `${result.status.toUpperCase()}: ${result.message}`;
}

/** Returns an onProgress handler drawing to `stream`. */
export function createProgressPrinter(stream: ProgressStream): (event: SyncProgressEvent) => void {
  const tty = stream.isTTY === true;
  let label = '';
  let lastDraw = 0;
  return (event) => {
    if (event.type === 'start') {
      label = `(${event.index + 1}/${event.count}) ${event.dataset}`;
      if (tty) stream.write(`\r\u001b[2K${label} ${bar(0, 1)}`);
      else stream.write(`${label}: loading\n`);
    } else if (event.type === 'progress') {
      // Redraw at most ~20 times a second; nothing between start and finish off a terminal.
      const now = Date.now();
      if (!tty || now - lastDraw < 50) return;
      lastDraw = now;
      stream.write(`\r\u001b[2K${label} ${bar(event.done, event.total)}`);
    } else if (tty) {
      const full = event.result.status === 'ok' ? bar(1, 1) : '';
      stream.write(`\r\u001b[2K${label} ${full} ${outcome(event.result)} (${event.result.seconds.toFixed(1)} s)\n`);
    } else {
      stream.write(`${label}: ${outcome(event.result)} (${event.result.seconds.toFixed(1)} s)\n`);
    }
  };
}

/** A plain-text table of the results: dataset, status, rows, changed, as-of, seconds, message. */
export function formatSummary(results: readonly DatasetSyncResult[]): string {
  const header = ['dataset', 'status', 'rows', 'changed', 'as-of', 'seconds', 'message'];
  const body = results.map((result) => [
    result.name,
    result.status,
    result.rows === undefined ? '' : String(result.rows),
    result.changed === undefined ? '' : String(result.changed),
    result.asOf ?? '',
    result.seconds.toFixed(1),
    result.message.replace(/\s+/g, ' '),
  ]);
  const numeric = new Set([2, 3, 5]);
  const widths = header.map((title, column) => Math.max(title.length, ...body.map((row) => (row[column] ?? '').length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, column) => {
        if (column === cells.length - 1) return cell;
        const width = widths[column] ?? 0;
        return numeric.has(column) ? cell.padStart(width) : cell.padEnd(width);
      })
      .join('  ')
      .trimEnd();
  return [line(header), line(widths.map((width) => '-'.repeat(width))), ...body.map(line)].join('\n') + '\n';
}

/** `[dataset ...] [--flag value | --flag=value | --all]`: names and options for runSync. */
export function parseArguments(argv: readonly string[]): { names: string[]; options: Record<string, string | boolean>; help: boolean } {
  const names: string[] = [];
  const options: Record<string, string | boolean> = {};
  for (let index = 0; index < argv.length; index += 1) {
    const argument = argv[index] ?? '';
    if (argument === '--help' || argument === '-h') return { names, options, help: true };
    if (argument.startsWith('--')) {
      const [flag = '', inline] = argument.slice(2).split(/=(.*)/s, 2);
      const next = argv[index + 1];
      if (inline !== undefined) options[flag] = inline;
      else if (flag !== 'all' && next !== undefined && !next.startsWith('--')) {
        options[flag] = next;
        index += 1;
      } else options[flag] = true;
    } else {
      names.push(argument);
    }
  }
  return { names, options, help: false };
}
