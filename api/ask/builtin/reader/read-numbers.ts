// The numbers slot: amounts ("$400,000", "550k"), rates ("6.5%", "at 7 percent"), terms ("for 30
// years", "15-year"), how many places ("top 3", "five states"), thresholds ("above 7%", "more than
// $500,000", "above the baseline") and "per 1,000". compromise reads the numbers (words, digits,
// money, percents, "k" and "million"); a figure written as a number JavaScript can read ("1e308")
// is read too, so that an absurd one is reported rather than dropped.
import type { NumberSlot, Threshold } from './frame.ts';
import { lexicon } from './lexicon.ts';
import { isYearText } from './read-times.ts';
import { nlp, findPhrase, type Coverage, type Word } from './words.ts';

interface NumberJson {
  text: string;
  number: { num: number; prefix: string; suffix: string; unit: string };
  offset: { start: number; length: number };
}

export interface ReadNumber {
  value: number;
  money: boolean;
  percent: boolean;
  words: number[];
}

/** A bare number this large, read by no other rule, is an amount of money. */
const MIN_BARE_AMOUNT = 1_000;
/** Words around a bare number that make it a sum of money ("on 400000 at 6%", "borrow 250000"). */
const AMOUNT_BEFORE = ['on', 'for', 'of', 'borrow', 'borrowing', 'borrowed', 'loan', 'mortgage', 'financing', 'finance'];
const AMOUNT_AFTER = ['at', 'loan', 'mortgage', 'dollars', 'usd', 'over', 'for'];
const SCALE: Record<string, number> = { k: 1_000, thousand: 1_000, m: 1_000_000, mm: 1_000_000, million: 1_000_000, billion: 1e9 };

/** Every number written in the question, with the words it spans. */
export function numbersIn(question: string, words: readonly Word[]): ReadNumber[] {
  const found: ReadNumber[] = [];
  const spanOf = (start: number, end: number) => words.filter((word) => word.start >= start && word.end <= end).map((word) => word.index);
  const json = nlp(question).numbers().json({ offset: true }) as NumberJson[];
  for (const entry of json) {
    // compromise gives "one of" a number of null: no number is written there.
    if (typeof entry.number.num !== 'number' || !Number.isFinite(entry.number.num)) continue;
    const start = entry.offset.start;
    const indexes = spanOf(start, start + entry.offset.length);
    const last = words[indexes.at(-1) ?? -1];
    const next = last ? words[last.index + 1] : undefined;
    // "550k" (a unit), "$350k" (a suffix), "$2 million" (the next word).
    const suffix = SCALE[entry.number.suffix.toLowerCase()] ? entry.number.suffix : '';
    const unit = (entry.number.unit || suffix || (next && SCALE[next.normal] ? next.normal : '')).toLowerCase();
    if (next && SCALE[next.normal] && !entry.number.unit) indexes.push(next.index);
    const percent = entry.number.suffix === '%' || unit === 'percent' || next?.normal === 'percent' || next?.normal === '%';
    if (next?.normal === 'percent') indexes.push(next.index);
    found.push({
      value: entry.number.num * (SCALE[unit] ?? 1),
      money: entry.number.prefix === '$' || entry.text.trim().startsWith('$') || (SCALE[unit] !== undefined && !percent),
      percent,
      words: indexes,
    });
  }
  // What compromise leaves as a noun but JavaScript reads as a number ("1e308", "$1e308").
  for (const word of words) {
    if (found.some((number) => number.words.includes(word.index))) continue;
    const bare = word.text.startsWith('$') ? word.text.slice(1) : word.text;
    const value = Number(bare);
    if (bare !== '' && Number.isFinite(value)) found.push({ value, money: word.text.startsWith('$'), percent: false, words: [word.index] });
  }
  return found.sort((a, b) => (a.words[0] ?? 0) - (b.words[0] ?? 0));
}

const isYear = (number: ReadNumber, words: readonly Word[]) =>
  !number.money &&
  !number.percent &&
  Number.isInteger(number.value) &&
  number.value >= 1900 &&
  number.value <= 2100 &&
  isYearText(words[number.words[0] ?? -1]?.normal ?? '');

/** The threshold direction written just before word `index` ("above", "more than", "under"). */
function thresholdBefore(coverage: Coverage, index: number): { op: 'above' | 'below'; words: number[] } | undefined {
  const { thresholds } = lexicon();
  for (const op of ['above', 'below'] as const)
    for (const phrase of thresholds[op])
      for (const indexes of findPhrase(coverage.words, phrase)) {
        const end = indexes.at(-1) ?? -1;
        // "above 7%", "above the 7% mark", "more than $500,000".
        if (end < index && index - end <= 2) return { op, words: indexes };
      }
  return undefined;
}

/** "6% or more", "$500,000 and up": the direction written just after. */
function thresholdAfter(coverage: Coverage, index: number): { op: 'above' | 'below'; words: number[] } | undefined {
  const after: Record<string, 'above' | 'below'> = {
    'or more': 'above',
    'or higher': 'above',
    'and up': 'above',
    'or above': 'above',
    'or less': 'below',
    'or lower': 'below',
    'or below': 'below',
  };
  for (const [phrase, op] of Object.entries(after))
    for (const indexes of findPhrase(coverage.words, phrase)) if (indexes[0] === index + 1) return { op, words: indexes };
  return undefined;
}

/** Words after which "one" stands for a thing named before ("its first one", "the next one"), not a count. */
const BEFORE_PRONOUN_ONE = ['first', 'last', 'next', 'previous', 'latest', 'final', 'the', 'this', 'that', 'which', 'each', 'every'];

