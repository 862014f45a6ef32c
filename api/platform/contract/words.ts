// Matching names by their words, so "debt to income" finds "Debt-to-income ratio (DTI)" and
// "closing costs" finds "Closing cost": lower-case, accents, punctuation and small words dropped,
// simple plurals made singular; a candidate matches when it holds every word of the query.

const SMALL_WORDS = new Set(['a', 'an', 'the', 'of', 'to', 'for', 'and', 'in', 'on', 'my', 'is', 'what', 'whats']);

function singular(word: string): string {
  if (word.length > 4 && word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.length > 3 && word.endsWith('s') && !word.endsWith('ss')) return word.slice(0, -1);
  return word;
}

/** The words that count: "Loan-to-Value (LTV) ratios" → ["loan", "value", "ltv", "ratio"]. */
export function significantWords(text: string): string[] {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word !== '' && !SMALL_WORDS.has(word))
    .map(singular);
}

export interface WordCandidate<T> {
  /** Every name the value answers to (term, abbreviation, aliases). */
  names: readonly string[];
  value: T;
}

export interface WordMatch<T> {
  /** The single best candidate, when one is better than every other. */
  best: T | undefined;
  /** Every candidate that holds all the words, best first (for "did you mean"). */
  matches: T[];
}

/**
 * Candidates whose names hold every significant word of `query`, ranked by how few words they add.
 * `best` is set only when one candidate adds fewer words than every other: "rate" alone matches
 * many terms equally and names none of them.
 */
export function matchByWords<T>(query: string, candidates: readonly WordCandidate<T>[]): WordMatch<T> {
  const wanted = [...new Set(significantWords(query))];
  if (wanted.length === 0) return { best: undefined, matches: [] };
  const ranked: { value: T; extra: number }[] = [];
  for (const candidate of candidates) {
    let fewest: number | undefined;
    for (const name of candidate.names) {
      const words = new Set(significantWords(name));
      if (!wanted.every((word) => words.has(word))) continue;
      const extra = words.size - wanted.length;
      if (fewest === undefined || extra < fewest) fewest = extra;
    }
    if (fewest !== undefined) ranked.push({ value: candidate.value, extra: fewest });
  }
  ranked.sort((a, b) => a.extra - b.extra);
  const [first, second] = ranked;
  const best = first && (second === undefined || second.extra > first.extra) ? first.value : undefined;
  return { best, matches: ranked.map((entry) => entry.value) };
}
