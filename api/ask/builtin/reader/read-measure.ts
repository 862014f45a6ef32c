// The measure slot: which measures of the one catalogue (data/catalogue/measures.yaml, read by
// api/catalogue) the question names. The catalogue's ranking matches the question's words (its
// places and times taken out) against every measure's phrases; the reader keeps the measures that
// agree with the qualifiers read (program, units, term, purpose) and exist for the kind of place
// asked, adds a second or third measure only for words the first did not match ("the FHA limit as
// a share of the conforming limit"), and consumes the words they matched. A new synonym or measure
// is a line of the catalogue's data, no code.
import { catalogue, type MeasureTemplate } from '../../../catalogue/measures.ts';
import { indexTemplates, rankTemplates, tokens, type RankedTemplate } from '../../../catalogue/ranking.ts';
import type { MeasureSlot, Qualifiers } from './frame.ts';
import type { Place } from '../../../geo/gazetteer.ts';
import { lexicon } from './lexicon.ts';
import { findPhrase, takePhrases, type Coverage, type Word } from './words.ts';

const MAX_MEASURES = 3;
const TOPICS: Record<MeasureTemplate['topic'], string> = {
  rates: 'rate',
  outstanding: 'outstanding',
  limits: 'limit',
  income: 'income',
  population: 'population',
  hmda: 'hmda',
};

/**
 * The measures a question's frame is read against: all but HUD's income figures, which
 * answer-income.ts answers (New England towns too, which have no county series). Their 25 templates
 * per county would also make "limit" a common word, no longer naming a loan limit ("the USDA loan
 * limit" would be read as USDA records).
 */
let framed: readonly MeasureTemplate[] | undefined;
const framedTemplates = () => (framed ??= catalogue().templates.filter((template) => template.topic !== 'income'));

let index: ReturnType<typeof indexTemplates> | undefined;
/** A word some measures use and few do ("limit", "threshold"), as opposed to one most share ("mortgages") or none does. */
const NAMING_WEIGHT = 2.5;
const naming = (token: string) => {
  const weight = catalogueIndex().weight(token);
  return weight >= NAMING_WEIGHT && weight < catalogueIndex().weight('\u0000');
};
const catalogueIndex = () => (index ??= indexTemplates(framedTemplates()));

/**
 * Whether an unheld measure's phrase is written inside a longer phrase a held measure is named by
 * ("the max loan amount" is the loan limit; "the loan amount" alone is held by no source).
 */
export function insideHeldPhrase(coverage: Coverage, phrase: string): boolean {
  // Most questions write none of the unheld phrases: the catalogue's words are looked through only for one written.
  if (findPhrase(coverage.words, phrase).length === 0) return false;
  const padded = ` ${phrase} `;
  return framedTemplates().some((template) =>
    template.words.some((word) => word !== phrase && ` ${word} `.includes(padded) && findPhrase(coverage.words, word).length > 0),
  );
}

/** Whether a measure stands for what the question's qualifiers ask (an FHA question is not the conforming limit's). */
function agrees(template: MeasureTemplate, qualifiers: Qualifiers, matched: readonly string[]): boolean {
  const own = template.qualifiers;
  const programs = (qualifiers.programsAll ?? (qualifiers.program ? [qualifiers.program] : [])).map((program) =>
    program === 'conventional' && template.topic === 'rates' ? 'conforming' : program,
  );
  // A measure whose own words name the program stands for it ("VA loan limit" is the conforming limit's).
  const named = programs.some((program) => matched.includes(program));
  if (programs.length > 0 && typeof own.program === 'string' && !programs.includes(own.program) && !named) return false;
  if (
    qualifiers.units !== undefined &&
    typeof own.units === 'number' &&
    (qualifiers.unitsAll ?? [qualifiers.units]).every((units) => units !== own.units)
  )
    return false;
  const terms = qualifiers.termsAll ?? (qualifiers.termYears === undefined ? [] : [qualifiers.termYears]);
  if (terms.length > 0 && typeof own.term === 'number' && !terms.includes(own.term)) return false;
  return true;
}

