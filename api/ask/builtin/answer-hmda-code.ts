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

export function hmdaCodeAsked(question: string): HmdaCode[] {
  const words = wordsOf(question);
  if (!words.some((word) => word.root === 'code' || word.root === 'value' || word.normal === 'codes' || word.normal === 'values'))
    return [];
  // "what's" is read as "what" and an unwritten "is".
  const asksMeaning =
    MEANING.some((phrase) => findPhrase(words, phrase).length > 0) || /\bwhat['’]?s\b/i.test(question) || codeListAsked(question);
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