/** Whether a number can be how many places: a word never reads as none ("top 0" is refused only when written). */
const countable = (number: ReadNumber, words: readonly Word[]) => number.value >= 1 || /\d/.test(words[number.words[0] ?? -1]?.text ?? '');

/** Reads one number into the slot by the words around it (the first rule that fits). */
function readOne(number: ReadNumber, coverage: Coverage, slot: NumberSlot): void {
  const words = coverage.words;
  const first = number.words[0] ?? 0;
  const lastIndex = number.words.at(-1) ?? first;
  const before = words[first - 1];
  const after = words[lastIndex + 1];
  if (['one', 'ones'].includes(words[first]?.normal ?? '') && BEFORE_PRONOUN_ONE.includes(before?.normal ?? '')) return;
  if (before && (before.normal === 'per' || (before.normal === 'every' && words[first - 2]?.normal === 'for'))) {
    slot.per = number.value;
    return coverage.take([before.index, ...number.words], 'numbers.per');
  }
  // "top 5", never "top 7%" (a threshold) or "top $500,000".
  if (before && ['top', 'first', 'bottom'].includes(before.normal) && !number.percent && !number.money && countable(number, words)) {
    slot.topN = number.value;
    return coverage.take([before.index, ...number.words], 'numbers.top');
  }
  if (after && (after.root === 'unit' || after.normal === 'person' || after.root === 'people')) return; // units, household size: qualifiers
  if (after && (after.root === 'year' || after.normal === 'yr') && !words[lastIndex + 2]?.tags.has('DateShift')) {
    // "30-year", "for 30 years" (not "two years ago", a time).
    if (words[lastIndex + 2]?.normal !== 'ago') addTerm(slot, number.value, coverage, [...number.words, after.index]);
    return;
  }
  const threshold = thresholdBefore(coverage, first) ?? thresholdAfter(coverage, lastIndex);
  if (threshold) {
    const span = [...threshold.words, ...number.words];
    const text = words
      .slice(Math.min(...span), Math.max(...span) + 1)
      .map((word) => word.text)
      .join(' ');
    slot.threshold ??= { op: threshold.op, value: number.value, text, ...(number.percent ? { percent: true } : {}) };
    return coverage.take(span, 'numbers.threshold');
  }
  if (after && ['state', 'county', 'lender', 'institution'].includes(after.root) && !number.money && countable(number, words)) {
    slot.topN = number.value;
    return coverage.take(number.words, 'numbers.top');
  }
  if (number.percent) {
    slot.rate ??= number.value;
    return coverage.take(number.words, 'numbers.rate');
  }
  // "$400,000", or "payment for 400000 at 6%": a bare number of a thousand or more, written as a sum is (not "ZIP 10001").
  const asSum =
    number.value >= MIN_BARE_AMOUNT && (AMOUNT_BEFORE.includes(before?.normal ?? '') || AMOUNT_AFTER.includes(after?.normal ?? ''));
  if (number.money || asSum) {
    slot.amount ??= number.value;
    coverage.take(number.words, 'numbers.amount');
  }
}

function addTerm(slot: NumberSlot, years: number, coverage: Coverage, indexes: number[]): void {
  slot.termYears ??= years;
  slot.termsAll = [...new Set([...(slot.termsAll ?? []), years])];
  coverage.take(indexes, 'numbers.term');
}

/** "After Maricopa, which county …", "the second-largest": the place after the first. */
function readOrdinal(coverage: Coverage, slot: NumberSlot): void {
  const words = coverage.words;
  // A word a time read ("two weeks after Christmas") names no place after another.
  const after = words.find(
    (word) =>
      !coverage.isTaken(word.index) &&
      ['after', 'besides', 'second', 'second-largest', 'second-highest', 'runner-up'].includes(word.normal),
  );
  if (!after) return;
  slot.ordinal = 2;
  coverage.take([after.index], 'numbers.ordinal');
  const named = words[after.index + 1];
  if (after.normal === 'after' && named?.tags.has('ProperNoun')) coverage.take([named.index], 'numbers.ordinal');
}

export function readNumbers(question: string, coverage: Coverage): { slot: NumberSlot; numbers: ReadNumber[] } {
  const words = coverage.words;
  const slot: NumberSlot = {};
  const numbers = numbersIn(question, words).filter((number) => !isYear(number, words));
  for (const number of numbers) readOne(number, coverage, slot);
  // "30-year" left whole by the tokenizer (at the end of a question): a term.
  for (const word of words) {
    const [count, unit] = word.normal.split('-');
    if (unit === 'year' && count && Number.isInteger(Number(count)) && !coverage.isTaken(word.index))
      addTerm(slot, Number(count), coverage, [word.index]);
  }
  readOrdinal(coverage, slot);
  return { slot, numbers };
}

/** "above the baseline", "at the FHA ceiling": a threshold that is a national limit series (data/ask/reader-words.json). */
export function seriesThreshold(coverage: Coverage): Threshold | undefined {
  const named = Object.entries(lexicon().seriesLevels).sort((a, b) => b[0].length - a[0].length);
  // "at the 2026 ceiling": the year the times read stands between the words of the level.
  const untimed = coverage.words.filter((word) => coverage.slotOf(word.index) !== 'times');
  for (const op of ['above', 'below', 'equal'] as const)
    for (const phrase of lexicon().thresholds[op])
      for (const [name, series] of named) {
        const text = phrase.endsWith(' the') ? `${phrase} ${name}` : `${phrase} the ${name}`;
        for (const positions of findPhrase(untimed, text)) {
          const indexes = positions.map((position) => (untimed[position] as Word).index);
          coverage.take(indexes, 'numbers.threshold');
          return { op, value: series, text };
        }
      }
  return undefined;
}
