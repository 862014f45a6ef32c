// Asks the shared development set (scripts/eval/dev-set.ts) and prints, per question, what was
// missed, then facts found and questions fully right overall and by kind. Question ids are
// `dev-<n>` (n from 1, as score.py numbers them), so `--only dev-04` picks 40–49.
import { loadDevSet, scoreDev } from './dev-set.ts';

type Ask = (question: string) => Promise<{ text: string; sources: string[] }>;

interface Tally {
  facts: number;
  found: number;
  questions: number;
  right: number;
}

const percent = (part: number, whole: number) => (whole === 0 ? 'n/a' : `${((part / whole) * 100).toFixed(1)}%`);
const line = (label: string, tally: Tally) =>
  `  ${label.padEnd(22)} facts ${String(tally.found).padStart(3)}/${String(tally.facts).padEnd(3)} (${percent(tally.found, tally.facts).padStart(6)})   questions fully right ${String(tally.right).padStart(3)}/${String(tally.questions).padEnd(3)} (${percent(tally.right, tally.questions)})\n`;

/** `which`: the shared set (ask-dev.json), or the project's own class questions (scripts/eval/ask-classes.json). */
export async function evaluateDevSet(name: string, ask: Ask, only?: string, which: 'dev' | 'classes' = 'dev'): Promise<Tally | undefined> {
  const set = which === 'dev' ? loadDevSet() : loadDevSet('ask-classes.json', import.meta.dirname);
  if ('absent' in set) {
    process.stdout.write(`dev set skipped: ${set.absent}\n`);
    return undefined;
  }
  const total: Tally = { facts: 0, found: 0, questions: 0, right: 0 };
  const byKind = new Map<string, Tally>();
  for (const question of set.questions) {
    const id = `${which}-${String(question.n).padStart(3, '0')}`;
    if (only !== undefined && !id.startsWith(only)) continue;
    const { text } = await ask(question.q);
    const score = scoreDev(question, text);
    if (!byKind.has(question.kind)) byKind.set(question.kind, { facts: 0, found: 0, questions: 0, right: 0 });
    for (const tally of [total, byKind.get(question.kind) as Tally]) {
      tally.facts += score.facts;
      tally.found += score.found;
      tally.questions += 1;
      if (score.found === score.facts) tally.right += 1;
    }
    process.stdout.write(`${score.missing.length === 0 ? 'ok  ' : 'MISS'} [${name}] ${id} (${question.kind}): ${question.q}\n`);
    if (score.missing.length > 0)
      process.stdout.write(`     missing: ${score.missing.join('; ')}\n     answer: ${text.replace(/\s+/g, ' ').slice(0, 500)}\n`);
  }
  process.stdout.write(`\n${name}, ${which === 'dev' ? 'development set (ask-dev)' : 'classes of phrasing (ask-classes)'}:\n`);
  process.stdout.write(line('all', total));
  for (const [kind, tally] of [...byKind].sort(([a], [b]) => a.localeCompare(b))) process.stdout.write(line(`  ${kind}`, tally));
  process.stdout.write('\n');
  return total;
}
