// `npm run test:fast`: the edit-test loop. The unit tests, and the integration tests that run inside
// the test worker on scratch databases: none that starts a process (servers, CLIs, the MCP
// Inspector), builds or browses the site, or syncs from the official source files (those are in
// `npm test`). Chosen by what a file uses, so a new test joins the right run by itself.
import fs from 'node:fs';
import path from 'node:path';
import { defineConfig } from 'vitest/config';
import base from './vitest.config.ts';

/** What a file must not use to belong in the quick run. */
const SLOW_MARKERS = [
  /\bnode:child_process\b/, // starts processes
  /\bserver-process\.ts\b/, // runs api/main.ts as a process
  /\bsite-build\.ts\b/, // needs dist/
  /\bplaywright-core\b/, // a browser
  /\bsynced\.ts\b/, // syncs from the official source files
  /\bsource-data\.ts\b/, // reads the official source files
];
/** In-process, but long by design: they wait out real rate-limit windows. */
const SLOW_FILES = new Set(['tests/integration/access-limit-refusals.test.ts']);

const integrationDir = path.join(import.meta.dirname, 'tests', 'integration');
const inProcessIntegration = fs
  .readdirSync(integrationDir)
  .filter((file) => file.endsWith('.test.ts'))
  .map((file) => `tests/integration/${file}`)
  .filter((file) => !SLOW_FILES.has(file))
  .filter((file) => {
    const source = fs.readFileSync(path.join(import.meta.dirname, file), 'utf8');
    return !SLOW_MARKERS.some((marker) => marker.test(source));
  });

export default defineConfig({
  ...base,
  test: {
    ...base.test,
    include: ['tests/unit/**/*.test.ts', ...inProcessIntegration],
    // Each worker keeps its modules from one file to the next instead of loading the app again for
    // every file (about half the CPU of this run). `npm test` (and CI) still isolates every file, so
    // a test that only passes after another one set something up fails there.
    isolate: false,
  },
});
