// Records each test file's duration, as vitest kept it after the last run of this checkout
// (node_modules/.vite/vitest/*/results.json: the whole file, set-up hooks included), into
// tests/durations.json, the order tests/support/sequencer.ts starts files in on a checkout with no
// run of its own (CI). Run it after a full `npm test`:
//   node scripts/launch.mjs scripts/record-test-durations.ts
import fs from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT } from '../api/config.ts';

interface VitestResults {
  projects: Record<string, { files: Record<string, { duration?: number }> }>;
}

const cacheDir = path.join(PROJECT_ROOT, 'node_modules', '.vite', 'vitest');
const caches = fs.existsSync(cacheDir)
  ? fs
      .readdirSync(cacheDir)
      .map((entry) => path.join(cacheDir, entry, 'results.json'))
      .filter((file) => fs.existsSync(file))
  : [];
if (caches.length === 0) {
  console.error(`No vitest results under ${path.relative(PROJECT_ROOT, cacheDir)}: run npm test first.`);
  process.exit(1);
}
const durations = new Map<string, number>();
for (const cache of caches) {
  const results = JSON.parse(fs.readFileSync(cache, 'utf8')) as VitestResults;
  for (const project of Object.values(results.projects)) {
    for (const [file, result] of Object.entries(project.files)) {
      if (result.duration !== undefined && fs.existsSync(path.join(PROJECT_ROOT, file))) durations.set(file, Math.round(result.duration));
    }
  }
}
const sorted = Object.fromEntries([...durations].sort(([, a], [, b]) => b - a));
const target = path.join(PROJECT_ROOT, 'tests', 'durations.json');
fs.writeFileSync(target, `${JSON.stringify(sorted, null, 2)}\n`);
console.log(`${durations.size} files recorded in ${path.relative(PROJECT_ROOT, target)}`);
