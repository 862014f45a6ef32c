// Where the official source files are: MDS_SOURCE_DIR, or the shared mirror beside the checkout.
// Tests that need them call `sourceDataOrSkip()` and are skipped, with the reason printed, when the
// folder is absent.
import fs from 'node:fs';
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
