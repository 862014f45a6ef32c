// `npm run eval:ask [--model-only|--builtin-only] [--data-dir DIR]`: asks every question of the eval
// set and checks each answer for its facts (computed from the official files). Runs the built-in
// answerer always and the model answerer when OPENAI_BASE_URL/OPENAI_API_KEY are set; prints
// accuracy per answerer and exits non-zero when the built-in answerer finds < 90% of the facts.
import fs from 'node:fs';
import { loadConfig } from '../api/config.ts';
import { createLogger } from '../api/platform/logger.ts';
import { openDatabase } from '../api/platform/db/open.ts';
import { createServices, closeServices } from '../api/services.ts';
import type { AppDeps } from '../api/deps.ts';
import type { Answerer } from '../api/ask/types.ts';
import { createBuiltinAnswerer } from '../api/ask/builtin/answerer.ts';
import { createModelAnswerer } from '../api/ask/model/answerer.ts';
import { ASK_QUESTIONS } from './eval/ask-questions.ts';
import { answerContains, resolveFact } from './eval/facts.ts';
import { prepareDataDir, sourceDir } from './bench/service.ts';

const args = process.argv.slice(2);
const option = (name: string) => {
  const index = args.indexOf(name);
  return index >= 0 ? args[index + 1] : undefined;
};

async function answerText(answerer: Answerer, question: string): Promise<{ text: string; sources: string[] }> {
  let text = '';
  const sources: string[] = [];
  for await (const event of answerer.answer({ message: question, history: [] }, AbortSignal.timeout(30_000))) {
    if (event.type === 'text') text += event.text;
    else if (event.type === 'source') sources.push(event.url);
  }
  return { text, sources };
}

async function evaluate(name: string, answerer: Answerer, today: Date): Promise<number> {
  let found = 0;
  let total = 0;
  for (const question of ASK_QUESTIONS) {
    const facts = question.facts.map((fact) => resolveFact(fact, sourceDir(), today)).filter((fact) => fact !== undefined);
    if (facts.length === 0) continue;
    const { text, sources } = await answerText(answerer, question.question);
    const missing = facts.filter((fact) => !answerContains(text, fact));
    found += facts.length - missing.length;
    total += facts.length;
    const mark = missing.length === 0 ? 'ok  ' : 'MISS';
    process.stdout.write(`${mark} [${name}] ${question.id}: ${question.question}\n`);
    if (missing.length > 0) {
      process.stdout.write(`     missing: ${missing.map((fact) => fact.label).join('; ')}\n     answer: ${text.replace(/\s+/g, ' ').slice(0, 300)}\n`);
    }
    if (sources.length === 0) process.stdout.write('     (no sources cited)\n');
  }
  const accuracy = total === 0 ? 0 : found / total;
  process.stdout.write(`\n${name}: ${found}/${total} facts found (${(accuracy * 100).toFixed(1)}%) over ${ASK_QUESTIONS.length} questions\n\n`);
  return accuracy;
}

async function main(): Promise<void> {
  const ownDataDir = option('--data-dir') === undefined;
  const dataDir = option('--data-dir') ?? prepareDataDir((line) => process.stderr.write(`eval: ${line}\n`));
  const config = loadConfig({ ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'warn', SYNC_ON_START: 'false' });
  const logger = createLogger('warn');
  const db = await openDatabase(config, logger);
  const core = { config, db, logger, clock: () => new Date() };
  const services = await createServices(core);
  const deps: AppDeps = { ...core, services };
  let builtinAccuracy = 1;
  try {
    if (!args.includes('--model-only')) builtinAccuracy = await evaluate('built-in', createBuiltinAnswerer(deps), core.clock());
    const model = createModelAnswerer(deps);
    if (model && !args.includes('--builtin-only')) await evaluate('model', model, core.clock());
    else if (!model) process.stdout.write('model: not configured (set OPENAI_BASE_URL / OPENAI_API_KEY / ASK_MODEL to evaluate one)\n');
  } finally {
    await closeServices(services);
    await db.close();
    if (ownDataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  }
  process.exit(builtinAccuracy >= 0.9 ? 0 : 1);
}

await main();
