// Where the official source files are: MDS_SOURCE_DIR, or the shared mirror beside the checkout.
// Tests that need them call `sourceDataOrSkip()` and are skipped, with the reason printed, when the
// folder is absent.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PROJECT_ROOT } from '../../api/config.ts';

export const SOURCE_DIR = path.resolve(process.env.MDS_SOURCE_DIR ?? path.join(PROJECT_ROOT, '..', 'shared', 'data'));
export const hasSourceData = fs.existsSync(path.join(SOURCE_DIR, 'SOURCES.md'));

if (!hasSourceData) {
  console.warn(`[tests] official source files not found at ${SOURCE_DIR}: tests that need them are skipped.`);
}

export function sourceFile(...parts: string[]): string {
  return path.join(SOURCE_DIR, ...parts);
}

/**
 * A folder holding part of the mirror: links to the named files or folders (paths inside it) and
 * SOURCES.md, for a test that must run a whole sync but not of every file (a sync through a server
 * process reads them all again: a minute of CPU on a busy machine). The other datasets find no
 * files and are skipped, as under a mirror that lacks them. Remove the folder after.
 */
export function partialMirror(parts: readonly string[]): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mds-mirror-part-'));
  for (const part of ['SOURCES.md', ...parts]) {
    const target = path.join(dir, part);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.symlinkSync(path.join(SOURCE_DIR, part), target);
  }
  return dir;
}
