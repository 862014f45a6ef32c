// `npm start`: build the site if it is missing or stale, then run the server (migrations run as it
// starts; missing datasets sync in the background while it serves).
// First: it may run the process again with the C allocator's settings, before anything is loaded.
import '../api/platform/memory/apply-allocator-settings.ts';
import '../api/platform/memory/heap-settings.ts';
import { ensureSiteBuilt } from './site-build.ts';
import { main } from '../api/server.ts';

ensureSiteBuilt((message) => process.stderr.write(`${message}\n`));
await main();
