// The order test files start in: one project after another, longest first within each (those on
// synced data after the others). The two
// workers take the next file whenever they finish one, so with the long files started early the run
// ends on short ones, and neither core sits idle while the other finishes a long file started last.
//
// Why one project at a time: vitest keeps a worker of a project that shares its workers
// (`isolate: false`, vitest.config.ts) for the next file only when that file, the head of the queue
// when the worker finishes, is of the same project; otherwise it stops the worker, and the next file
// pays for a new one that loads the app's modules again (seconds of CPU each). Longest first across
// all files alternated between the projects some 30 times a run. The project whose longest file is
// longest goes first (the `slow` one: synced data, servers, the browser), so its long files still
// start at once, and the quick `fast` files fill the end of the run.
//
// A file's duration is vitest's own record of this checkout's last run, else tests/durations.json (a
// recorded full run, for a fresh checkout such as CI, where vitest would go by file size); files in
// neither (new ones) go first in their project. Refresh the recording after a full `npm test`:
//   node scripts/launch.mjs scripts/record-test-durations.ts
import fs from 'node:fs';
import path from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

export const RECORDED_DURATIONS = path.join(import.meta.dirname, '..', 'durations.json');

function recordedDurations(): Record<string, number> {
  try {
    return JSON.parse(fs.readFileSync(RECORDED_DURATIONS, 'utf8')) as Record<string, number>;
  } catch {
    return {};
  }
}

/**
 * Whether a file clones synced templates (tests/support/synced.ts): such files start after the
 * others of their project, by when the shared template the run starts building at once
 * (tests/global-setup.ts) is ready or nearly, instead of waiting for it on a core.
 */
function usesSyncedData(file: string): boolean {
  try {
    return /\bsynced(-mcp)?\.ts\b/.test(fs.readFileSync(file, 'utf8'));
  } catch {
    return false;
  }
}

export default class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const recorded = recordedDurations();
    const duration = (spec: TestSpecification): number | undefined => {
      const cached = this.ctx.cache.getTestSpecificationResult(spec)?.duration;
      if (cached !== undefined && cached > 0) return cached;
      return recorded[path.relative(spec.project.config.root, spec.moduleId).split(path.sep).join('/')];
    };
    const known = new Map(files.map((spec) => [spec, duration(spec)]));
    // A project's rank is its longest known file (a new file says nothing yet about its project).
    const longest = new Map<string, number>();
    for (const [spec, ms] of known) longest.set(spec.project.name, Math.max(longest.get(spec.project.name) ?? 0, ms ?? 0));
    const rank = (spec: TestSpecification) => longest.get(spec.project.name) ?? 0;
    const ms = (spec: TestSpecification) => known.get(spec) ?? Number.POSITIVE_INFINITY;
    const synced = new Map(files.map((spec) => [spec, usesSyncedData(spec.moduleId) ? 1 : 0]));
    return [...files].sort(
      (a, b) => rank(b) - rank(a) || a.project.name.localeCompare(b.project.name) || synced.get(a)! - synced.get(b)! || ms(b) - ms(a) || 0,
    );
  }
}