/** The kind of place the question asks about: a county, a state, or the nation. */
function placeKind(places: readonly Place[]): 'county' | 'state' | 'nation' {
  if (places.some((place) => place.kind === 'county')) return 'county';
  if (places.some((place) => place.kind === 'state')) return 'state';
  return 'nation';
}

/** The question's words a measure matched, as word indexes. */
function matchedWords(words: readonly Word[], matched: readonly string[]): number[] {
  const wanted = new Set(matched);
  return words.filter((word) => tokens(word.text).some((token) => wanted.has(token))).map((word) => word.index);
}

/**
 * Words every template of a family shares: what names the family ("outstanding", "existing
 * mortgages" for FHFA's rates on outstanding loans). A family whose axes reuse other families'
 * words ("VA", "jumbo" as market segments) is read only when one of them is written.
 */
let familyWords: Map<string, Set<string>> | undefined;
function wordsOfFamily(topic: string): Set<string> {
  if (!familyWords) {
    familyWords = new Map();
    for (const template of framedTemplates()) {
      const own = vocabulary(template);
      const shared = familyWords.get(template.topic);
      familyWords.set(template.topic, shared ? new Set([...shared].filter((word) => own.has(word))) : own);
    }
    // A word other families use too ("mortgages") does not name this one.
    for (const [topic, words] of familyWords)
      for (const template of framedTemplates()) if (template.topic !== topic) for (const word of vocabulary(template)) words.delete(word);
  }
  return familyWords.get(topic) ?? new Set();
}
/**
 * A share of one code's count names that count ("the FHA share"); "the share of all HMDA records"
 * names only the whole, so it is no code's share: a word of the part its whole lacks must be written.
 */
function partNamed(entry: RankedTemplate): boolean {
  const share = entry.template.share;
  if (!share) return true;
  const part = framedTemplates().find((template) => template.id === share.part);
  const whole = framedTemplates().find((template) => template.id === share.whole);
  if (!part || !whole) return true;
  const wholeWords = vocabulary(whole);
  return entry.matched.some((word) => vocabulary(part).has(word) && !wholeWords.has(word));
}

const FAMILIES_NAMED_BY_THEIR_WORDS = new Set(['outstanding']);
const familyNamed = (entry: RankedTemplate) =>
  !FAMILIES_NAMED_BY_THEIR_WORDS.has(entry.template.topic) || entry.matched.some((word) => wordsOfFamily(entry.template.topic).has(word));

/** Every word of a measure's own phrases. */
const vocabulary = (template: MeasureTemplate) => new Set(template.words.flatMap((phrase) => tokens(phrase)));

/**
 * Whether a measure matched a phrase of its own, written whole, that no measure chosen has and that
 * holds a word none matched: "loan-weighted" beside "dollar-weighted", though "loan" alone names nothing.
 */
function ownPhrase(
  entry: RankedTemplate,
  chosen: readonly RankedTemplate[],
  covered: ReadonlySet<string>,
  text: readonly string[],
): boolean {
  const joined = ` ${text.join(' ')} `;
  const phrasesOf = (template: MeasureTemplate) => new Set(template.words.map((phrase) => tokens(phrase).join(' ')));
  const taken = new Set(chosen.flatMap((before) => [...phrasesOf(before.template)]));
  return [...phrasesOf(entry.template)].some(
    (phrase) =>
      phrase.includes(' ') && !taken.has(phrase) && joined.includes(` ${phrase} `) && phrase.split(' ').some((word) => !covered.has(word)),
  );
}

/**
 * The best measure, then any that matched a word of its own: one the measures before neither
 * matched nor use ("conforming" beside "the FHA limit", "Freddie Mac" beside an Optimal Blue index).
 */
