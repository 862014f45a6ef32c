// `node scripts/launch.mjs scripts/eval/probe-ask.ts --data-dir DIR [--frames] < questions.txt`: asks the
// built-in answerer each question (one a line) and prints its answer, the time it took and, with
// --frames, the frame read; --today YYYY-MM-DD sets the clock to noon UTC of that day (as the eval does).
// For trying new phrasings by hand; it scores nothing.
import fs from 'node:fs';
import { loadConfig } from '../../api/config.ts';
import { createLogger } from '../../api/platform/logger.ts';
import { openDatabase } from '../../api/platform/db/open.ts';
import { createServices, closeServices } from '../../api/services.ts';
import { createBuiltinAnswerer } from '../../api/ask/builtin/answerer.ts';
import { readFrame } from '../../api/ask/builtin/reader/read-frame.ts';
import { frameLine } from '../../api/ask/builtin/reader/frame-line.ts';

const args = process.argv.slice(2);
const dataDir = args[args.indexOf('--data-dir') + 1] ?? '.data';
const config = loadConfig({ ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'warn', SYNC_ON_START: 'false' });
const logger = createLogger('warn');
const db = await openDatabase(config, logger);
const today = args.includes('--today') ? args[args.indexOf('--today') + 1] : undefined;
const clockOffsetMs = today === undefined ? 0 : Date.parse(`${today}T12:00:00Z`) - Date.now();
const core = { config, db, logger, clock: () => new Date(Date.now() + clockOffsetMs) };
const services = await createServices(core);
const answerer = createBuiltinAnswerer({ ...core, services });
const questions = fs
  .readFileSync(0, 'utf8')
  .split('\n')
  .map((line) => line.trim())
  .filter((line) => line !== '' && !line.startsWith('#'));
for (const question of questions) {
  const started = performance.now();
  let text = '';
  for await (const event of answerer.answer({ message: question, history: [] }, AbortSignal.timeout(30_000)))
    if (event.type === 'text') text += event.text;
  const ms = Math.round(performance.now() - started);
  process.stdout.write(`\n### ${question}  (${ms} ms)\n${text.replace(/\s+/g, ' ').slice(0, 700)}\n`);
  if (args.includes('--frames')) {
    const { frame } = await readFrame(question, { deps: { ...core, services } as never, populations: new Map(), today: core.clock() });
    process.stdout.write(`    frame: ${frameLine(frame)}\n`);
  }
}
await closeServices(services);
await db.close();
process.exit(0);
