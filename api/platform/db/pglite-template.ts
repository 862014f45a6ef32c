// An empty embedded database as initdb leaves it, made once per install ahead of the service (by
// `npm start`'s preparation, as the site build is, in a process of its own), so that a new data
// folder starts from a copy of it instead of running initdb inside the service. PGlite's initdb runs
// a second PostgreSQL beside the first and held the service process at 1,067–1,140 MiB (VmHWM) for a
// few seconds on every new folder; opened from the copy, the same folder peaks at ~300 MiB. Without
// a copy (a service started without `npm start`, a read-only node_modules) the service runs initdb
// itself, as before.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);

/** The installed PGlite's version: a copy is only good for the PostgreSQL build that wrote it. */
function pgliteVersion(): string {
  const entry = require.resolve('@electric-sql/pglite');
  for (let folder = path.dirname(entry); folder !== path.dirname(folder); folder = path.dirname(folder)) {
    const manifest = path.join(folder, 'package.json');
    if (!fs.existsSync(manifest)) continue;
    const { name, version } = JSON.parse(fs.readFileSync(manifest, 'utf8')) as { name?: string; version?: string };
    if (name === '@electric-sql/pglite' && version) return version;
  }
  throw new Error('the installed @electric-sql/pglite has no package.json');
}

/** Where the copy for the installed PGlite lives (beside Node's compile cache, in node_modules/.cache). */
export function templateFile(): string {
  const cache = fileURLToPath(new URL('../../../node_modules/.cache/mds-pglite/', import.meta.url));
  return path.join(cache, `empty-${pgliteVersion()}.tar.gz`);
}

/** The copy, when one was made for the installed PGlite. */
export function readTemplate(): Blob | undefined {
  const file = templateFile();
  return fs.existsSync(file) ? new Blob([fs.readFileSync(file)]) : undefined;
}

/**
 * Makes the copy when there is none: initdb in memory, then PGlite's own dump of the data folder.
 * Run it in a process of its own (scripts/prepare-database.ts): initdb's memory is why it exists.
 */
export async function ensureTemplate(log: (message: string) => void): Promise<void> {
  const file = templateFile();
  if (fs.existsSync(file)) return;
  log('preparing the empty embedded database (initdb, once per install)');
  // Loaded here only: `npm start` checks for the copy on its main thread, before the service loads.
  const { PGlite } = await import('@electric-sql/pglite');
  const db = await PGlite.create();
  try {
    const dump = await db.dumpDataDir('gzip');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const partial = `${file}.${process.pid}.partial`;
    fs.writeFileSync(partial, Buffer.from(await dump.arrayBuffer()));
    fs.renameSync(partial, file); // whole or absent: a service never reads half a copy
  } finally {
    await db.close();
  }
}
