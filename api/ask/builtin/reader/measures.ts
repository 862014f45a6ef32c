// What a question measures, in the contracts' words: rates (the weekly survey by term, the daily
// benchmark by product), rates on outstanding mortgages (FHFA NMDB), loan limits (conforming, the
// jumbo threshold, FHA; the baseline, ceiling and floor), HMDA counts and rates, and population.

export type Topic = 'rate' | 'outstanding' | 'limit' | 'hmda';

export interface RateMention {
  id: string;
  at: number;
  /** How the answer names it. */
  name: string;
}

const HMDA = /\b(hmda|originat\w*|denial rates?|approval rates?|denied|denials|applications|home loans were|mortgages were)\b/i;
const LIMIT = /\b(loan limits?|conforming (?:loan )?limits?|limits?|jumbo threshold|jumbo limit|baseline|fha floor|fha ceiling|ceiling)\b/i;
const OUTSTANDING =
  /\b(outstanding|existing (?:mortgages?|loans?|home loans?)|(?:homeowners|borrowers) (?:are )?pay(?:ing)?|paying on their|locked[- ]in)\b/i;
const RATE = /\b(rates?|apr|pmms|benchmark)\b/i;

export function topicOf(question: string): Topic | undefined {
  if (OUTSTANDING.test(question)) return 'outstanding';
  if (LIMIT.test(question) && !/\brates?\b/i.test(question.replace(/\b(denial|approval) rates?\b/gi, ''))) return 'limit';
  if (HMDA.test(question)) return 'hmda';
  if (LIMIT.test(question)) return 'limit';
  if (RATE.test(question)) return 'rate';
  return undefined;
}

const PRODUCT_NAMES: Record<string, string> = {
  jumbo: 'jumbo',
  fha: 'FHA',
  va: 'VA',
  usda: 'USDA',
  conforming: 'conforming',
  conventional: 'conforming',
};

/** The rate series a question names, in order (several for a comparison); the 30-year survey when none. */
export function rateMentions(question: string): RateMention[] {
  const benchmark = /\b(optimal blue|benchmark|lock(?:ed)? rates?|daily index|indices|index)\b/i.test(question);
  const products = [...question.matchAll(/\b(jumbo|FHA|VA|USDA|conforming|conventional)\b/gi)].filter(
    (match) => match[1] !== 'va' || /VA/.test(match[1] ?? ''),
  );
  const exotic = products.some((match) => !/^(conforming|conventional)$/i.test(match[1] as string));
  const mentions: RateMention[] = [];
  if (benchmark || exotic) {
    for (const match of products) {
      const product = (match[1] as string).toLowerCase() === 'conventional' ? 'conforming' : (match[1] as string).toLowerCase();
      const id = `optimal-blue/${product}-30-year`;
      if (!mentions.some((mention) => mention.id === id))
        mentions.push({ id, at: match.index, name: `the Optimal Blue 30-year ${PRODUCT_NAMES[product]} rate index` });
    }
    if (mentions.length === 0)
      mentions.push({ id: 'optimal-blue/conforming-30-year', at: 0, name: 'the Optimal Blue 30-year conforming rate index' });
    return mentions;
  }
  for (const match of question.matchAll(/\b(30|15)[- ]?(?:year|yr)\b|\b(5\/1|adjustable|ARM)\b/gi)) {
    const id = match[2] ? 'pmms/5-1-arm' : `pmms/${match[1]}-year`;
    const name = match[2] ? "Freddie Mac's 5/1 adjustable rate" : `Freddie Mac's ${match[1]}-year fixed rate`;
    if (!mentions.some((mention) => mention.id === id)) mentions.push({ id, at: match.index, name });
  }
  if (mentions.length === 0) mentions.push({ id: 'pmms/30-year', at: 0, name: "Freddie Mac's 30-year fixed rate" });
  return mentions;
}

export interface HmdaMeasure {
  measure: string;
  name: string;
}

/** The HMDA measure a question asks about (originations when it names none). */
export function hmdaMeasureOf(question: string): HmdaMeasure {
  if (/\bdenial rates?\b|\bdenied\b.*\b(rate|share|percent)\b/i.test(question))
    return { measure: 'denial_rate', name: 'the mortgage denial rate' };
  if (/\bapproval rates?\b/i.test(question)) return { measure: 'approval_rate', name: 'the mortgage approval rate' };
  if (/\bdenials\b|\bdenied\b/i.test(question)) return { measure: 'denials', name: 'applications denied' };
  if (/\boriginat/i.test(question)) return { measure: 'originations', name: 'mortgages originated' };
  if (/\b(records|applications)\b/i.test(question))
    return { measure: 'records', name: 'HMDA records (applications, originations and purchased loans)' };
  return { measure: 'originations', name: 'mortgages originated' };
}

/** The loan type a share question is about (`fha_records`…), if any. */
export function loanTypeRecords(question: string): { measure: string; name: string } | undefined {
  if (/\bFHA\b/i.test(question)) return { measure: 'fha_records', name: 'FHA' };
  if (/\bVA\b|\bveterans?\b/.test(question)) return { measure: 'va_records', name: 'VA' };
  if (/\bUSDA\b/i.test(question)) return { measure: 'usda_records', name: 'USDA' };
  if (/\bconventional\b/i.test(question)) return { measure: 'conventional_records', name: 'conventional' };
  return undefined;
}

export const limitProgramOf = (question: string): 'conforming' | 'fha' => (/\bFHA\b/i.test(question) ? 'fha' : 'conforming');
