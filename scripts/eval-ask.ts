// `npm run eval:ask [--model-only|--builtin-only] [--data-dir DIR] [--set single|multi|tuned|dev|classes|all] [--only ID-PREFIX]
// [--today YYYY-MM-DD]`:
// asks the single look-ups (scripts/eval/ask-questions.ts), the multi-step questions
// (scripts/eval/multi-questions.ts, tuned and held-out parts reported apart) and the shared
// development set (`ask-dev.json` in ASK_EVAL_DIR, default ../shared/eval; skipped with a note when
// absent: scripts/eval/dev-set.ts) and checks each answer for its facts, computed from the official
// files. Runs the built-in answerer always and the model
// answerer when OPENAI_BASE_URL/OPENAI_API_KEY are set; prints facts found and questions fully right
// per set and per kind, and exits non-zero when the built-in answerer misses its targets (single
// look-ups 90% of facts; multi-step 85% of facts and 75% of questions).
// The answerers run on a clock set to `--today` (default EVAL_TODAY): the shared set and the class set
// were written with their relative dates ("a year ago", "this year") resolved against that day, so a
// run on another day would otherwise score them against another question.
import fs from 'node:fs';
import { loadConfig } from '../api/config.ts';
import { createLogger } from '../api/platform/logger.ts';
import { openDatabase } from '../api/platform/db/open.ts';
import { createServices, closeServices } from '../api/services.ts';
import type { Answerer } from '../api/ask/types.ts';
import { createBuiltinAnswerer } from '../api/ask/builtin/answerer.ts';
import { createModelAnswerer } from '../api/ask/model/answerer.ts';
import { ASK_QUESTIONS, type Fact } from './eval/ask-questions.ts';
import { answerContains, resolveFact, type ResolvedFact } from './eval/facts.ts';
import { MULTI_QUESTIONS } from './eval/multi-questions.ts';
import { resolveMultiFact } from './eval/multi-facts.ts';
import { prepareDataDir, sourceDir } from './bench/service.ts';
import { evaluateDevSet } from './eval/dev-run.ts';

const args = process.argv.slice(2);
const option = (name: string) => {
  const index = args.indexOf(name);
  return index >= 0 ? args[index + 1] : undefined;
};

/** The day the shared development set and the class set resolve their relative dates against (their READMEs). */
const EVAL_TODAY = '2026-12-07';
const today = option('--today') ?? EVAL_TODAY;
if (!/^\d{4}-\d{2}-\d{2}$/.test(today)) throw new Error(`--today takes a day as YYYY-MM-DD, not "${today}"`);
// The clock keeps running (caches and timeouts see time pass) from noon UTC of that day.
const clockOffsetMs = Date.parse(`${today}T12:00:00Z`) - Date.now();

async function answerText(answerer: Answerer, question: string): Promise<{ text: string; sources: string[] }> {
  let text = '';
  const sources: string[] = [];
  for await (const event of answerer.answer({ message: question, history: [] }, AbortSignal.timeout(30_000))) {
    if (event.type === 'text') text += event.text;
    else if (event.type === 'source') sources.push(event.url);
  }
  return { text, sources };
}

interface Asked {
  id: string;
  question: string;
  facts: Fact[];
  /** What the report groups by: the single look-up's intent or the multi-step question's kind. */
  kind: string;
  set: 'single' | 'multi-tuned' | 'multi-held-out';
}

interface Tally {
  facts: number;
  found: number;
  questions: number;
  right: number;
}

const emptyTally = (): Tally => ({ facts: 0, found: 0, questions: 0, right: 0 });
const percent = (part: number, whole: number) => (whole === 0 ? 'n/a' : `${((part / whole) * 100).toFixed(1)}%`);

function resolve(fact: Fact, today: Date): ResolvedFact | undefined {
  if ('compute' in fact) {
    const multi = resolveMultiFact(fact.compute, fact.args ?? {}, sourceDir());
    if (multi) return multi;
  }
  return resolveFact(fact, sourceDir(), today);
}

function questionsToAsk(): Asked[] {
  const set = option('--set') ?? 'all';
  const only = option('--only');
  const single: Asked[] = ASK_QUESTIONS.map((question) => ({ ...question, kind: question.intent, set: 'single' }));
  const multi: Asked[] = MULTI_QUESTIONS.map((question) => ({ ...question, set: question.heldOut ? 'multi-held-out' : 'multi-tuned' }));
  const chosen =
    set === 'single'
      ? single
      : set === 'multi'
        ? multi
        : set === 'tuned'
          ? multi.filter((question) => question.set === 'multi-tuned')
          : [...single, ...multi];
  return only === undefined ? chosen : chosen.filter((question) => question.id.startsWith(only));
}

