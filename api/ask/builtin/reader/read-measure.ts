// The measure slot: which series the question is about, as templates with `{place}` where the place
// goes. Until the one catalogue of measures is merged (api/catalogue, with every measure's words as
// data), the subject is read by the contracts' vocabulary in ./measures.ts and the words of each
// subject in data/ask/reader-words.json; the slot's shape is the catalogue's, so the planner does
// not change when the catalogue replaces this reading.
import type { MeasureSlot, NumberSlot, Qualifiers } from './frame.ts';
import { lexicon } from './lexicon.ts';
import { hmdaMeasureOf, rateMentions, topicOf } from './measures.ts';
import { findPhrase, takePhrases, type Coverage } from './words.ts';

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
  // Fed words a time already read ("the week of the December Fed meeting") do not make a calendar question.
  const calendarWords = (measureWords.calendar ?? []).some((phrase) => findPhrase(coverage.words, phrase).some((indexes) => indexes.every((index) => !coverage.isTaken(index))));
  const named = Object.entries(measureWords).filter(([, phrases]) => takePhrases(coverage, phrases, 'measure'));
  if (calendarWords && !coverage.words.some((word) => word.root === 'limit' || word.normal.startsWith('originat'))) return 'calendar';
  const topic = topicOf(question);
  if (topic) return topic;
  if (named.some(([subject]) => subject === 'limit') && !named.some(([subject]) => subject === 'rate' || subject === 'hmda')) return 'limit';
  const subjects = named.map(([subject]) => subject);
  return ['outstanding', 'limit', 'hmda', 'rate', 'population'].find((subject) => subjects.includes(subject));
}

function rateMeasures(question: string, qualifiers: Qualifiers, coverage: Coverage): MeasureSlot[] {
  if (qualifiers.termYears !== undefined && ![15, 30].includes(qualifiers.termYears)) return [];
  const mentions = rateMentions(question);
  // The benchmark and the survey named together ("Optimal Blue's index … Freddie Mac's rate"): both.
  const survey = ['freddie', 'pmms', 'survey'].some((word) => coverage.words.some((candidate) => candidate.normal === word));
  if (survey && mentions.every((mention) => mention.id.startsWith('optimal-blue'))) {
    const term = qualifiers.termYears === 15 ? '15-year' : '30-year';
    const freddieAt = coverage.words.find((word) => word.normal === 'freddie' || word.normal === 'pmms')?.start ?? Infinity;
    const survey = { id: `pmms/${term}`, at: freddieAt, name: `Freddie Mac's ${term} fixed rate` };
    mentions.push(survey);
    mentions.sort((a, b) => (a.at === 0 && b.at === 0 ? 0 : a.at - b.at));
  }
  return mentions.map((mention) => ({ template: mention.id, family: mention.id.split('/')[0] as string, title: mention.name, words: [] }));
}

function hmdaMeasures(question: string, qualifiers: Qualifiers, coverage: Coverage): MeasureSlot[] {
  const base = coverage.words.some((word) => word.root === 'record') ? { measure: 'records', name: 'HMDA records' } : hmdaMeasureOf(question);
  const narrowed = (qualifiers.program && RECORDS_BY_PROGRAM[qualifiers.program]) ?? (qualifiers.purpose && RECORDS_BY_PURPOSE[qualifiers.purpose]);
  // "the share of denied applications" is the denial rate, as the aggregates define it.
  const asShare = coverage.words.some((word) => ['share', 'percent', 'percentage', 'proportion'].includes(word.normal));
  const rated = asShare && (base.measure === 'denials' || base.measure === 'approvals') ? `${base.measure.slice(0, -1)}_rate` : base.measure;
  const measure = narrowed ?? rated;
  return [{ template: `hmda/{place}/${measure}`, family: 'hmda', title: narrowed ? `${measure.replace(/_/g, ' ')}` : base.name, words: [] }];
}

