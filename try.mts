import { loadConfig } from './api/config.ts';
import { createLogger } from './api/platform/logger.ts';
import { openDatabase } from './api/platform/db/open.ts';
import { createServices, closeServices } from './api/services.ts';
import { createBuiltinAnswerer } from './api/ask/builtin/answerer.ts';
import { readFrame } from './api/ask/builtin/reader/read-frame.ts';
const config = loadConfig({ ...process.env, DATA_DIR: '.data', LOG_LEVEL: 'warn', SYNC_ON_START: 'false' });
const logger = createLogger('warn');
const db = await openDatabase(config, logger);
const core = { config, db, logger, clock: () => new Date() };
const services = await createServices(core);
const a = createBuiltinAnswerer({ ...core, services });
for (const q of process.argv.slice(2)) {
  const { frame } = await readFrame(q, { deps: { services } as never, populations: new Map(), today: new Date() });
  console.log(JSON.stringify({ op: frame.operation, m: frame.measures.map(m=>m.template), t: frame.times, n: frame.numbers }));
  let text = ''; for await (const e of a.answer({ message: q, history: [] }, AbortSignal.timeout(30000))) if (e.type === 'text') text += e.text;
  console.log(text.slice(0, 600));
}
await closeServices(services); await db.close();
