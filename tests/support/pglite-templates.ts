// Starting points for embedded test databases. A new in-memory PGlite runs initdb inside
// WebAssembly, which takes seconds (tens of seconds on a busy two-core machine), and the migrations
// add more; starting from a dumpDataDir() tarball of a database that already went through both takes
// a fraction of that. The tarballs are built once, kept in the system temp folder across runs, and
// named by a checksum of what they hold (PGlite's version, and the migrations for a migrated one).
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import type { Database, QueryResult, Queryable } from '../../api/platform/db/database.ts';
import { readTemplate } from '../../api/platform/db/pglite-template.ts';
import { listMigrations, runMigrations } from '../../api/platform/db/migrate.ts';
import { TEST_CACHE_DIR as PGLITE_CACHE_DIR, readIfPresent } from './test-cache-dir.ts';

/** The prefix of these tarballs' names; tests/support/synced-templates.ts removes unused ones. */
export const STARTING_POINT_PREFIX = 'mds_start_';

/** A Database over a raw PGlite (so its data folder can be dumped). */
export function rawPgliteDatabase(raw: PGlite): Database {
  const wrap = (client: Pick<PGlite, 'query' | 'exec'>): Queryable => ({
    async query<Row>(sql: string, params?: readonly unknown[]): Promise<QueryResult<Row>> {
      // Several statements without parameters (migrations) go through `exec`, as in api/platform/db/pglite.ts.
      if ((params === undefined || params.length === 0) && /;\s*\S/.test(sql.replace(/--[^\n]*/g, ''))) {
        const results = await client.exec(sql);
        const last = results[results.length - 1];
        return { rows: (last?.rows ?? []) as Row[], rowCount: last?.affectedRows ?? last?.rows.length ?? 0 };
      }
      const result = await client.query<Row>(sql, params as unknown[] | undefined);
      return { rows: result.rows, rowCount: result.affectedRows ?? result.rows.length };
    },
  });
  let locked = false;
  return {
    kind: 'pglite',
    query: wrap(raw).query,
    exec: async (sql) => void (await raw.exec(sql)),
    transaction: (work) => raw.transaction((tx) => work(wrap(tx))),
    async withAdvisoryLock(_key, work) {
      if (locked) return { acquired: false };
      locked = true;
      try {
        return { acquired: true, value: await work() };
      } finally {
        locked = false;
      }
    },
    close: () => raw.close(),
  };
}

/**
 * PGlite's settings for a database that will be dumped as a template: write-ahead log files a
 * checkpoint no longer needs are deleted, not kept for reuse (`wal_recycle`). A sync writes hundreds
 * of megabytes of log; kept, it was more than half of a template's tarball, copied again into every
 * database cloned from it.
 */
export const TEMPLATE_START_PARAMS = [...PGlite.defaultStartParams, '-c', 'wal_recycle=off'];

/** The data folder as a tarball, after a checkpoint, so only the log since then is in it. */
export async function dumpTemplate(raw: PGlite): Promise<Buffer> {
  await raw.exec('CHECKPOINT');
  return Buffer.from(await (await raw.dumpDataDir('none')).arrayBuffer());
}

function pgliteVersion(): string {
  const manifest = path.join(
    path.dirname(fileURLToPath(import.meta.url)),
    '..',
    '..',
    'node_modules',
    '@electric-sql',
    'pglite',
    'package.json',
  );
  return fs.existsSync(manifest) ? (JSON.parse(fs.readFileSync(manifest, 'utf8')) as { version: string }).version : 'unknown';
}

function startingPointFile(migrated: boolean): string {
  const hash = createHash('sha256').update(`pglite ${pgliteVersion()}\n`);
  if (migrated) for (const migration of listMigrations()) hash.update(`${migration.name}\n${migration.sql}`);
  const name = `${STARTING_POINT_PREFIX}${migrated ? 'migrated' : 'empty'}_${hash.digest('hex').slice(0, 16)}.tar`;
  return path.join(PGLITE_CACHE_DIR, name);
}

/**
 * A starting point: from the empty database the install keeps for new data folders
 * (api/platform/db/pglite-template.ts, made by `npm start` or tests/global-setup.ts) when there is
 * one, else from initdb. The copy skips initdb: 0.5–1 s instead of 12–30 s on a busy two-core
 * machine, where both workers of a run without starting points ran it at once.
 */