function limitMeasures(question: string, qualifiers: Qualifiers, coverage: Coverage): MeasureSlot[] {
  // VA follows the conforming limit and USDA sets none: the look-up composers say so, never another program's figure.
  if (qualifiers.program === 'usda' || qualifiers.program === 'va') return [];
  const program = qualifiers.program === 'fha' ? 'fha' : 'conforming';
  // "above the baseline" is a threshold, not the measure.
  const said = (word: string) => coverage.words.some((candidate) => candidate.normal === word && coverage.slotOf(candidate.index) !== 'numbers.threshold');
  if (said('baseline')) return [{ template: 'loan-limits/conforming/baseline', family: 'loan-limits-national', title: 'the baseline conforming limit', words: ['baseline'] }];
  // "the most a conforming loan could be anywhere": the ceiling, when no county is named.
  const highest = ['most', 'highest', 'largest', 'maximum', 'biggest'].some((word) => said(word)) && !coverage.words.some((word) => word.root === 'county' || coverage.slotOf(word.index) === 'places');
  if (said('ceiling') || highest || coverage.words.some((word) => word.normal === 'high-cost'))
    return [{ template: `loan-limits/${program}/ceiling`, family: 'loan-limits-national', title: `the ${program === 'fha' ? 'FHA' : 'conforming'} ceiling`, words: ['ceiling'] }];
  if (said('floor')) return [{ template: 'loan-limits/fha/floor', family: 'loan-limits-national', title: 'the FHA floor', words: ['floor'] }];
  // "how far below the conforming limit was the FHA limit": one measure per program, in the order written.
  const named = coverage.words.filter((word) => word.normal === 'conforming' || word.normal === 'fha').map((word) => (word.normal === 'fha' ? 'fha' : 'conforming'));
  const programs = [...new Set(named.length > 0 ? named : [program])];
  return programs.map((each) => ({ template: `loan-limits/${each}/{place}`, family: `loan-limits-${each}`, title: `the ${each === 'fha' ? 'FHA' : 'conforming'} limit`, words: [] }));
}

/** FHFA's outstanding-loan measures: the average, or the share in a rate bucket; by loans or by balance; a market segment. */
function outstandingMeasures(coverage: Coverage, numbers: NumberSlot): MeasureSlot[] {
  const said = (word: string) => coverage.words.some((candidate) => candidate.normal === word || candidate.normal.includes(word));
  const market = said('government') || said('fha') ? 'government/' : said('enterprise') || said('gse') ? 'enterprise/' : '';
  const bucket = bucketOf(numbers);
  const base = bucket ? `pct_intrate_${bucket}` : 'ave_intrate';
  const written = (phrase: string) => findPhrase(coverage.words, phrase).length > 0;
  const byBalance = written('dollar-weighted') || written('dollar weighted') || written('by balance');
  const byLoans = written('loan-weighted') || written('loan weighted') || written('by loans');
  const weights = byBalance ? (byLoans ? ['', '_dollar'] : ['_dollar']) : [''];
  return weights.map((weight) => ({
    template: `nmdb/{place}/${market}${base}${weight}`,
    family: 'nmdb',
    title: `${bucket ? 'the share of outstanding mortgages' : 'the average rate on outstanding mortgages'}${weight ? ', weighted by balance' : ''}`,
    words: [],
  }));
}

/** FHFA's rate buckets: below 3%, 3–4, 4–5, 5–6, 6% or more. */
function bucketOf(numbers: NumberSlot): string | undefined {
  const threshold = numbers.threshold;
  if (threshold && typeof threshold.value === 'number') {
    if (threshold.op === 'below' && threshold.value === 3) return 'lt_3';
    if (threshold.op === 'above' && threshold.value === 6) return 'ge_6';
  }
  const low = numbers.rate;
  if (low !== undefined && [3, 4, 5].includes(low)) return `${low}_${low + 1}`;
  return undefined;
}

export function readMeasures(question: string, coverage: Coverage, qualifiers: Qualifiers, numbers: NumberSlot): { topic?: string; measures: MeasureSlot[] } {
  const topic = subjectOf(question, coverage);
  if (!topic) return { measures: [] };
  if (topic === 'rate') return { topic, measures: rateMeasures(question, qualifiers, coverage) };
  if (topic === 'hmda') return { topic, measures: hmdaMeasures(question, qualifiers, coverage) };
  if (topic === 'limit') {
    // "at Freddie Mac's 30-year rate … a loan the size of King County's limit": the rate too.
    const rateNamed = coverage.words.some((word) => word.normal === 'freddie' || word.normal === 'pmms' || (word.root === 'rate' && coverage.words[word.index - 1]?.root === 'year'));
    return { topic, measures: [...limitMeasures(question, qualifiers, coverage), ...(rateNamed ? rateMeasures(question, qualifiers, coverage) : [])] };
  }
  if (topic === 'outstanding') {
    // "compare with today's 30-year rate": the survey too.
    const rateNamed = coverage.words.some((word) => word.root === 'rate' && coverage.words[word.index - 1]?.root === 'year');
    return { topic, measures: [...outstandingMeasures(coverage, numbers), ...(rateNamed ? rateMeasures(question, qualifiers, coverage) : [])] };
  }
  return { topic, measures: [] };
}