/** Asks every question; returns the share of facts found per set. */
async function evaluate(name: string, answerer: Answerer, today: Date): Promise<Map<string, Tally>> {
  const bySet = new Map<string, Tally>();
  const byKind = new Map<string, Tally>();
  const add = (map: Map<string, Tally>, key: string, facts: number, found: number) => {
    const tally = map.get(key) ?? emptyTally();
    tally.facts += facts;
    tally.found += found;
    tally.questions += 1;
    if (found === facts) tally.right += 1;
    map.set(key, tally);
  };
  for (const question of questionsToAsk()) {
    const facts = question.facts.map((fact) => resolve(fact, today)).filter((fact) => fact !== undefined);
    if (facts.length === 0) continue;
    const { text, sources } = await answerText(answerer, question.question);
    const missing = facts.filter((fact) => !answerContains(text, fact));
    add(bySet, question.set, facts.length, facts.length - missing.length);
    if (question.set !== 'single') add(byKind, question.kind, facts.length, facts.length - missing.length);
    const mark = missing.length === 0 ? 'ok  ' : 'MISS';
    process.stdout.write(`${mark} [${name}] ${question.id}: ${question.question}\n`);
    if (missing.length > 0) {
      process.stdout.write(
        `     missing: ${missing.map((fact) => fact.label).join('; ')}\n     answer: ${text.replace(/\s+/g, ' ').slice(0, 400)}\n`,
      );
    }
    if (sources.length === 0) process.stdout.write('     (no sources cited)\n');
  }
  const line = (label: string, tally: Tally) =>
    `  ${label.padEnd(16)} facts ${String(tally.found).padStart(3)}/${String(tally.facts).padEnd(3)} (${percent(tally.found, tally.facts).padStart(6)})   questions fully right ${String(tally.right).padStart(2)}/${String(tally.questions).padEnd(2)} (${percent(tally.right, tally.questions)})\n`;
  process.stdout.write(`\n${name}:\n`);
  for (const [set, tally] of bySet) process.stdout.write(line(set, tally));
  const multi = emptyTally();
  for (const set of ['multi-tuned', 'multi-held-out']) {
    const tally = bySet.get(set);
    if (!tally) continue;
    multi.facts += tally.facts;
    multi.found += tally.found;
    multi.questions += tally.questions;
    multi.right += tally.right;
  }
  if (multi.questions > 0) {
    process.stdout.write(line('multi (all)', multi));
    bySet.set('multi', multi);
    process.stdout.write('  multi-step, by kind:\n');
    for (const [kind, tally] of [...byKind].sort(([a], [b]) => a.localeCompare(b))) process.stdout.write(line(`  ${kind}`, tally));
  }
  process.stdout.write('\n');
  return bySet;
}

async function main(): Promise<void> {
  const ownDataDir = option('--data-dir') === undefined;
  const dataDir = option('--data-dir') ?? prepareDataDir((line) => process.stderr.write(`eval: ${line}\n`));
  const config = loadConfig({ ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'warn', SYNC_ON_START: 'false' });
  const logger = createLogger('warn');
  const db = await openDatabase(config, logger);
  const core = { config, db, logger, clock: () => new Date(Date.now() + clockOffsetMs) };
  const services = await createServices(core);
  const deps = { ...core, services };
  let passed = true;
  try {
    const set = option('--set') ?? 'all';
    const withDev = set === 'all' || set === 'dev';
    const withClasses = set === 'all' || set === 'classes';
    if (!args.includes('--model-only')) {
      const builtin = createBuiltinAnswerer(deps);
      const tallies = set === 'dev' || set === 'classes' ? new Map<string, Tally>() : await evaluate('built-in', builtin, core.clock());
      if (withDev) await evaluateDevSet('built-in', (question) => answerText(builtin, question), option('--only'));
      if (withClasses) await evaluateDevSet('built-in', (question) => answerText(builtin, question), option('--only'), 'classes');
      const single = tallies.get('single');
      const multi = tallies.get('multi');
      // The targets: single look-ups at or above 90% of facts; multi-step at 85% of facts and 75% of questions.
      if (single && single.found / single.facts < 0.9) passed = false;
      if (multi && (multi.found / multi.facts < 0.85 || multi.right / multi.questions < 0.75)) passed = false;
    }
    const model = createModelAnswerer(deps);
    if (model && !args.includes('--builtin-only')) {
      if (set !== 'dev') await evaluate('model', model, core.clock());
      if (withDev) await evaluateDevSet('model', (question) => answerText(model, question), option('--only'));
    } else if (!model) process.stdout.write('model: not configured (set OPENAI_BASE_URL / OPENAI_API_KEY / ASK_MODEL to evaluate one)\n');
  } finally {
    await closeServices(services);
    await db.close();
    if (ownDataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  }
  process.exit(passed ? 0 : 1);
}

await main();
