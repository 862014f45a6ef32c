// Words to measures: which templates of the catalogue a text names, best first, and which of its
// words each one matched. Each template's phrases are matched as runs of words (any case, plurals
// and punctuation aside); a template's score is the weight of the words its phrases cover, each
// word weighted by how few templates use it, so "VA share" ranks `va_share` above the 140 HMDA
// templates that say "share" or the dozen that say "VA". A text that matches only some of its
// words still ranks what it matched; what no template uses is said back as unmatched.
import type { MeasureTemplate } from './measures.ts';

/** Words that carry no measure: a question's frame, not what it asks about. */
const STOP_WORDS = new Set(
  (
    'a an the of to for and in on at by from with my our their its is are was were be been being what whats which who whom ' +
    'how many much did does do done has have had there this that these those it as than then any all each every please show ' +
    'me tell give find get list want know about into between across since during latest current currently recent most ' +
    'top highest lowest biggest largest smallest number count total figure figures value data year years yearly annual ' +
    'week weekly month monthly quarter quarterly day daily today now ago back jan january feb february mar march apr april ' +
    'may jun june jul july aug august sep sept september oct october nov november dec december q1 q2 q3 q4 county counties ' +
    'state states parish borough nationwide nationally national nation us usa country where when so if was'
  ).split(/\s+/),
);

/** A word used by this many templates or fewer names something (a word of every HMDA measure does not). */
const SPECIFIC_WEIGHT = 1;
/** What a qualifier the text did not ask for costs a measure: less than any word is worth. */
const QUALIFIER_PENALTY = 0.05;

const isTime = (word: string) => /^(19|20)\d\d(q[1-4])?$/.test(word) || /^\d{4}-\d\d(-\d\d)?$/.test(word);

function singular(word: string): string {
  if (word.length > 4 && word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.length > 3 && word.endsWith('s') && !word.endsWith('ss') && !word.endsWith('us')) return word.slice(0, -1);
  return word;
}

/** "Cash-out refis, 6%" → ["cash", "out", "refi", "6"]. */
export function tokens(text: string): string[] {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/(\d),(\d{3})/g, '$1$2')
    .split(/[^a-z0-9.]+|\.(?!\d)/)
    .filter((word) => word !== '' && word !== '.')
    .map(singular);
}

export interface RankedTemplate {
  template: MeasureTemplate;
  score: number;
  /** The text's words its phrases matched, as written in the text. */
  matched: string[];
  /** Whether a phrase of two words or more matched whole. */
  whole?: boolean;
}

export interface Ranking {
  ranked: RankedTemplate[];
  /** Words of the text no template matched (small words and times aside). */
  unmatched: string[];
  /** Years, quarters and days the text names: the catalogue has no use for them, the caller may. */
  times: string[];
}

interface Indexed {
  template: MeasureTemplate;
  phrases: string[][];
}

/** The templates with their phrases as words, and how many templates use each word. */
export function indexTemplates(templates: readonly MeasureTemplate[]): { indexed: Indexed[]; weight: (word: string) => number } {
  const indexed = templates.map((template) => ({
    template,
    phrases: [...new Set(template.words)].map((words) => contentOf(tokens(words))).filter((phrase) => phrase.length > 0),
  }));
  const uses = new Map<string, number>();
  for (const { phrases } of indexed) for (const word of new Set(phrases.flat())) uses.set(word, (uses.get(word) ?? 0) + 1);
  const total = templates.length;
  return { indexed, weight: (word) => Math.log((total + 1) / ((uses.get(word) ?? 0) + 0.5)) };
}

/**
 * Positions of the text's words the phrase covers, as a run of consecutive words of the text, small
 * words aside ("withdrawn by the applicant" is "withdrawn by applicant").
 */
function runs(words: readonly string[], content: readonly number[], phrase: readonly string[]): number[] {
  const covered: number[] = [];
  for (let start = 0; start + phrase.length <= content.length; start += 1) {
    if (phrase.every((word, offset) => words[content[start + offset] as number] === word))
      for (let offset = 0; offset < phrase.length; offset += 1) covered.push(content[start + offset] as number);
  }
  return covered;
}

/** A phrase's words that carry meaning; a phrase of small words only is kept whole. */
function contentOf(phrase: readonly string[]): string[] {
  const content = phrase.filter((word) => !STOP_WORDS.has(word));
  return content.length > 0 ? content : [...phrase];
}

/**
 * The templates `text` names, best first (ties in the catalogue's order); `text` has had its places
 * removed. Only templates that match at least one word that is not a small word are ranked.
 */
export function rankTemplates(text: string, index: ReturnType<typeof indexTemplates>): Ranking {
  const all = tokens(text);
  const times = all.filter(isTime);
  const words = all.filter((word) => !isTime(word));
  const content = words.flatMap((word, position) => (STOP_WORDS.has(word) ? [] : [position]));
  const everyWord = words.map((_word, position) => position);
  const ranked: RankedTemplate[] = [];
  const everCovered = new Set<number>();
  index.indexed.forEach(({ template, phrases }) => {
    const covered = new Set<number>();
    for (const phrase of phrases)
      for (const position of runs(words, phrase.every((word) => STOP_WORDS.has(word)) ? everyWord : content, phrase)) covered.add(position);
    const meaningful = [...covered].filter((position) => !STOP_WORDS.has(words[position] as string));
    if (meaningful.length === 0) return;
    // A phrase of two words or more matched whole ("HMDA records") names the measure even when each word is common.
    const whole = phrases.some(
      (phrase) => phrase.length >= 2 && phrase.some((word) => !STOP_WORDS.has(word)) && runs(words, content, phrase).length > 0,
    );
    for (const position of covered) everCovered.add(position);
    const positions = [...covered].sort((a, b) => a - b);
    // Among measures that match alike, the most general first: the all-mortgages figure before a market's.
    const score =
      positions.reduce((sum, position) => sum + index.weight(words[position] as string), 0) -
      QUALIFIER_PENALTY * Object.keys(template.qualifiers).length;
    ranked.push({ template, score, matched: positions.map((position) => words[position] as string), whole });
  });
  ranked.sort((a, b) => b.score - a.score);
  // Words every HMDA measure shares ("mortgages", "HMDA") rank nothing on their own while a word
  // that names a measure matched; alone, they still say which family the text is about.
  const specific = ranked.filter(
    ({ matched, whole }) => whole === true || matched.some((word) => !STOP_WORDS.has(word) && index.weight(word) >= SPECIFIC_WEIGHT),
  );
  const unmatched = words.filter((word, position) => !everCovered.has(position) && !STOP_WORDS.has(word) && !/^\d+$/.test(word));
  return { ranked: specific.length > 0 ? specific : ranked, unmatched: [...new Set(unmatched)], times };
}
