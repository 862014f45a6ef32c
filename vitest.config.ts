// `npm test` runs unit and integration tests (and the browser tests when Chromium is installed).
// Test files run in parallel workers; integration tests each create their own database.
import { defineConfig } from 'vitest/config';
import LongestFirst from './tests/support/sequencer.ts';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    pool: 'forks',
    maxWorkers: 2,
    reporters: ['default'],
    globalSetup: ['tests/global-setup.ts'],
    setupFiles: ['tests/setup-env.ts'],
    // Longest files first, so the run does not end with one worker alone on a long file.
    sequence: { sequencer: LongestFirst },
  },
});
