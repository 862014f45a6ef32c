// "What does loan purpose code 32 stand for in HMDA?": what a code of an HMDA field means, from the
// catalogue's code book (data/catalogue/measures.yaml, the codes its counts are built on), so a new
// field or code is a line of data. Only a question that names a field and one of its codes is
// answered here; any other is left to the other composers.
import { catalogue, type HmdaCode } from '../../catalogue/measures.ts';
import type { AnswerDraft, BuiltinDeps } from './draft.ts';
import { wordsOf, findPhrase } from './reader/words.ts';

const FFIEC_FILING_GUIDE = 'https://ffiec.cfpb.gov/documentation/publications/loan-level-datasets/lar-data-fields';

/** What the code stands for, without the catalogue's "records" ("Cash-out refinancing records" → "Cash-out refinancing"). */
const meaning = (code: HmdaCode) =>
  code.title
    .replace(/ records$/i, '')
    .replace(/^Records (with|whose|for) /, '')
    .trim();

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
  if (!words.some((word) => word.root === 'code' || word.normal === 'codes')) return [];
  // "what's" is read as "what" and an unwritten "is".
  const asksMeaning = MEANING.some((phrase) => findPhrase(words, phrase).length > 0) || /\bwhat['’]?s\b/i.test(question);
  if (!asksMeaning || findPhrase(words, 'how many').length > 0) return [];
  const { hmdaCodes } = catalogue();
  const labels = [...new Set(hmdaCodes.map((code) => code.label))].filter((label) => findPhrase(words, label).length > 0);
  return hmdaCodes.filter(
    (code) => labels.includes(code.label) && words.some((word) => word.normal === code.code.toLowerCase() || word.text === code.code),
  );
}

export function answerHmdaCode(question: string, deps: BuiltinDeps): AnswerDraft | undefined {
  const codes = hmdaCodeAsked(question);
  if (codes.length === 0) return undefined;
  const lines = codes.map((code) => `In the HMDA data, ${code.label} code **${code.code}** means **${meaning(code)}**.`);
  return {
    text: [...lines, `The codes are the FFIEC's loan/application register fields (${FFIEC_FILING_GUIDE}).`].join('\n\n'),
    sources: [FFIEC_FILING_GUIDE, `${deps.config.baseUrl}/api/v1/series?query=hmda`],
  };
}
