// "What does loan purpose code 32 stand for in HMDA?": what a code of an HMDA field means, from the
// catalogue's code book (data/catalogue/measures.yaml: the codes its counts are built on and every
// other coded field of the public LAR spec, such as HOEPA status), so a new field or code is a line
// of data. A question that names a field and one of its codes is answered here, and so is one that
// asks for a field's codes ("what are the other codes that field can take", "what values can lien
// status take"): then every code of the field is listed. Any other is left to the other composers.
import type { HmdaCode } from '../../catalogue/measures.ts';
import { FFIEC_LAR_FIELDS_URL, codeListAsked, codeMeaning, codesNamedIn, codesWrittenIn } from '../../catalogue/code-book.ts';
import type { AnswerDraft, BuiltinDeps } from './draft.ts';
import { wordsOf, findPhrase } from './reader/words.ts';

/** Words that ask what something means, not how many there were ("purchased loans (action taken code 6)"). */
const MEANING = [
  'mean',
  'meaning',
  'stand for',
  'stands for',
  'refer to',
  'represent',
  'define',
  'definition',
  'signify',
  'what is',
  'what are',
];

/** Words that can only ask what a thing means ("what is" can ask for a figure too). */
const STRICT_MEANING = MEANING.filter((phrase) => !phrase.startsWith('what'));

/** A code written as a value of its field: "action_taken = 6", "action taken is 6", "a loan purpose of 32". */
const VALUE_WRITTEN = /(?:=|==|\b(?:is|of|equals|equal to|set to)\b)\s*\d+\b/i;

export function hmdaCodeAsked(question: string): HmdaCode[] {
  const words = wordsOf(question);
  const saysCode = words.some(
    (word) => word.root === 'code' || word.root === 'value' || word.normal === 'codes' || word.normal === 'values',
  );
  const means = (phrases: readonly string[]) => phrases.some((phrase) => findPhrase(words, phrase).length > 0);
  // Without the word "code", a field given a value must be asked what it means in so many words.
  if (!saysCode && !(VALUE_WRITTEN.test(question) && means(STRICT_MEANING) && codesWrittenIn(question).length > 0)) return [];
  // "what's" is read as "what" and an unwritten "is".
  const asksMeaning = means(MEANING) || /\bwhat['’]?s\b/i.test(question) || codeListAsked(question);
  if (!asksMeaning || findPhrase(words, 'how many').length > 0) return [];
  // The catalogue search's reading of field and codes, so a field written as the LAR spec names it
  // ("action_taken codes 4 and 6") is read here as it is over MCP.
  return codesNamedIn(question);
}

/** The answer's lines: what each written code means, then each field whose codes were all asked for, listed. */
function codeLines(question: string, codes: readonly HmdaCode[]): string[] {
  const named = new Set(codesWrittenIn(question));
  const written = codes.filter((code) => named.has(code));
  const lines = written.map((code) => `In the HMDA data, ${code.label} code **${code.code}** means **${codeMeaning(code)}**.`);
  const byField = new Map<string, HmdaCode[]>();
  for (const code of codes) byField.set(code.label, [...(byField.get(code.label) ?? []), code]);
  for (const [label, field] of byField)
    if (field.length > written.filter((code) => code.label === label).length)
      lines.push(`The ${label} field takes these codes: ${field.map((code) => `**${code.code}** ${codeMeaning(code)}`).join('; ')}.`);
  return lines;
}

export function answerHmdaCode(question: string, deps: BuiltinDeps): AnswerDraft | undefined {
  const codes = hmdaCodeAsked(question);
  if (codes.length === 0) return undefined;
  return {
    text: [...codeLines(question, codes), `The codes are the FFIEC's loan/application register fields (${FFIEC_LAR_FIELDS_URL}).`].join(
      '\n\n',
    ),
    sources: [FFIEC_LAR_FIELDS_URL, `${deps.config.baseUrl}/api/v1/series?query=hmda`],
  };
}
