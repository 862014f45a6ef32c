// The folder in the system temp dir where test templates are kept across runs (synced databases,
// PGlite starting points, their use stamps): one place, so the clean-up finds them all.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const TEST_CACHE_DIR = path.join(os.tmpdir(), 'mds-test-synced');

/** A kept file's bytes, or undefined when it is not there (never built, or removed by a clean-up). */
export function readIfPresent(file: string): Buffer | undefined {
  try {
    return fs.readFileSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}
