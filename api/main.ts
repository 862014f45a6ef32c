// Runs the server without the site-build step (scripts/start.ts adds that for `npm start`).
// First: it may run the process again with the C allocator's settings, before anything is loaded.
// The rest is imported dynamically: every static import is loaded before the first one runs, so the
// app would be loaded twice (about a second) whenever the process runs again; and the database
// starts opening (./boot.ts) before the app's modules load, so the two happen at once.
import './platform/memory/apply-allocator-settings.ts';
import './platform/memory/heap-settings.ts';
import './platform/memory/wasm-settings.ts';

const { boot } = await import('./boot.ts');
const booted = boot();
const { main } = await import('./server.ts');
await main(booted);
