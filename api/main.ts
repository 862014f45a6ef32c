// Runs the server without the site-build step (scripts/start.ts adds that for `npm start`).
// First: it may run the process again with the C allocator's settings, before anything is loaded.
import './platform/memory/apply-allocator-settings.ts';
import './platform/memory/heap-settings.ts';
import { main } from './server.ts';

await main();
