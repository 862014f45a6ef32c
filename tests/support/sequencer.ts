// The order test files start in: longest first. The two workers take the next file whenever they
// finish one, so with the long files started early the run ends on short ones, and neither core
// sits idle while the other finishes a long file started last. A file's duration is vitest's own
// record of this checkout's last run, else tests/durations.json (a recorded full run, for a fresh
// checkout such as CI, where vitest would go by file size); files in neither (new ones) go first.
// Refresh the recording after a full `npm test`:
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

export default class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const recorded = recordedDurations();
    const duration = (spec: TestSpecification): number | undefined => {
      const cached = this.ctx.cache.getTestSpecificationResult(spec)?.duration;
      if (cached !== undefined && cached > 0) return cached;
      return recorded[path.relative(spec.project.config.root, spec.moduleId).split(path.sep).join('/')];
    };
    const known = new Map(files.map((spec) => [spec, duration(spec)]));
    return [...files].sort((a, b) => (known.get(b) ?? Number.POSITIVE_INFINITY) - (known.get(a) ?? Number.POSITIVE_INFINITY) || 0);
  }
}
