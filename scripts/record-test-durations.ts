// Records each test file's duration from a vitest JSON report into tests/durations.json, the order
// tests/support/sequencer.ts starts files in on a checkout with no run of its own (CI). Usage:
//   npm test -- --reporter=json --outputFile=/tmp/report.json
//   node scripts/launch.mjs scripts/record-test-durations.ts /tmp/report.json
import fs from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT } from '../api/config.ts';

interface Report {
  testResults: { name: string; startTime: number; endTime: number }[];
}

const reportFile = process.argv[2];
if (!reportFile) {
  console.error('usage: record-test-durations.ts <vitest JSON report>');
  process.exit(2);
}
const report = JSON.parse(fs.readFileSync(reportFile, 'utf8')) as Report;
const durations = Object.fromEntries(
  report.testResults
    .map((file) => [path.relative(PROJECT_ROOT, file.name).split(path.sep).join('/'), Math.max(0, Math.round(file.endTime - file.startTime))] as const)
    .sort(([, a], [, b]) => b - a),
);
const target = path.join(PROJECT_ROOT, 'tests', 'durations.json');
fs.writeFileSync(target, `${JSON.stringify(durations, null, 2)}\n`);
console.log(`${Object.keys(durations).length} files recorded in ${path.relative(PROJECT_ROOT, target)}`);
