// The qualifiers slot: what narrows a measure — units (1–4), program (conforming, FHA, VA, USDA,
// jumbo, conventional), purpose (refinance, purchase, cash-out, home improvement), and the ones no
// data here can honour (a lender, a census tract, a ZIP code, a metro area, a credit score), each
// read from the phrases in data/ask/reader-words.json. A lender is a name the question gives as
// the one that originated, reported or lent (a proper noun no other slot reads, next to such a verb
// or a word like "bank").
import type { Qualifiers } from './frame.ts';
import { lexicon } from './lexicon.ts';
import { findPhrase, type Coverage, type Word } from './words.ts';

const NUMBER_WORDS: Record<string, number> = { one: 1, two: 2, three: 3, four: 4, '1': 1, '2': 2, '3': 3, '4': 4 };
/** Publishers and datasets, named as sources, never lenders. */
const SOURCE_NAMES = [
  'hmda',
  'freddie',
  'mac',
  'optimal',
  'blue',
  'fhfa',
  'hud',
  'fed',
  'fomc',
  'bls',
  'nmdb',
  'ffiec',
  'cfpb',
  'census',
  'fannie',
  'mae',
  'ginnie',
  'data',
  'survey',
];
const LENDER_VERBS = ['originate', 'lend', 'make', 'issue', 'fund', 'close', 'write', 'approve', 'deny'];
/** Words after "VA" that make it the program, not Virginia. */
const VA_PROGRAM_NEXT = [
  'loan',
  'limit',
  'rate',
  'index',
  'mortgage',
  'home',
  'benefit',
  'backed',
  'share',
  'record',
  'funding',
  '30',
  '15',
];

/** Words before "VA" that make it the program: "what share of originations were VA". */
const VA_PROGRAM_BEFORE = ['were', 'are', 'was'];

function takeFirst(coverage: Coverage, phrases: readonly string[], slot: string): number[] | undefined {
  for (const phrase of phrases) {
    const [indexes] = findPhrase(coverage.words, phrase);
    if (indexes) {
      coverage.take(indexes, slot);
      return indexes;
    }
  }
  return undefined;
}

/** Every number of units named, in the order written: "duplex", "one-unit", "3-unit", "a three unit home". */
function readUnits(coverage: Coverage): number[] {
  const found: { at: number; units: number }[] = [];
  for (const [units, phrases] of Object.entries(lexicon().qualifiers.units))
    for (const phrase of phrases)
      for (const indexes of findPhrase(coverage.words, phrase)) {
        if (indexes.some((index) => coverage.isTaken(index))) continue;
        coverage.take(indexes, 'qualifiers.units');
        found.push({ at: indexes[0] as number, units: Number(units) });
      }
  for (const word of coverage.words) {
    const next = coverage.words[word.index + 1];
    const units = NUMBER_WORDS[word.normal];
    if (units && next?.root === 'unit' && !coverage.isTaken(word.index)) {
      coverage.take([word.index, next.index], 'qualifiers.units');
      found.push({ at: word.index, units });
    }
  }
  return found.sort((a, b) => a.at - b.at).map((entry) => entry.units);
}

const LISTING = ['and', 'or', 'vs', 'versus', '&', ','];
/** Another program written next to this word, joined by "and", "or", "vs" ("FHA and VA", "VA, FHA and USDA"). */
function besideProgram(coverage: Coverage, word: Word): boolean {
  const programs = Object.entries(lexicon().qualifiers.programs)
    .filter(([program]) => program !== 'va')
    .flatMap(([, phrases]) => phrases);
  const words = coverage.words;
  const next = words[word.index + 1];
  const joined = (joiner: Word | undefined, other: Word | undefined) =>
    joiner !== undefined &&
    other !== undefined &&
    (LISTING.includes(joiner.normal) || joiner.post === ',') &&
    programs.includes(other.normal);
  return (
    joined(next, words[word.index + 2]) ||
    (word.post === ',' && programs.includes(next?.normal ?? '')) ||
    joined(words[word.index - 1], words[word.index - 2])
  );
}

