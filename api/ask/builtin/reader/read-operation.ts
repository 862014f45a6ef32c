// The operation slot: what is to be done with the figures, from the phrases that name each
// operation (data/ask/reader-words.json) weighed with what the other slots read — an amount makes
// a payment, a set of places makes "highest" a rank and not an extreme over time, a threshold with
// "when" makes a crossing, two times with "rise" make a change.
import type { Frame, OperationKind, OperationSlot } from './frame.ts';
import { lexicon } from './lexicon.ts';
import { findPhrase, takePhrases, type Coverage } from './words.ts';

type Slots = Pick<Frame, 'numbers' | 'times' | 'timeRelation' | 'places' | 'placeSet' | 'measures' | 'topic'>;

/** Which operations' phrases are written, consuming them. */
function cuesIn(coverage: Coverage): Set<OperationKind> {
  const found = new Set<OperationKind>();
  // A word a time or a threshold already read ("last fall", "the week of", "at least half") names no operation.
  const timed = (indexes: readonly number[]) =>
    indexes.every((index) => coverage.slotOf(index) === 'times' || coverage.slotOf(index) === 'numbers.threshold');
  for (const [kind, phrases] of Object.entries(lexicon().operations) as [OperationKind, string[]][])
    for (const phrase of phrases) {
      const written = findPhrase(coverage.words, phrase).filter((indexes) => !timed(indexes));
      for (const indexes of written) coverage.take(indexes, `operation.${kind}`);
      if (written.length > 0) found.add(kind);
    }
  return found;
}

/** How many words after a superlative its step word may come ("the largest single one-week jump"). */
const MOVE_REACH = 3;

/** "The steepest one-week fall", "the sharpest weekly rise": a superlative, then a word for one step. */
function namesBiggestMove(coverage: Coverage): boolean {
  const { superlatives, words } = lexicon().moves;
  const steps = new Set(words.flatMap((phrase) => findPhrase(coverage.words, phrase).map((indexes) => indexes[0] as number)));
  for (const phrase of superlatives)
    for (const indexes of findPhrase(coverage.words, phrase)) {
      const last = indexes.at(-1) as number;
      const step = [...steps].find((index) => index > last && index <= last + MOVE_REACH);
      if (step === undefined) continue;
      coverage.take([...indexes, step], 'operation.biggest-move');
      return true;
    }
  return false;
}

function directionOf(coverage: Coverage): 'highest' | 'lowest' | undefined {
  const { directions } = lexicon();
  const at = (phrases: readonly string[]) =>
    Math.min(...phrases.flatMap((phrase) => findPhrase(coverage.words, phrase).map((indexes) => indexes[0] as number)), Infinity);
  const high = at(directions.highest);
  const low = at(directions.lowest);
  if (high === Infinity && low === Infinity) return undefined;
  return high <= low ? 'highest' : 'lowest';
}

function bothDirections(coverage: Coverage): boolean {
  const { directions } = lexicon();
  const written = (phrases: readonly string[]) => phrases.some((phrase) => findPhrase(coverage.words, phrase).length > 0);
  return written(directions.highest) && written(directions.lowest);
}

function whichOf(coverage: Coverage): 'first' | 'last' | undefined {
  const { first, last } = lexicon();
  if (takePhrases(coverage, first, 'operation.which')) return 'first';
  if (takePhrases(coverage, last, 'operation.which')) return 'last';
  return undefined;
}

/** The operation, by the order in which a cue settles it. */
function kindOf(cues: ReadonlySet<OperationKind>, slots: Slots, asksWhen: boolean, coverage: Coverage): OperationKind {
  const dated = slots.times.filter((time) => time.grain !== 'latest');
  const twoTimes = dated.length >= 2 || slots.timeRelation === 'since';
  const sized = slots.measures.some((measure) => measure.family.startsWith('loan-limits'));
  if (cues.has('payment') && (slots.numbers.amount !== undefined || slots.numbers.rate !== undefined || sized)) return 'payment';
  if (slots.numbers.amount !== undefined && slots.numbers.rate !== undefined) return 'payment';
  if (cues.has('calendar-arithmetic')) return 'calendar-arithmetic';
  if (cues.has('per-resident') || slots.numbers.per !== undefined) return 'per-resident';
  if (cues.has('streak')) return 'streak';
  if (cues.has('biggest-move')) return 'biggest-move';
  // "from its 2021 low to its 2023 high".
  const lowAndHigh =
    ['low', 'lowest'].some((word) => coverage.words.some((candidate) => candidate.normal === word)) &&
    ['high', 'highest', 'peak'].some((word) => coverage.words.some((candidate) => candidate.normal === word));
  if (lowAndHigh && dated.length >= 2) return 'extremes';
  // "By what percent did originations fall from 2021 to 2023": a change, in percent.
  if (cues.has('change') && twoTimes && !cues.has('extremes')) return 'change';
  // "Which county had more originations, Cook or Harris?": the places named, side by side, not a rank of them all.
  const named = slots.places.filter((place) => place.kind !== 'nation').length;
  if (cues.has('compare') && named >= 2 && slots.measures.length >= 1 && !cues.has('share') && !cues.has('per-resident')) return 'compare';
  // "Which state had the highest share …": a rank of the share.
  if (slots.placeSet && slots.places.length === 0 && !cues.has('count') && (cues.has('extremes') || slots.numbers.topN !== undefined))
    return 'rank';
  // "Which states had more than half …", "how many counties … above 30%": the places meeting a threshold.
  if (slots.placeSet && slots.places.length === 0 && typeof slots.numbers.threshold?.value === 'number' && !cues.has('extremes'))
    return 'count';
  if (cues.has('share') && slots.topic !== 'outstanding') return 'share';
  if (slots.numbers.threshold && (asksWhen || cues.has('crossing')) && !cues.has('count')) return 'crossing';
  if (cues.has('count') && (slots.numbers.threshold || slots.topic === 'calendar')) return 'count';
  if (slots.placeSet && (cues.has('rank') || cues.has('extremes') || slots.numbers.topN !== undefined)) return 'rank';
  if (cues.has('count') && slots.placeSet) return 'count';
  // "Is Honolulu's limit higher than San Francisco's": two places or measures set side by side.
  if (cues.has('compare') && !slots.placeSet && (slots.places.length >= 2 || slots.measures.length >= 2) && !cues.has('share'))
    return 'compare';
  // "from its 2024 high to its 2024 low": the extremes of one period, not a change between two.
  if (cues.has('extremes') && dated.length >= 1 && dated.every((time) => time.from === dated[0]?.from && time.to === dated[0]?.to))
    return 'extremes';
  if (cues.has('change') && twoTimes) return 'change';
  // "how far above the baseline is it": the figure against that series.
  if (cues.has('compare') && typeof slots.numbers.threshold?.value === 'string') return 'compare';
  if (cues.has('compare') && (slots.measures.length >= 2 || slots.places.length >= 2 || dated.length >= 2)) return 'compare';
  if (cues.has('extremes')) return 'extremes';
  if (cues.has('average')) return 'average';
  if (cues.has('change') && dated.length >= 1) return 'change';
  if (cues.has('list')) return 'list';
  return 'value';
}