async function build(migrated: boolean): Promise<Buffer> {
  const empty = readTemplate();
  const raw = await PGlite.create({ ...(empty ? { loadDataDir: empty } : {}), startParams: TEMPLATE_START_PARAMS });
  try {
    if (migrated) await runMigrations(rawPgliteDatabase(raw));
    return await dumpTemplate(raw);
  } finally {
    await raw.close();
  }
}

const loaded = new Map<boolean, Promise<Buffer>>();

async function readOrBuild(migrated: boolean): Promise<Buffer> {
  const file = startingPointFile(migrated);
  const kept = readIfPresent(file);
  if (kept) {
    const now = new Date();
    fs.utimesSync(file, now, now); // in use: the clean-up keeps it
    return kept;
  }
  // Two workers may both build it on the very first run; the rename keeps either whole.
  const bytes = await build(migrated);
  fs.mkdirSync(PGLITE_CACHE_DIR, { recursive: true });
  const partial = `${file}.${randomBytes(4).toString('hex')}.partial`;
  fs.writeFileSync(partial, bytes);
  fs.renameSync(partial, file);
  return bytes;
}

function startingPointBytes(migrated: boolean): Promise<Buffer> {
  let bytes = loaded.get(migrated);
  if (!bytes) {
    bytes = readOrBuild(migrated);
    bytes.catch(() => loaded.delete(migrated));
    loaded.set(migrated, bytes);
  }
  return bytes;
}

/**
 * A tarball for PGlite's `loadDataDir`: a fresh database cluster, migrated or not. Read once per
 * worker; a PGlite started from it has a data folder of its own.
 */
export async function pgliteStartingPoint({ migrated }: { migrated: boolean }): Promise<Blob> {
  return new Blob([await startingPointBytes(migrated)]);
}

/**
 * Writes the files of a `dumpDataDir()` tarball into `folder`, as PGlite's `loadDataDir` does into
 * its data folder (directories, then each regular file with its modification time), without
 * starting PGlite. The tarball is plain ustar as PGlite writes it: names in the header's name field,
 * relative to the data folder.
 */
function extractDataDir(tarball: Buffer, folder: string): void {
  const root = path.resolve(folder);
  for (let offset = 0; offset + 512 <= tarball.length;) {
    const header = tarball.subarray(offset, offset + 512);
    if (header.every((byte) => byte === 0)) break; // the end-of-archive blocks
    const field = (start: number, length: number) => header.toString('latin1', start, start + length).replace(/\0.*$/s, '');
    const name = `${field(345, 155)}${field(0, 100)}`.replace(/^\/+/, '');
    const size = Number.parseInt(field(124, 12).trim() || '0', 8);
    const type = field(156, 1);
    const target = path.resolve(root, name);
    if (target !== root && !target.startsWith(`${root}${path.sep}`)) throw new Error(`tarball entry outside its folder: ${name}`);
    const data = offset + 512;
    if (type === '5') fs.mkdirSync(target, { recursive: true });
    else if (type === '0' || type === '') {
      fs.mkdirSync(path.dirname(target), { recursive: true });
      fs.writeFileSync(target, tarball.subarray(data, data + size));
      const modified = Number.parseInt(field(136, 12).trim() || '0', 8);
      if (modified > 0) fs.utimesSync(target, modified, modified);
    }
    offset = data + Math.ceil(size / 512) * 512;
  }
}

/**
 * Fills `dataDir`'s embedded database folder (`<DATA_DIR>/pglite`, where the server, the CLIs and
 * the stdio MCP server open it) with the migrated starting point, so a process started on it skips
 * initdb and the migrations (seconds of CPU each in a child process). For tests that are not about a
 * first start; a test of the first start leaves its folder empty.
 */
export async function prefillDataDir(dataDir: string): Promise<string> {
  const folder = path.join(dataDir, 'pglite');
  if (fs.existsSync(path.join(folder, 'PG_VERSION'))) throw new Error(`${folder} already holds a database`);
  extractDataDir(await startingPointBytes(true), folder);
  return dataDir;
}
