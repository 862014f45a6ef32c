// `npm test` runs every test file (and the browser tests when Chromium is installed); `npm run
// test:fast` runs the `fast` project alone: the edit-test loop.
//
// Each file lands in one of three projects by what it uses (see the markers), so a new test joins the
// right one by itself:
// - `fast`: the unit tests (some read a source file or two) and the integration tests that run
//   inside the test worker on scratch databases, without the official source files;
// - `synced`: the other tests that run inside the worker: on data synced from the official source
//   files, or on the built site's pages (slower: they are left out of the quick loop);
// - `processes`: tests that start servers, CLIs or the MCP Inspector as processes, drive the
//   browser, or change process-wide state (environment, signal handlers, mocks).
// The first two share their worker's loaded modules from one file to the next (`isolate: false`):
// loading the app again for every file was about half of their CPU. The third gives each file a
// fresh worker, so nothing one of them sets reaches another.
import fs from 'node:fs';
import path from 'node:path';
import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';
import LongestFirst from './tests/support/sequencer.ts';

/** What a file must not use to share a worker with other files. */
const PROCESS_MARKERS = [
  /\bnode:child_process\b/, // starts processes
  /\bserver-process\.ts\b/, // runs api/main.ts as a process
  /\bplaywright-core\b/, // a browser
  /\bprocess\.env\.[A-Z_]+ *=[^=]/, // sets the environment
  /\bprocess\.on\(/, // signal or exit handlers
  /\bvi\.(mock|stubEnv|stubGlobal)\b/, // replaces modules or globals
];
/** What keeps a file out of the quick loop. */
const SLOW_MARKERS = [
  /\bsynced\.ts\b/, // syncs from the official source files
  /\bsource-data\.ts\b/, // reads the official source files
  /\bsite-build\.ts\b/, // needs dist/, which the first such file builds
];
/** In-process, but long by design: they wait out real rate-limit windows. */
const SLOW_FILES = new Set(['tests/integration/access-limit-refusals.test.ts']);

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
const inProcess = all.filter((file) => !uses(file, PROCESS_MARKERS));
const fast = inProcess.filter(
  (file) => file.startsWith('tests/unit/') || (file.startsWith('tests/integration/') && !SLOW_FILES.has(file) && !uses(file, SLOW_MARKERS)),
);
const synced = inProcess.filter((file) => !fast.includes(file));
const processes = all.filter((file) => !inProcess.includes(file));

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
    projects: [project('fast', fast, false), project('synced', synced, false), project('processes', processes, true)],
  },
});