/** Which way the steps go; both named ("up or down") or a word for either ("move", "swing"): either. */
function stepOf(coverage: Coverage): 'up' | 'down' | 'either' | undefined {
  const { steps } = lexicon();
  const down = takePhrases(coverage, steps.down, 'operation.step');
  const up = takePhrases(coverage, steps.up, 'operation.step');
  const either = takePhrases(coverage, steps.either, 'operation.step');
  if ((down && up) || (either && !down && !up)) return 'either';
  return down ? 'down' : up ? 'up' : undefined;
}

/**
 * "How much more a month at this year's highest rate than at its lowest": a loan's payment at each
 * extreme; "how many weeks apart were the high and low": the time between them. Both need a high or
 * low of a rate over time, not across places.
 */
function extremesThen(cues: ReadonlySet<OperationKind>, slots: Slots, coverage: Coverage): 'payment' | 'apart' | undefined {
  const said = (words: readonly string[]) => coverage.words.some((word) => words.includes(word.normal));
  const high = said(['high', 'highest', 'peak', 'max', 'maximum']);
  const low = said(['low', 'lowest', 'trough', 'min', 'minimum']);
  const extreme = high || low;
  const rate = slots.measures.some((measure) => ['pmms', 'optimal-blue', 'nmdb'].includes(measure.family));
  if (!extreme || !rate || slots.placeSet) return undefined;
  if (cues.has('calendar-arithmetic')) return 'apart';
  if (
    slots.numbers.amount !== undefined &&
    slots.numbers.rate === undefined &&
    (said(['more', 'less', 'difference', 'differ']) || (cues.has('payment') && high && low))
  )
    return 'payment';
  return undefined;
}

/** "Which states had more than half …": a set of places asked with "which" names them. */
const asksWhich = (coverage: Coverage, slots: Slots) =>
  slots.placeSet !== undefined && coverage.words.some((word) => word.normal === 'which' || word.normal === 'what');

export function readOperation(coverage: Coverage, slots: Slots): OperationSlot {
  const asksWhen = coverage.words.some(
    (word) => word.normal === 'when' || (word.normal === 'what' && coverage.words[word.index + 1]?.normal === 'year'),
  );
  const partFirst = lexicon().partBeforeWhole.some((phrase) => findPhrase(coverage.words, phrase).length > 0);
  // "and which ones", "name them": read before the operations' phrases ("list") take their words.
  const namesAsked = takePhrases(coverage, lexicon().namesAsked, 'operation.names') !== undefined;
  const cues = cuesIn(coverage);
  if (namesBiggestMove(coverage)) cues.add('biggest-move');
  const then = extremesThen(cues, slots, coverage);
  const kind = then ? 'extremes' : kindOf(cues, slots, asksWhen, coverage);
  const written = directionOf(coverage);
  // "Where is it highest and lowest among states": a rank each way, not the first word's only.
  const direction = kind === 'rank' && bothDirections(coverage) ? 'both' : written;
  const which = whichOf(coverage);
  const step = kind === 'biggest-move' || kind === 'streak' ? stepOf(coverage) : undefined;
  return {
    kind,
    ...(step ? { step } : {}),
    ...(direction ? { direction } : {}),
    ...(which ? { which } : {}),
    ...(then ? { then } : {}),
    ...(cues.has('average') && kind !== 'average' ? { averaged: true } : {}),
    ...(kind === 'count' && (namesAsked || asksWhich(coverage, slots)) ? { names: true } : {}),
    ...(kind === 'share' && partFirst ? { partFirst: true } : {}),
  };
}
