// Run by tests/global-setup.ts as a process of its own when the suite starts: builds the shared
// synced template (tests/support/synced.ts) on both databases while the test workers load the app
// and run the files that need no synced data, instead of the first file that needs it building it
// while the other waits. Without it nothing changes but the timing: a test file that finds the
// template missing builds it itself, and one that finds it being built waits (an advisory lock).
import { buildSharedTemplates } from './synced.ts';

await buildSharedTemplates();
