// `npm test` runs every test file (and the browser tests when Chromium is installed); `npm run
// test:fast` runs the `fast` project alone: the edit-test loop.
//
// Each file lands in one of three projects by what it uses (see the markers), so a new test joins the
// right one by itself:
// - `fast`: the unit tests (some read a source file or two) and the integration tests that run
//   inside the test worker on scratch databases, without the official source files;
// - `slow`: the other files that can share a worker: on data synced from the official source files,
//   on the built site's pages, starting servers, CLIs or the MCP Inspector as processes, driving the
//   browser, or long by design (left out of the quick loop);
// - `isolated`: files that change what the whole process sees (environment, signal handlers, mocks),
//   and the few that need a worker nothing ran in before (FRESH_WORKER_FILES).
// The first two share their worker's loaded modules from one file to the next (`isolate: false`):
// loading the app again for every file was about half of their CPU, and a fresh worker for each of
// the files that start processes or a browser some 30 s of CPU a run. The third gives each file
// a fresh worker, so nothing one of them sets reaches another.
import fs from 'node:fs';
import path from 'node:path';
import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';
import LongestFirst from './tests/support/sequencer.ts';

/** What a file must not do to share a worker with other files: change what the whole process sees. */
const PROCESS_STATE_MARKERS = [
  /\bprocess\.env\.[A-Z_]+ *=[^=]/, // sets the environment
  /\bprocess\.on\(/, // signal or exit handlers
  /\bvi\.(mock|stubEnv|stubGlobal)\b/, // replaces modules or globals
];
/** What keeps a file out of the quick loop. */
const SLOW_MARKERS = [
  /\bsynced\.ts\b/, // syncs from the official source files
  /\bsource-data\.ts\b/, // reads the official source files
  /\bsite-build\.ts\b/, // needs dist/, which the first such file builds
  /\bnode:child_process\b/, // starts processes
  /\bserver-process\.ts\b/, // runs api/main.ts as a process
  /\bplaywright-core\b/, // a browser
];
/** Long by design: they wait out real rate-limit windows (Redis's). */
const SLOW_FILES = new Set(['tests/integration/access-limit-refusals.test.ts']);
/**
 * Files that get a fresh worker though they change nothing process-wide. mcp-agents checks each
 * tool's natural calls against the listed schema with ajv: after other files had run in its worker,
 * a case-insensitive group (`(?i:fha|…)`) twice refused a spelling it accepts alone ("FHA", "Loan
 * Types"), and neither that file alone nor with the fuzz files before it reproduced it; until the
 * cause is found, it runs where nothing ran before it. mcp-tool-schemas, the same check on the listed
 * schemas, met the same refusal in a full run (27 spellings of one file, after other fast files).
 */
const FRESH_WORKER_FILES = new Set(['tests/integration/mcp-agents.test.ts', 'tests/unit/mcp-tool-schemas.test.ts']);

const root = import.meta.dirname;
const testFiles = (folder: string): string[] =>
  fs
    .readdirSync(path.join(root, folder), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.test.ts'))
    .map((file) => `${folder}/${file.split(path.sep).join('/')}`);
const uses = (file: string, markers: RegExp[]) => {
  const source = fs.readFileSync(path.join(root, file), 'utf8');
  return markers.some((marker) => marker.test(source));
};

const all = ['unit', 'integration', 'faults', 'fuzz', 'security', 'e2e'].flatMap((folder) => testFiles(`tests/${folder}`));
const sharing = all.filter((file) => !FRESH_WORKER_FILES.has(file) && !uses(file, PROCESS_STATE_MARKERS));
const fast = sharing.filter(
  (file) => file.startsWith('tests/unit/') || (file.startsWith('tests/integration/') && !SLOW_FILES.has(file) && !uses(file, SLOW_MARKERS)),
);
const slow = sharing.filter((file) => !fast.includes(file));
const isolated = all.filter((file) => !sharing.includes(file));

const project = (name: string, include: string[], isolate: boolean): TestProjectInlineConfiguration => ({
  extends: true,
  test: { name, include, isolate },
});

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 120_000,
    pool: 'forks',
    maxWorkers: 2,
    reporters: ['default'],
    globalSetup: ['tests/global-setup.ts'],
    setupFiles: ['tests/setup-env.ts'],
    // Longest files first, so the run does not end with one worker alone on a long file.
    sequence: { sequencer: LongestFirst },
    projects: [project('fast', fast, false), project('slow', slow, false), project('isolated', isolated, true)],
  },
});