/** Every program named, in the order written. */
function readPrograms(coverage: Coverage): NonNullable<Qualifiers['program']>[] {
  const { programs } = lexicon().qualifiers;
  const found: { at: number; program: NonNullable<Qualifiers['program']> }[] = [];
  for (const [program, phrases] of Object.entries(programs) as [NonNullable<Qualifiers['program']>, string[]][]) {
    for (const phrase of phrases)
      for (const indexes of findPhrase(coverage.words, phrase)) {
        const word = coverage.words[indexes[0] as number] as Word;
        // "VA" alone is Virginia unless a loan word follows it or another program stands beside it ("VA and FHA rates").
        if (
          program === 'va' &&
          word.text === 'VA' &&
          !VA_PROGRAM_NEXT.includes(coverage.words[word.index + 1]?.root ?? '') &&
          !VA_PROGRAM_BEFORE.includes(coverage.words[word.index - 1]?.normal ?? '') &&
          !besideProgram(coverage, word)
        )
          continue;
        if (indexes.some((index) => coverage.isTaken(index))) continue;
        coverage.take(indexes, 'qualifiers.program');
        found.push({ at: indexes[0] as number, program });
      }
  }
  return [...new Set(found.sort((a, b) => a.at - b.at).map((entry) => entry.program))];
}

/** Every purpose named, in the order written ("refinances, counting cash-out refis too"). */
function readPurposes(coverage: Coverage): string[] {
  const found: { at: number; purpose: string }[] = [];
  // Longest phrases first, so "cash-out refinance" is not also read as "refinance".
  const entries = Object.entries(lexicon().qualifiers.purposes).flatMap(([purpose, phrases]) =>
    phrases.map((phrase) => ({ purpose, phrase })),
  );
  for (const { purpose, phrase } of entries.sort((a, b) => b.phrase.length - a.phrase.length))
    for (const indexes of findPhrase(coverage.words, phrase)) {
      if (indexes.some((index) => coverage.isTaken(index))) continue;
      coverage.take(indexes, 'qualifiers.purpose');
      found.push({ at: indexes[0] as number, purpose });
    }
  return [...new Set(found.sort((a, b) => a.at - b.at).map((entry) => entry.purpose))];
}

/** A qualifier whose value follows its cue ("census tract 4112.00", "ZIP code 30305"). */
/** The most words a name before a cue may run to ("Minneapolis-St. Paul-Bloomington, Minnesota"). */
const MAX_NAME_WORDS = 6;

function cueWithValue(coverage: Coverage, phrases: readonly string[], slot: string): string | undefined {
  const indexes = takeFirst(coverage, phrases, slot);
  if (!indexes) return undefined;
  const next = coverage.words[(indexes.at(-1) as number) + 1];
  if (next && (next.tags.has('Value') || Number.isFinite(Number(next.normal)))) {
    coverage.take([next.index], slot);
    return next.text;
  }
  // The run of names written right before the cue ("the Austin-Round Rock, Texas metro area"), whole.
  const name: Word[] = [];
  for (let at = (indexes[0] as number) - 1; at >= 0 && name.length < MAX_NAME_WORDS; at -= 1) {
    const word = coverage.words[at] as Word;
    if (!word.tags.has('ProperNoun') || coverage.isTaken(word.index)) break;
    name.unshift(word);
  }
  coverage.take(
    name.map((word) => word.index),
    slot,
  );
  const joined = name.map((word, at) => (at === name.length - 1 ? word.text : `${word.text}${word.post === '-' ? '-' : `${word.post} `}`));
  return name.length > 0 ? joined.join('') : coverage.words[indexes[0] as number]?.text;
}

