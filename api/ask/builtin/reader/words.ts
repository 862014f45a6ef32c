// The question's words, as compromise reads them (text, normal form, root, part of speech, offset),
// and the coverage ledger: which slot consumed which word, so that every content word left over
// can be reported. Phrases are matched word by word on normal forms or roots, never by pattern.
import nlp from 'compromise';
import datesPlugin from 'compromise-dates';

nlp.plugin(datesPlugin);

export { nlp };

export interface Word {
  index: number;
  text: string;
  /** Lower case, punctuation and possessive removed ("fha's" → "fha"). */
  normal: string;
  /** Singular noun / infinitive verb ("loans" → "loan", "originated" → "originate"). */
  root: string;
  tags: ReadonlySet<string>;
  start: number;
  end: number;
  /** The punctuation written after it ("," "?" "-"). */
  post: string;
}

interface TermJson {
  text: string;
  normal: string;
  root?: string;
  post: string;
  tags: string[];
  offset: { start: number; length: number };
}

/** Parts of speech that carry no content of their own. */
const FUNCTION_TAGS = ['Determiner', 'Preposition', 'Conjunction', 'Pronoun', 'QuestionWord', 'Copula', 'Auxiliary', 'Modal', 'Negative'];

export function wordsOf(question: string): Word[] {
  const doc = nlp(question);
  doc.compute('root');
  const words: Word[] = [];
  for (const sentence of doc.json({ offset: true, terms: { offset: true } }) as { terms: TermJson[] }[]) {
    for (const term of sentence.terms) {
      if (term.text === '') continue; // a contraction's implied word ("what's" → "is")
      const normal = stripPossessive(term.normal);
      words.push({
        index: words.length,
        text: term.text,
        normal,
        root: stripPossessive(term.root ?? normal),
        tags: new Set(term.tags),
        start: term.offset.start,
        end: term.offset.start + term.offset.length,
        post: term.post.trim(),
      });
    }
  }
  return words;
}

function stripPossessive(word: string): string {
  return word.endsWith("'s") ? word.slice(0, -2) : word.endsWith("'") ? word.slice(0, -1) : word;
}

export const isFunctionWord = (word: Word) => FUNCTION_TAGS.some((tag) => word.tags.has(tag));

/** Splits a phrase from the vocabulary into the words compromise would read. */
const phraseCache = new Map<string, string[]>();
export function phraseWords(phrase: string): string[] {
  let cached = phraseCache.get(phrase);
  if (!cached) {
    cached = wordsOf(phrase).map((word) => word.normal);
    phraseCache.set(phrase, cached);
  }
  return cached;
}

const sameWord = (word: Word, wanted: string) => word.normal === wanted || word.root === wanted || word.text.toLowerCase() === wanted;

/** Every place `phrase` is written in `words` (as word indexes), comparing normal forms and roots. */
export function findPhrase(words: readonly Word[], phrase: string): number[][] {
  const wanted = phraseWords(phrase);
  if (wanted.length === 0) return [];
  const found: number[][] = [];
  for (let start = 0; start + wanted.length <= words.length; start += 1) {
    if (wanted.every((part, offset) => sameWord(words[start + offset] as Word, part)))
      found.push(wanted.map((_part, offset) => start + offset));
  }
  return found;
}

/** The ledger of which slot consumed which word. */
export class Coverage {
  private readonly takenBy = new Map<number, string>();
  readonly words: readonly Word[];
  constructor(words: readonly Word[]) {
    this.words = words;
  }

  take(indexes: Iterable<number>, slot: string): void {
    for (const index of indexes) if (!this.takenBy.has(index)) this.takenBy.set(index, slot);
  }

  /** Consumes the words inside a character span of the question. */
  takeSpan(start: number, end: number, slot: string): void {
    this.take(
      this.words.filter((word) => word.start >= start && word.end <= end && word.end > word.start).map((word) => word.index),
      slot,
    );
  }

  isTaken(index: number): boolean {
    return this.takenBy.has(index);
  }

  /** The slot that consumed a word, if any. */
  slotOf(index: number): string | undefined {
    return this.takenBy.get(index);
  }

  /** Content words no slot consumed. */
  unread(): Word[] {
    return this.words.filter((word) => !this.takenBy.has(word.index) && !isFunctionWord(word) && word.normal !== '');
  }

  /** Which slot consumed each word, for the printed frame. */
  ledger(): { word: string; slot: string }[] {
    return this.words.map((word) => ({ word: word.text, slot: this.takenBy.get(word.index) ?? (isFunctionWord(word) ? '-' : '?') }));
  }
}

/** Consumes and returns whether any of the phrases is written. */
export function takePhrases(coverage: Coverage, phrases: readonly string[], slot: string): string | undefined {
  let first: string | undefined;
  for (const phrase of phrases) {
    const found = findPhrase(coverage.words, phrase);
    for (const indexes of found) coverage.take(indexes, slot);
    if (found.length > 0) first ??= phrase;
  }
  return first;
}