function choose(ranked: readonly RankedTemplate[], weight: (word: string) => number, text: readonly string[]): RankedTemplate[] {
  const chosen: RankedTemplate[] = [];
  const covered = new Set<string>();
  for (const entry of ranked) {
    const fresh = entry.matched.filter(
      (word) => !covered.has(word) && weight(word) >= 1 && chosen.every((before) => !vocabulary(before.template).has(word)),
    );
    if (chosen.length > 0 && fresh.length === 0 && !ownPhrase(entry, chosen, covered, text)) continue;
    // A later measure must name something of its own; one of another subject ("house" beside a
    // limit) must match about as strongly as the first.
    const first = chosen[0];
    const sameTopic = !first || first.template.topic === entry.template.topic;
    if (first && entry.score < first.score / (sameTopic ? 3 : 1.5)) continue;
    chosen.push(entry);
    for (const word of entry.matched) covered.add(word);
    if (chosen.length === MAX_MEASURES) break;
  }
  return chosen;
}

/** A calendar question: its words ("FOMC", "CPI release") not already read as a time ("the week of the December Fed meeting"). */
export function asksCalendar(coverage: Coverage): boolean {
  const phrases = lexicon().calendarWords;
  const named = phrases.some((phrase) =>
    findPhrase(coverage.words, phrase).some((indexes) => indexes.every((at) => !coverage.isTaken(at))),
  );
  if (named) takePhrases(coverage, phrases, 'measure.calendar');
  return named;
}

/**
 * Two programs, terms or unit counts named ("the jumbo index than the conforming index", "the
 * 15-year rate than the 30-year"): the best measure of the first's subject for each one not yet read.
 */
function withVariants(chosen: RankedTemplate[], ranked: readonly RankedTemplate[], qualifiers: Qualifiers): RankedTemplate[] {
  const first = chosen[0];
  if (!first) return chosen;
  const asked: [string, readonly (string | number)[] | undefined][] = [
    ['program', qualifiers.programsAll],
    ['term', qualifiers.termsAll],
    ['units', qualifiers.unitsAll],
    // The catalogue writes purposes with underscores ("cash_out_refinance"), the reader's words with spaces.
    ['purpose', qualifiers.purposesAll?.map((purpose) => purpose.replaceAll(' ', '_').replaceAll('-', '_'))],
  ];
  const result = [...chosen];
  for (const [key, values] of asked) {
    if (!values || values.length < 2 || first.template.qualifiers[key] === undefined) continue;
    for (const value of values) {
      if (result.some((entry) => entry.template.qualifiers[key] === value && entry.template.topic === first.template.topic)) continue;
      const other = ranked.find((entry) => entry.template.topic === first.template.topic && entry.template.qualifiers[key] === value);
      if (other && result.length < MAX_MEASURES) result.push(other);
    }
  }
  return result;
}

/**
 * A county's limit asked with no county named ("the lowest FHA limit anywhere in 2019"): the
 * national figure of that program — its ceiling for the most, the FHA floor or the conforming
 * baseline otherwise — which the answer names as such.
 */
function nationalLimit(entry: RankedTemplate, coverage: Coverage): RankedTemplate {
  const { id, topic } = entry.template;
  // A national figure is published for one unit only: a duplex's highest or lowest is found among the counties.
  if (
    topic !== 'limits' ||
    !id.includes('{county}') ||
    (typeof entry.template.qualifiers.units === 'number' && entry.template.qualifiers.units !== 1)
  )
    return entry;
  const program = id.includes('/fha/') ? 'fha' : 'conforming';
  const said = (words: readonly string[]) => coverage.words.some((word) => words.includes(word.normal));
  const level = said(['most', 'highest', 'maximum', 'max', 'largest', 'biggest', 'ceiling'])
    ? 'ceiling'
    : program === 'fha'
      ? 'floor'
      : 'baseline';
  const national = framedTemplates().find((template) => template.id === `loan-limits/${program}/${level}`);
  return national ? { ...entry, template: national } : entry;
}

