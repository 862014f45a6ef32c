// `npm start`: build the site if it is missing or stale, then run the server (migrations run as it
// starts; missing datasets sync in the background while it serves).
import { ensureSiteBuilt } from './site-build.ts';
import { main } from '../api/server.ts';

ensureSiteBuilt((message) => process.stderr.write(`${message}\n`));
await main();
