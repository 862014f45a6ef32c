// The measure slot: which series the question is about, as templates with `{place}` where the place
// goes. Until the one catalogue of measures is merged (api/catalogue, with every measure's words as
// data), the subject is read by the contracts' vocabulary in ./measures.ts and the words of each
// subject in data/ask/reader-words.json; the slot's shape is the catalogue's, so the planner does
// not change when the catalogue replaces this reading.
import type { MeasureSlot, Qualifiers } from './frame.ts';
import { lexicon } from './lexicon.ts';
import { hmdaMeasureOf, rateMentions, topicOf } from './measures.ts';
import { takePhrases, type Coverage } from './words.ts';

const RECORDS_BY_PROGRAM: Partial<Record<NonNullable<Qualifiers['program']>, string>> = {
  fha: 'fha_records',
  va: 'va_records',
  usda: 'usda_records',
  conventional: 'conventional_records',
};
const RECORDS_BY_PURPOSE: Record<string, string> = {
  refinance: 'refinance_records',
  'cash-out refinance': 'cash_out_refinance_records',
  purchase: 'purchase_records',
};

/** The subject the words name most: rates, rates on outstanding loans, limits, HMDA, the calendar. */
export function subjectOf(question: string, coverage: Coverage): string | undefined {
  const { measureWords } = lexicon();
  const named = Object.entries(measureWords).filter(([, phrases]) => takePhrases(coverage, phrases, 'measure'));
  const topic = topicOf(question);
  if (topic) return topic;
  return named.map(([subject]) => subject).find((subject) => subject === 'calendar' || subject === 'population');
}

function rateMeasures(question: string, qualifiers: Qualifiers): MeasureSlot[] {
  if (qualifiers.termYears !== undefined && ![15, 30].includes(qualifiers.termYears)) return [];
  return rateMentions(question).map((mention) => ({ template: mention.id, family: mention.id.split('/')[0] as string, title: mention.name, words: [] }));
}

function hmdaMeasures(question: string, qualifiers: Qualifiers): MeasureSlot[] {
  const base = hmdaMeasureOf(question);
  const narrowed = (qualifiers.program && RECORDS_BY_PROGRAM[qualifiers.program]) ?? (qualifiers.purpose && RECORDS_BY_PURPOSE[qualifiers.purpose]);
  const measure = narrowed ?? base.measure;
  return [{ template: `hmda/{place}/${measure}`, family: 'hmda', title: narrowed ? `${measure.replace(/_/g, ' ')}` : base.name, words: [] }];
}

function limitMeasures(question: string, qualifiers: Qualifiers, coverage: Coverage): MeasureSlot[] {
  const program = qualifiers.program === 'fha' ? 'fha' : 'conforming';
  const said = (word: string) => coverage.words.some((candidate) => candidate.normal === word || candidate.normal === `high-cost`);
  if (said('baseline')) return [{ template: 'loan-limits/conforming/baseline', family: 'loan-limits-national', title: 'the baseline conforming limit', words: ['baseline'] }];
  if (said('ceiling') || coverage.words.some((word) => word.normal === 'high-cost'))
    return [{ template: `loan-limits/${program}/ceiling`, family: 'loan-limits-national', title: `the ${program === 'fha' ? 'FHA' : 'conforming'} ceiling`, words: ['ceiling'] }];
  if (said('floor')) return [{ template: 'loan-limits/fha/floor', family: 'loan-limits-national', title: 'the FHA floor', words: ['floor'] }];
  return [{ template: `loan-limits/${program}/{place}`, family: `loan-limits-${program}`, title: `the ${program === 'fha' ? 'FHA' : 'conforming'} limit`, words: [] }];
}

export function readMeasures(question: string, coverage: Coverage, qualifiers: Qualifiers): { topic?: string; measures: MeasureSlot[] } {
  const topic = subjectOf(question, coverage);
  if (!topic) return { measures: [] };
  if (topic === 'rate') return { topic, measures: rateMeasures(question, qualifiers) };
  if (topic === 'hmda') return { topic, measures: hmdaMeasures(question, qualifiers) };
  if (topic === 'limit') return { topic, measures: limitMeasures(question, qualifiers, coverage) };
  if (topic === 'outstanding') return { topic, measures: [{ template: 'nmdb/{place}/ave_intrate', family: 'nmdb', title: 'the average rate on outstanding mortgages', words: [] }] };
  return { topic, measures: [] };
}
