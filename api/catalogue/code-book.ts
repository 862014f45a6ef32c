// The HMDA code book: what a code of a loan/application register field means ("denial reason 3" is
// credit history, loan purpose 32 cash-out refinancing), read from the catalogue's file
// (data/catalogue/measures.yaml: the codes its counts are built on, and the fields it only explains).
// The catalogue search (MCP `find_series`, REST GET /series?query=) and /ask's reader answer from it.
import type { HmdaCodeMeaning } from './contract.ts';
import { catalogue, type HmdaCode } from './measures.ts';
import { tokens } from './ranking.ts';

/** The FFIEC's description of the public LAR fields, which the meanings follow. */
export const FFIEC_LAR_FIELDS_URL = 'https://ffiec.cfpb.gov/documentation/publications/loan-level-datasets/lar-data-fields';

/** What a code stands for, without the catalogue's "records" ("Cash-out refinancing records" → "Cash-out refinancing"). */
export const codeMeaning = (code: HmdaCode): string =>
  code.title
    .replace(/ records$/i, '')
    .replace(/^Records (with|whose|for) /, '')
    .trim();

/** Where `phrase` occurs in `words` as consecutive words: the positions after each occurrence. */
function ends(words: readonly string[], phrase: readonly string[]): number[] {
  const found: number[] = [];
  for (let start = 0; start + phrase.length <= words.length; start += 1)
    if (phrase.length > 0 && phrase.every((word, offset) => words[start + offset] === word)) found.push(start + phrase.length);
  return found;
}

/**
 * The codes a text names: a field ("denial reason", "loan purpose", "action taken") and one or more
 * of its codes anywhere in the text ("loan purpose 31 and 32", "denial reason code 3"). A field
 * named without a code names nothing: the whole code book is not an answer.
 */
export function codesNamedIn(text: string): HmdaCode[] {
  const words = tokens(text);
  const named: HmdaCode[] = [];
  const byField = new Map<string, HmdaCode[]>();
  for (const code of catalogue().hmdaCodes) byField.set(code.dimension, [...(byField.get(code.dimension) ?? []), code]);
  for (const codes of byField.values()) {
    const first = codes[0]!;
    const fieldNamed = [first.label, ...first.words].some((phrase) => ends(words, tokens(phrase)).length > 0);
    if (!fieldNamed) continue;
    named.push(...codes.filter((code) => ends(words, tokens(code.code)).length > 0));
  }
  return named;
}

/** A code as the catalogue's answers give it. */
export const codeAnswer = (code: HmdaCode): HmdaCodeMeaning => ({
  field: code.label,
  code: code.code,
  meaning: codeMeaning(code),
  series: code.series ?? null,
});
