// Builds the Astro site when dist/ is missing or older than its sources. "Older" is decided by a
// fingerprint of the sources' paths, sizes and modification times, stored beside the build.
import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT } from '../api/config.ts';

// BASE_URL is not an input: the build writes a placeholder origin (api/platform/static/build-origin.ts).
const SOURCES = ['site', 'content', 'docs', 'astro.config.mjs', 'package.json', 'api/platform/static/build-origin.ts'];
const STAMP = path.join(PROJECT_ROOT, 'dist', '.build-stamp');
export const BUILD_LOG = path.join(PROJECT_ROOT, 'dist', '.build-log');

function* walk(entry: string): Generator<string> {
  const stat = fs.statSync(entry, { throwIfNoEntry: false });
  if (!stat) return;
  if (!stat.isDirectory()) {
    yield entry;
    return;
  }
  for (const child of fs.readdirSync(entry).sort()) yield* walk(path.join(entry, child));
}

export function sourceFingerprint(): string {
  const hash = createHash('sha256');
  for (const source of SOURCES) {
    for (const file of walk(path.join(PROJECT_ROOT, source))) {
      const stat = fs.statSync(file);
      hash.update(`${path.relative(PROJECT_ROOT, file)}\0${stat.size}\0${stat.mtimeMs}\n`);
    }
  }
  return hash.digest('hex');
}

export function siteIsStale(): boolean {
  const stamp = fs.existsSync(STAMP) ? fs.readFileSync(STAMP, 'utf8').trim() : '';
  return stamp !== sourceFingerprint();
}

/** Runs `astro build` when needed; throws when the build fails. */
export function ensureSiteBuilt(log: (message: string) => void): void {
  if (!siteIsStale()) return;
  log('building the site (dist/ is missing or older than site/ and content/)');
  const fingerprint = sourceFingerprint();
  const astro = path.join(PROJECT_ROOT, 'node_modules', 'astro', 'bin', 'astro.mjs');
  const result = spawnSync(process.execPath, [astro, 'build'], {
    cwd: PROJECT_ROOT,
    env: buildEnv(),
    stdio: ['inherit', 'pipe', 'pipe'],
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  process.stdout.write(result.stdout ?? '');
  process.stderr.write(result.stderr ?? '');
  // Kept beside the build so tests can assert it had no content warnings.
  fs.mkdirSync(path.dirname(BUILD_LOG), { recursive: true });
  fs.writeFileSync(BUILD_LOG, `${result.stdout ?? ''}${result.stderr ?? ''}`);
  if (result.status !== 0) throw new Error(`astro build failed with exit code ${result.status}`);
  fs.writeFileSync(STAMP, fingerprint);
}

/**
 * The build's environment, without BASE_URL: the site is built with a placeholder origin and the
 * server writes the running one in at start (api/platform/static/build-origin.ts), so the address
 * is no input of the build and changing it never makes dist/ stale. (Vite-based runners such as
 * vitest also set BASE_URL to "/" for their own use.)
 */
export function buildEnv(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const { BASE_URL: _address, ...rest } = env;
  return rest;
}
