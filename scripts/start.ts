// `npm start`: build the site if it is missing or stale, make the empty embedded database a new data
// folder starts from if this install has none yet, then run the server (migrations run as it starts;
// missing datasets sync in the background while it serves).
// First: it may run the process again with the C allocator's settings, before anything is loaded
// (hence the dynamic imports below; api/main.ts says why, and why boot() comes before the app).
import '../api/platform/memory/apply-allocator-settings.ts';
import '../api/platform/memory/heap-settings.ts';
import '../api/platform/memory/wasm-settings.ts';

const { ensureSiteBuilt } = await import('./site-build.ts');
ensureSiteBuilt((message) => process.stderr.write(`${message}\n`));
const { prepareDatabaseTemplate } = await import('./lib/database-template.ts');
prepareDatabaseTemplate((message) => process.stderr.write(`${message}\n`));
const { boot } = await import('../api/boot.ts');
const booted = boot();
const { main } = await import('../api/server.ts');
await main(booted);