export function readMeasures(
  coverage: Coverage,
  qualifiers: Qualifiers,
  places: readonly Place[],
  among?: 'states' | 'counties',
  seriesThreshold?: string,
): { topic?: string; measures: MeasureSlot[]; gaps?: string[] } {
  const words = coverage.words;
  // Places, times and thresholds ("above the baseline") are read by their own slots: the catalogue ranks what is left.
  // A threshold in numbers ("6% or more") may name a measure (a rate bucket); one that is a series ("above the baseline") does not.
  const slots = ['places', 'times', 'qualifiers.lender', 'operation', 'carrier', ...(seriesThreshold ? ['numbers.threshold'] : [])];
  const own = (index: number) => slots.some((slot) => (coverage.slotOf(index) ?? '').startsWith(slot));
  const text = words
    .filter((word) => !own(word.index))
    .map((word) => word.text)
    .join(' ');
  const { ranked } = rankTemplates(text, catalogueIndex());
  const kind = among === 'counties' ? 'county' : among === 'states' ? 'state' : placeKind(places);
  const agreeing = ranked.filter((entry) => agrees(entry.template, qualifiers, entry.matched) && familyNamed(entry) && partNamed(entry));
  // Residents are what per-resident figures divide by, not the measure asked, when another is named.
  const measured = agreeing.some((entry) => entry.template.topic !== 'population')
    ? agreeing.filter((entry) => entry.template.topic !== 'population')
    : agreeing;
  // Those that exist for the place asked first; the others (a county's rate) stay, for the refusal to
  // name. A measure whose words a better match all explains is not promoted over it ("one-unit" HMDA
  // records beside "the conforming limit for a one-unit home" in a state).
  const explained = (entry: RankedTemplate) =>
    measured.some((other) => other.score > entry.score && entry.matched.every((word) => other.matched.includes(word)));
  // "counties at the FHA ceiling": the measure the threshold is a level of (the FHA county limits) first.
  const family = seriesThreshold?.split('/').slice(0, 2).join('/');
  const ofThreshold = (entry: RankedTemplate) => Number(family !== undefined && entry.template.id.startsWith(`${family}/`));
  const fits = (entry: RankedTemplate) => 2 * ofThreshold(entry) + Number(entry.template.places.includes(kind) && !explained(entry));
  const forPlace = kind === 'nation' && !family ? measured : [...measured].sort((a, b) => fits(b) - fits(a));
  const mapped = withVariants(choose(forPlace, catalogueIndex().weight, tokens(text)), forPlace, qualifiers).map((entry) =>
    kind === 'nation' ? nationalLimit(entry, coverage) : entry,
  );
  // Two county measures may both stand for one national figure ("the highest FHA limit"): once.
  const chosen = mapped.filter((entry, index) => mapped.findIndex((other) => other.template.id === entry.template.id) === index);
  // "Which state has the most counties at the FHA floor?": no measure named but the level's own, county by county.
  const level = family ? framedTemplates().find((template) => template.id === `${family}/{county}`) : undefined;
  if (chosen.length === 0 && level) chosen.push({ template: level, score: 0, matched: [] });
  if (chosen.length === 0) return { measures: [] };
  const measures = chosen
    .map((entry) => ({ entry, at: Math.min(...matchedWords(words, entry.matched)) }))
    .sort((a, b) => a.at - b.at)
    .map(({ entry }) => {
      const indexes = matchedWords(words, entry.matched).filter((at) => !coverage.isTaken(at));
      coverage.take(indexes, 'measure');
      return {
        template: entry.template.id,
        family: entry.template.id.split('/')[0] as string,
        title: entry.template.title,
        kind: entry.template.kind,
        qualifiers: entry.template.qualifiers,
        ...(entry.template.share ? { share: entry.template.share } : {}),
        words: entry.matched,
      } satisfies MeasureSlot;
    });
  // Words that name a measure of another subject than those chosen ("limit" beside the USDA records): the question asks something else.
  const topicsChosen = new Set(chosen.map((entry) => entry.template.topic));
  const ofChosenTopics = (token: string) =>
    framedTemplates().some((template) => topicsChosen.has(template.topic) && vocabulary(template).has(token));
  const gaps = words
    .filter((word) => !coverage.isTaken(word.index) && tokens(word.text).some((token) => naming(token) && !ofChosenTopics(token)))
    .map((word) => word.text);
  return { topic: TOPICS[chosen[0]?.template.topic ?? 'rates'], measures, gaps };
}
