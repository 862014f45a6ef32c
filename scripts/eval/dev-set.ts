// The shared development set (`ask-dev.json`, 100 questions with facts computed from the official
// files by a reader written apart from the service), read from the shared folder at run time and
// never copied into the project. Scored as the set's own `score.py` scores: digit-group commas and
// "$" removed, lower-cased ("%" kept); a fact is met when one of its alternatives is a substring; a
// forbidden string counts as a fact met only when absent.
import fs from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT } from '../../api/config.ts';

export interface DevQuestion {
  n: number;
  kind: string;
  q: string;
  facts: (string | string[])[];
  forbid?: string[];
}

export interface DevScore {
  facts: number;
  found: number;
  missing: string[];
}

/** The shared eval folder: `ASK_EVAL_DIR`, else `../shared/eval` beside the project. */
export function devSetDir(): string {
  return process.env.ASK_EVAL_DIR ?? path.resolve(PROJECT_ROOT, '..', 'shared', 'eval');
}

/** The set's questions, or undefined (with the reason) when the shared folder is absent. */
export function loadDevSet(file = 'ask-dev.json', dir = devSetDir()): { questions: DevQuestion[] } | { absent: string } {
  const where = path.join(dir, file);
  if (!fs.existsSync(where)) return { absent: `${where} not found (set ASK_EVAL_DIR to the folder holding ${file})` };
  const raw = JSON.parse(fs.readFileSync(where, 'utf8')) as Omit<DevQuestion, 'n'>[];
  return { questions: raw.map((question, index) => ({ ...question, n: index + 1 })) };
}

/** The answer as score.py compares it. */
export function normalise(answer: string): string {
  let out = '';
  for (let index = 0; index < answer.length; index += 1) {
    const char = answer[index] as string;
    if (char === '$') continue;
    // A comma followed by three digits is a digit-group separator (score.py: `,(?=\d{3})`).
    if (char === ',' && /^\d{3}/.test(answer.slice(index + 1, index + 4))) continue;
    out += char;
  }
  return out.toLowerCase();
}

export function scoreDev(question: DevQuestion, answer: string): DevScore {
  const text = normalise(answer);
  const missing: string[] = [];
  let found = 0;
  for (const forbidden of question.forbid ?? []) {
    if (text.includes(String(forbidden).toLowerCase())) missing.push(`FORBID ${forbidden}`);
    else found += 1;
  }
  for (const fact of question.facts) {
    const alternatives = Array.isArray(fact) ? fact : [fact];
    if (alternatives.some((alternative) => text.includes(String(alternative).toLowerCase()))) found += 1;
    else missing.push(alternatives.slice(0, 3).join(' | '));
  }
  return { facts: (question.forbid ?? []).length + question.facts.length, found, missing };
}
