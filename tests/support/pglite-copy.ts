// Copies the rows of a PostgreSQL database into an embedded one of the same schema: how the shared
// synced template (tests/support/synced.ts) reaches PGlite once it is built in PostgreSQL, instead
// of a second sync. Most of a sync's time is reading and parsing the official files (the loan limits'
// workbooks, the bills' XML), the same work for either database; a copy is pg_dump's COPY blocks fed
// to PGlite's COPY FROM '/dev/blob', a few seconds.
import { spawn } from 'node:child_process';
import type { PGlite } from '@electric-sql/pglite';

/** One table's rows as pg_dump writes them: `COPY <table> (<columns>) FROM stdin;`, rows, `\.`. */
interface CopyBlock {
  target: string;
  table: string;
  rows: string;
}

/** The data-only dump of the database at `url`, or undefined when pg_dump is missing or fails. */
export function pgDumpData(url: string): Promise<string | undefined> {
  return new Promise((resolve) => {
    const child = spawn('pg_dump', ['--data-only', '--no-owner', '--no-privileges', '--dbname', url], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const chunks: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.stderr.resume();
    child.on('error', () => resolve(undefined)); // not installed
    child.on('close', (code) => resolve(code === 0 ? Buffer.concat(chunks).toString('utf8') : undefined));
  });
}

const COPY_LINE = /^COPY ((\S+) \([^)]*\)) FROM stdin;$/gm;

/** The dump's COPY blocks and its sequence positions (`SELECT pg_catalog.setval(…);`). */
export function parseDataDump(dump: string): { blocks: CopyBlock[]; sequences: string[] } {
  const blocks: CopyBlock[] = [];
  for (const match of dump.matchAll(COPY_LINE)) {
    const start = match.index + match[0].length + 1;
    const end = dump.startsWith('\\.\n', start) ? start : dump.indexOf('\n\\.\n', start) + 1;
    if (end === 0) throw new Error(`pg_dump output ends inside the rows of ${match[2]}`);
    blocks.push({ target: match[1]!, table: match[2]!, rows: dump.slice(start, end) });
  }
  const sequences = dump.match(/^SELECT pg_catalog\.setval\(.*\);$/gm) ?? [];
  return { blocks, sequences };
}

/**
 * Replaces every row of `raw`'s tables with the dump's: the tables are emptied first (a migrated
 * starting point holds the migrations' own rows), foreign keys are not checked while loading (the
 * rows were consistent where they came from), and the tables are analysed after, as a sync leaves them.
 */
export async function loadDataDump(raw: PGlite, dump: string): Promise<void> {
  const { blocks, sequences } = parseDataDump(dump);
  if (blocks.length === 0) throw new Error('pg_dump wrote no tables');
  await raw.exec('SET session_replication_role = replica');
  await raw.exec(`TRUNCATE ${blocks.map((block) => block.table).join(', ')}`);
  for (const block of blocks) {
    if (block.rows.length === 0) continue;
    await raw.query(`COPY ${block.target} FROM '/dev/blob'`, [], { blob: new Blob([block.rows]) });
  }
  for (const statement of sequences) await raw.exec(statement);
  await raw.exec('SET session_replication_role = origin');
  await raw.exec('ANALYZE');
}
