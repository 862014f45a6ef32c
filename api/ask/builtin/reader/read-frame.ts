// Reads a question into its frame: each slot by its own reader, in an order that lets a later
// reader skip words an earlier one consumed (times before numbers, so "2024" is a year and not an
// amount; qualifiers before places, so "VA" the program is not Virginia; the lender last, from the
// names nothing else read). Then what the data cannot honour, and the words nothing consumed.
import type { Frame } from './frame.ts';
import { lexicon } from './lexicon.ts';
import { readTimes } from './read-times.ts';
import { readNumbers, seriesThreshold } from './read-numbers.ts';
import { readLender, readQualifiers } from './read-qualifiers.ts';
import { readPlaces, unknownPlaces } from './read-places.ts';
import { asksCalendar, insideHeldPhrase, readMeasures } from './read-measure.ts';
import { readOperation } from './read-operation.ts';
import { refusalsOf } from './honour.ts';
import { readFractionThreshold, sharesForThreshold } from './read-shares.ts';
import { readCodes } from './read-codes.ts';
import { readPremise } from './read-premise.ts';
import { countiesKnown, type PlaceContext } from '../../../geo/gazetteer.ts';
import { Coverage, takePhrases, wordsOf } from './words.ts';

export interface FrameContext extends PlaceContext {
  today: Date;
}

export async function readFrame(question: string, context: FrameContext): Promise<{ frame: Frame; coverage: Coverage }> {
  const coverage = new Coverage(wordsOf(question));
  // "At least a quarter of applications": a share, read before the times take "a quarter" as a calendar quarter.
  const fraction = readFractionThreshold(coverage);
  // "purpose 31 vs 32": codes of one HMDA field, each a count, read before the numbers take them.
  const codes = readCodes(coverage);
  // "The same week last year": read before the times take "last year" as a year of its own.
  const yearEarlier = takePhrases(coverage, lexicon().yearEarlier, 'times') !== undefined;
  const time = readTimes(question, coverage, context.today);
  const named = seriesThreshold(coverage);
  const { slot: numbers } = readNumbers(question, coverage);
  if (fraction) numbers.threshold = fraction;
  else if (named && !numbers.threshold) numbers.threshold = named;
  const qualifiers = readQualifiers(coverage);
  // "FHA limits at the ceiling": the level of the program named, where it has one.
  const level = numbers.threshold?.value;
  if (qualifiers.program === 'fha' && typeof level === 'string' && level.startsWith('loan-limits/conforming/')) {
    const fha = level.replace('/conforming/', '/fha/');
    if (Object.values(lexicon().seriesLevels).includes(fha) && numbers.threshold) numbers.threshold.value = fha;
  }
  if (numbers.termYears !== undefined) qualifiers.termYears = numbers.termYears;
  const unheld = lexicon().unheldMeasures.filter(
    (phrase) => !insideHeldPhrase(coverage, phrase) && takePhrases(coverage, [phrase], 'measure.unheld'),
  );
  if (codes?.unheld) unheld.push(codes.unheld);
  const { places, placeSet: setRead, readings } = await readPlaces(question, coverage, context);
  let placeSet = setRead;
  takePhrases(coverage, lexicon().changeInPercent, 'operation.change');
  if (numbers.termsAll && numbers.termsAll.length > 1) qualifiers.termsAll = numbers.termsAll;
  // "The 30-year rate in the survey released March 6": a rate with its term is the survey's figure, not the calendar's release.
  const calendar =
    asksCalendar(coverage) &&
    numbers.termYears === undefined &&
    !coverage.words.some((word) => word.root === 'limit' || word.normal.startsWith('originat'));
  takePhrases(coverage, lexicon().carrierPhrases, 'carrier');
  const lender = qualifiers.lender ?? readLender(coverage);
  if (lender) qualifiers.lender = lender;
  const read = calendar
    ? { measures: [] }
    : readMeasures(
        coverage,
        qualifiers,
        places,
        placeSet?.among,
        typeof numbers.threshold?.value === 'string' ? numbers.threshold.value : undefined,
      );
  const measures = codes && codes.measures.length > 0 ? codes.measures : sharesForThreshold(read.measures, numbers.threshold);
  // A rate asked for that no measure holds ("the 20-year fixed rate") is still a rate question: the refusal names it.
  const rateWord = coverage.words.some((word) => word.root === 'rate');
  // "When is the March 2027 Fed meeting?": a meeting named by month, with nothing measured, is the calendar's.
  const meetingOnly = !calendar && measures.length === 0 && !read.topic && !rateWord && time.times.some((slot) => slot.fedMeeting);
  const topic = calendar || meetingOnly ? 'calendar' : (read.topic ?? (rateWord && numbers.termYears !== undefined ? 'rate' : undefined));
  // A county measure asked with no county or state ("the highest FHA limit for a duplex anywhere"): across the counties.
  const countyOnly = measures[0]?.template.includes('{county}') && places.every((place) => place.kind === 'nation');
  if (!placeSet && countyOnly && measures[0]?.qualifiers.units !== 1) placeSet = { among: 'counties' };
  const operation = {
    ...readOperation(coverage, { numbers, times: time.times, timeRelation: time.relation, places, placeSet, measures, topic }),
    ...readPremise(coverage),
  };
  // Against the latest figure only: a year earlier than a period named is that period's own change.
  if (yearEarlier && time.times.every((slot) => slot.grain === 'latest')) Object.assign(operation, { kind: 'change', yearEarlier: true });
  // Before the counties are loaded, an unread name may be one: the answer then says the dataset is missing.
  const unknown = (await countiesKnown(context.deps)) ? unknownPlaces(coverage) : [];
  const carriers = lexicon().carrierSet;
  for (const word of coverage.unread()) if (carriers.has(word.normal) || carriers.has(word.root)) coverage.take([word.index], 'carrier');
  const frame: Frame = {
    question,
    operation,
    measures,
    ...(topic ? { topic } : {}),
    places,
    ...(placeSet ? { placeSet } : {}),
    times: time.times,
    timeRelation: time.relation,
    qualifiers,
    numbers,
    refusals: [],
    readings: [...readings, ...time.readings],
    unheld,
    ...(unknown.length > 0 ? { unknownPlaces: unknown } : {}),
    measureGaps: 'gaps' in read ? (read.gaps ?? []) : [],
    unread: coverage.unread().map((word) => word.text),
  };
  frame.refusals = [...time.refusals, ...refusalsOf(frame)];
  return { frame, coverage };
}
