// A checksum of everything a test sync's result depends on: the mirror's files, the repository's own
// inputs (data/, content/), the migrations, and the source of every module the sync runner and the
// dataset registry import (followed through relative imports). Synced templates
// (tests/support/synced.ts) are kept across test runs under this checksum, so a run only syncs again
// when one of those inputs changed. Free of app imports: tests/global-setup.ts computes it once.
import { createHash, type Hash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const PROJECT_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Where the sync's code starts; everything they import (relatively) is part of the fingerprint. */
const SYNC_ENTRY_POINTS = ['api/sync/registry.ts', 'api/sync/runner.ts', 'api/platform/db/migrate.ts', 'tests/support/synced.ts'];
/** Repository folders the datasets read besides the mirror (calendar facts, county regions, content for the search index). */
const REPOSITORY_INPUTS = ['data', 'content', 'api/platform/db/migrations'];
/** Installed packages whose version changes what a template holds (PGlite's dump format). */
const PACKAGE_INPUTS = ['node_modules/@electric-sql/pglite/package.json'];

/** Every file below `dir`, as sorted paths relative to it. */
function filesBelow(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return (fs.readdirSync(dir, { recursive: true, withFileTypes: true }) as fs.Dirent[])
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)))
    .sort();
}

function hashFolder(hash: Hash, dir: string): void {
  for (const file of filesBelow(dir)) {
    hash.update(`${file}\0`);
    hash.update(fs.readFileSync(path.join(dir, file)));
  }
}

/** Static imports and re-exports (group 1: `type` when type-only, erased at run time; group 2: the path). */
const STATIC_IMPORT = /^\s*(?:import|export)\s+(type\s+)?[^;'"]*?from\s*['"](\.{1,2}\/[^'"]+)['"]/gm;
/** Side-effect imports and dynamic imports. */
const BARE_IMPORT = /\bimport\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g;

/** The entry points and every file they reach through relative imports (type-only ones left out: erased at run time), sorted. */
export function importClosure(entryPoints: readonly string[], root = PROJECT_ROOT): string[] {
  const seen = new Set<string>();
  const pending = entryPoints.map((entry) => path.resolve(root, entry));
  while (pending.length > 0) {
    const file = pending.pop()!;
    if (seen.has(file) || !fs.existsSync(file)) continue;
    seen.add(file);
    if (!/\.(ts|mjs|js)$/.test(file)) continue;
    const source = fs.readFileSync(file, 'utf8');
    for (const match of source.matchAll(STATIC_IMPORT)) {
      if (match[1] === undefined) pending.push(path.resolve(path.dirname(file), match[2]!));
    }
    for (const match of source.matchAll(BARE_IMPORT)) pending.push(path.resolve(path.dirname(file), match[1]!));
  }
  return [...seen].map((file) => path.relative(root, file)).sort();
}

/** The checksum of a source folder's files (a mirror, or a doctored copy of one). */
export function sourceFolderFingerprint(sourceDir: string): string {
  const hash = createHash('sha256');
  hashFolder(hash, sourceDir);
  return hash.digest('hex');
}

/**
 * The checksum of the mirror at `sourceDir`, the repository inputs, the migrations and the sync code,
 * and of today's date (UTC): some selections depend on the day (the sitting Congress's bills).
 */
export function syncFingerprint(sourceDir: string, today = new Date()): string {
  const hash = createHash('sha256');
  hash.update(`mirror\0${sourceFolderFingerprint(sourceDir)}\0`);
  for (const folder of REPOSITORY_INPUTS) {
    hash.update(`folder\0${folder}\0`);
    hashFolder(hash, path.join(PROJECT_ROOT, folder));
  }
  for (const file of [...importClosure(SYNC_ENTRY_POINTS), ...PACKAGE_INPUTS]) {
    hash.update(`code\0${file}\0`);
    if (fs.existsSync(path.join(PROJECT_ROOT, file))) hash.update(fs.readFileSync(path.join(PROJECT_ROOT, file)));
  }
  hash.update(`day\0${today.toISOString().slice(0, 10)}`);
  return hash.digest('hex');
}
