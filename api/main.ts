// Runs the server without the site-build step (scripts/start.ts adds that for `npm start`).
import { main } from './server.ts';

await main();