function readCreditScore(coverage: Coverage): number | undefined {
  const indexes = takeFirst(coverage, lexicon().qualifiers.creditScore, 'qualifiers.credit');
  if (!indexes) return undefined;
  const near = coverage.words.filter(
    (word) => Math.abs(word.index - (indexes[0] as number)) <= 4 && word.normal.length === 3 && Number.isInteger(Number(word.normal)),
  );
  coverage.take(
    near.map((word) => word.index),
    'qualifiers.credit',
  );
  return near[0] ? Number(near[0].normal) : 0;
}

/** A run of proper nouns no other slot read, next to a lending verb or a word like "bank". */
export function readLender(coverage: Coverage): string | undefined {
  const words = coverage.words;
  const runs: Word[][] = [];
  for (const word of words) {
    const capitalised = word.text.charAt(0) !== word.text.charAt(0).toLowerCase();
    const open = capitalised && (word.tags.has('ProperNoun') || word.tags.has('Organization'));
    if (!open || coverage.isTaken(word.index) || word.index === 0 || SOURCE_NAMES.includes(word.normal)) continue;
    const run = runs.at(-1);
    if (run && (run.at(-1) as Word).index === word.index - 1) run.push(word);
    else runs.push([word]);
  }
  const cues = lexicon().qualifiers.lenderCues;
  for (const run of runs) {
    const first = run[0] as Word;
    const last = run.at(-1) as Word;
    const around = [...words.slice(Math.max(0, first.index - 3), first.index), ...words.slice(last.index + 1, last.index + 4)];
    const lending = around.some((word) => LENDER_VERBS.includes(word.root) || cues.includes(word.normal));
    // "loans made in Paris": a name after "in" is where, not who.
    if (!lending || words[first.index - 1]?.normal === 'in') continue;
    coverage.take(
      run.map((word) => word.index),
      'qualifiers.lender',
    );
    const cue = around.find((word) => cues.includes(word.normal));
    if (cue) coverage.take([cue.index], 'qualifiers.lender');
    return run.map((word) => word.text).join(' ');
  }
  return undefined;
}

/** A lender named as people often do ("Bank of America", "Rocket"), longest first, as written. */
function namedLender(coverage: Coverage): string | undefined {
  const names = [...lexicon().qualifiers.lenderNames].sort((a, b) => b.length - a.length);
  for (const name of names)
    for (const indexes of findPhrase(coverage.words, name)) {
      const words = indexes.map((index) => coverage.words[index] as Word);
      // Written as a name (capitalised), not the word ("chase the rate", "an ally").
      if (!/^[A-Z0-9]/.test(words[0]?.text ?? '') || indexes.some((index) => coverage.isTaken(index))) continue;
      coverage.take(indexes, 'qualifiers.lender');
      return words
        .map((word) => word.text)
        .join(' ')
        .replace(/['’]s$/, '');
    }
  return undefined;
}

/** Reads every qualifier but a lender not named in the data (read last, once places and measures have taken their names). */
export function readQualifiers(coverage: Coverage): Qualifiers {
  const { qualifiers } = lexicon();
  const read: Qualifiers = {};
  const lender = namedLender(coverage);
  if (lender) read.lender = lender;
  const units = readUnits(coverage);
  if (units[0] !== undefined) read.units = units[0];
  if (units.length > 1) read.unitsAll = units;
  const programs = readPrograms(coverage);
  if (programs[0]) read.program = programs[0];
  if (programs.length > 1) read.programsAll = programs;
  const purposes = readPurposes(coverage);
  if (purposes[0]) read.purpose = purposes[0];
  if (purposes.length > 1) read.purposesAll = purposes;
  const tract = cueWithValue(coverage, qualifiers.tract, 'qualifiers.tract');
  if (tract) read.tract = tract;
  const zip = cueWithValue(coverage, qualifiers.zip, 'qualifiers.zip');
  if (zip) read.zip = zip;
  const metro = cueWithValue(coverage, qualifiers.metro, 'qualifiers.metro');
  if (metro) read.metro = metro;
  const score = readCreditScore(coverage);
  if (score !== undefined) read.creditScore = score;
  return read;
}
