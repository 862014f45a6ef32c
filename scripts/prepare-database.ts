// Makes the empty embedded database a new data folder starts from, once per install
// (api/platform/db/pglite-template.ts says why): run by `npm start` and the benchmarks before the
// service starts, in a process of its own, so that initdb's memory is never the service's.
import { ensureTemplate } from '../api/platform/db/pglite-template.ts';

await ensureTemplate((message) => process.stderr.write(`${message}\n`));
