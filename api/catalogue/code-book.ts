// The HMDA code book: what a code of a loan/application register field means ("denial reason 3" is
// credit history, HOEPA status 1 a high-cost mortgage), read from the catalogue's file
// (data/catalogue/measures.yaml: the codes its counts are built on, and every other coded field of
// the CFPB's public LAR spec, which it only explains). The catalogue search (MCP `find_series`, REST
// GET /series?query=) and /ask's reader answer from it.
import type { HmdaCodeMeaning } from './contract.ts';
import { catalogue, type HmdaCode } from './measures.ts';
import { tokens } from './ranking.ts';

/** The FFIEC's description of the public LAR fields, which the meanings follow. */
export const FFIEC_LAR_FIELDS_URL = 'https://ffiec.cfpb.gov/documentation/publications/loan-level-datasets/lar-data-fields';

/** What a code stands for: the spec's words, else the title without the catalogue's "records" ("Cash-out refinancing records" → "Cash-out refinancing"). */
export const codeMeaning = (code: HmdaCode): string =>
  code.meaning ??
  code.title
    .replace(/ records$/i, '')
    .replace(/^Records (with|whose|for) /, '')
    .trim();

/** Where `phrase` occurs in `words` as consecutive words: [start, end) of each occurrence. */
function spans(words: readonly string[], phrase: readonly string[]): [number, number][] {
  const found: [number, number][] = [];
  for (let start = 0; start + phrase.length <= words.length; start += 1)
    if (phrase.length > 0 && phrase.every((word, offset) => words[start + offset] === word)) found.push([start, start + phrase.length]);
  return found;
}

/**
 * Words that ask for a field's list of codes rather than one of them: "what are the other codes that
 * field can take", "which values can HOEPA status have", "lien status codes". A count question
 * ("how many loans were denied for credit history") says none of these, so naming a field there
 * still names no code.
 */
const LIST =
  /\b(?:(?:other|all|possible|valid|which|what)\s+(?:(?:the|of the|other|possible|valid)\s+)*(?:codes?|values?)|codes? (?:list|can|could|does|do|are there)|values? (?:can|could|does|do)|can (?:\w+ ){0,3}(?:take|have|be)|list (?:of )?(?:the )?(?:codes?|values?))\b/i;

/** The code book's fields, each with its codes in the file's order. */
function fields(): HmdaCode[][] {
  const byField = new Map<string, HmdaCode[]>();
  for (const code of catalogue().hmdaCodes) byField.set(code.dimension, [...(byField.get(code.dimension) ?? []), code]);
  return [...byField.values()];
}

type Span = [number, number];

/** The fields a text names, each with where; a field named only inside a longer one's name ("credit score" in "credit score type") is not named. */
function fieldsNamedIn(words: readonly string[]): { codes: HmdaCode[]; at: Span[] }[] {
  const named = fields()
    .map((codes) => ({ codes, at: [codes[0]!.label, ...codes[0]!.words].flatMap((phrase) => spans(words, tokens(phrase))) }))
    .filter(({ at }) => at.length > 0);
  const inside = ([start, end]: Span, other: Span) => other[0] <= start && end <= other[1] && other[1] - other[0] > end - start;
  return named.filter(
    ({ codes, at }) => !at.every((span) => named.some((other) => other.codes !== codes && other.at.some((wider) => inside(span, wider)))),
  );
}

/** The fields a text names, and of each the codes it writes outside the fields' names (the 1 of `applicant_race_1` is not a code). */
function reading(text: string): { codes: HmdaCode[]; written: HmdaCode[] }[] {
  const words = tokens(text);
  const named = fieldsNamedIn(words);
  const taken = named.flatMap(({ at }) => at);
  const written = (code: HmdaCode) =>
    spans(words, tokens(code.code)).some(([start, end]) => !taken.some(([from, to]) => from <= start && end <= to));
  return named.map(({ codes }) => ({ codes, written: codes.filter(written) }));
}

/**
 * The codes a text names: a field ("denial reason", "HOEPA status", the public file's `hoepa_status`)
 * and one or more of its codes anywhere in the text ("loan purpose 31 and 32", "denial reason code
 * 3"). A field named without a code names nothing (a count question's field is not a question about
 * codes), unless the text asks for its codes ("what codes can lien status take"): then every code
 * of the field.
 */
export function codesNamedIn(text: string): HmdaCode[] {
  return reading(text).flatMap(({ codes, written }) =>
    // "HOEPA status codes" with no code written asks for them all, as "what codes can it take" does.
    codeListAsked(text) || (written.length === 0 && /\b(codes|values)\b/i.test(text)) ? codes : written,
  );
}

/** The codes a text writes itself with their field ("HOEPA status 1"), not those listed because it asks for a field's codes. */
export const codesWrittenIn = (text: string): HmdaCode[] => reading(text).flatMap(({ written }) => written);

/** Whether a text asks for a field's list of codes ("what are the other codes that field can take"). */
export const codeListAsked = (text: string): boolean => LIST.test(text);

/** A code as the catalogue's answers give it. */
export const codeAnswer = (code: HmdaCode): HmdaCodeMeaning => ({
  field: code.label,
  code: code.code,
  meaning: codeMeaning(code),
  series: code.series ?? null,
});
