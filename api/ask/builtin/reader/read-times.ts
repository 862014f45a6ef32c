// The times slot: days and months (chrono-node), quarters, relative times ("last year", "two years
// ago", "this year") and years (compromise and its dates plugin), seasons ("this past summer"),
// the week of a day, "the latest", Fed meetings named by month, and how the times relate (each one,
// a range, or since one). The question is read in clauses cut at range words ("from", "to",
// "between", "and", "vs"), so that "from 2021 to Q3 2025" is two times, not one span guessed whole.
// Relative times are read against the service's clock.
import * as chrono from 'chrono-node';
import type { Refusal, TimeRelation, TimeSlot } from './frame.ts';
import { holidays, impossibleDays, type YearFound } from './read-days.ts';
import { lexicon } from './lexicon.ts';
import { findPhrase, nlp, type Coverage, type Word } from './words.ts';
import { addDays, isoDay, mondayOf } from '../../../platform/dates.ts';

const pad = (value: number) => String(value).padStart(2, '0');
const lastDayOf = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate();
const monthSpan = (year: number, month: number) => ({
  from: `${year}-${pad(month)}-01`,
  to: `${year}-${pad(month)}-${pad(lastDayOf(year, month))}`,
});
const MONTH_NAMES = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
];
const SEASONS: Record<string, number> = { spring: 3, summer: 6, fall: 9, autumn: 9, winter: 12 };
/** Words after "fall" that make it the verb ("did it last fall below 6%"), not the season. */
const FALL_AS_VERB = ['below', 'under', 'beneath', 'to', 'by', 'from', 'back', 'off', 'than', 'more', 'less', 'again', 'sharply', 'much'];
/** Words right before "fall" that make it the verb ("did the rate fall in Q2", "rates fall"). */
const FALL_AFTER_SUBJECT = [
  'rate',
  'rates',
  'it',
  'they',
  'index',
  'prices',
  'limit',
  'limits',
  'floor',
  'ceiling',
  'baseline',
  'originations',
  'denials',
  'applications',
  'to',
];
/** Auxiliaries a few words before "fall" that make it the verb ("how far did the 30-year rate fall"). */
const FALL_AFTER_AUXILIARY = ['did', 'does', 'do', 'will', 'would', 'could', 'can', 'might', 'should'];
const LATEST = [
  'latest',
  'current',
  'currently',
  'today',
  'now',
  'right now',
  'this week',
  'most recent',
  'these days',
  'nowadays',
  'last day',
  'latest quarter',
  'most recent quarter',
  'latest data',
];
const FED = ['fed', 'fomc', 'federal reserve'];

interface Found extends TimeSlot {
  start: number;
  end: number;
  /** "that quarter": the period named before, said again; read, and not a second time. */
  back?: boolean;
}

interface DateJson {
  text: string;
  offset: { start: number; length: number };
  dates: { start: string | null; end: string | null; unit?: string };
}

/** Clauses of the question, cut at range words, as character spans. */
function clauses(words: readonly Word[], question: string): { start: number; end: number }[] {
  const { ranges } = lexicon();
  const cuts = new Set([...ranges.from, ...ranges.to, ...ranges.since].filter((phrase) => !phrase.includes(' ')));
  const spans: { start: number; end: number }[] = [];
  let start = 0;
  for (const word of words) {
    if (!cuts.has(word.normal)) continue;
    spans.push({ start, end: word.start });
    start = word.end;
  }
  spans.push({ start, end: question.length });
  return spans.filter((span) => span.end > span.start);
}

function quarterOf(
  start: string,
  clauseWords: readonly Word[],
  previous: Found | undefined,
  at: { start: number; end: number },
): { year: number; quarter: number } {
  const month = Number(start.slice(5, 7));
  // "Q1 2024 compared with Q4 2023": the year written with the quarter, else the clause's first.
  const years = clauseWords.filter((word) => isYearText(word.normal));
  const own =
    years.find((word) => word.start >= at.start && word.end <= at.end) ??
    years.find((word) => word.start >= at.end && word.start <= at.end + 2);
  const written = own ?? years[0];
  // A previous time that is no calendar period ("latest") lends no year.
  const previousYear = previous && isYearText(previous.from.slice(0, 4)) ? Number(previous.from.slice(0, 4)) : undefined;
  const year = written ? Number(written.normal) : (previousYear ?? Number(start.slice(0, 4)));
  return { year, quarter: Math.floor((month - 1) / 3) + 1 };
}

/** The most recent season of that name that has ended by `today`, or the one of the year written. */
function seasonSpan(name: string, year: number | undefined, today: Date): { from: string; to: string } {
  const startMonth = SEASONS[name] as number;
  const span = (y: number) => {
    const end = new Date(Date.UTC(y, startMonth - 1 + 3, 0));
    return { from: `${y}-${pad(startMonth)}-01`, to: isoDay(end) };
  };
  if (year !== undefined) return span(year);
  let y = today.getUTCFullYear();
  while (span(y).to >= isoDay(today)) y -= 1;
  return span(y);
}

/** What compromise's dates plugin reads in one clause: quarters, seasons, relative years and days. */
function relativeTimes(
  question: string,
  clause: { start: number; end: number },
  words: readonly Word[],
  today: Date,
  previous: Found | undefined,
): Found[] {
  const text = question.slice(clause.start, clause.end);
  const clauseWords = words.filter((word) => word.start >= clause.start && word.end <= clause.end);
  const found: Found[] = [];
  const json = (nlp(text) as unknown as { dates(options: object): { json(options: object): DateJson[] } })
    .dates({ today: isoDay(today) })
    .json({ offset: true });
  for (const entry of json) {
    const start = clause.start + entry.offset.start;
    const end = start + entry.offset.length;
    const unit = entry.dates.unit;
    const inside = clauseWords.filter((word) => word.start >= start && word.end <= end);
    const seasonWord = inside.find(
      (word) =>
        SEASONS[word.normal] !== undefined &&
        (word.normal !== 'fall' ||
          (inside.some((other) => ['this', 'last', 'past', 'in'].includes(other.normal) || isYearText(other.normal)) &&
            !fallIsVerb(words, word.index))),
    );
    // "did rates fall in 2024": the verb is no season (but "fall in the fall of 2024" still holds one).
    if (!seasonWord && inside.some((word) => word.normal === 'fall' && fallIsVerb(words, word.index))) continue;
    if (
      inside.some((word) => ['latest', 'recent', 'current', 'last'].includes(word.normal)) &&
      !inside.some((word) => isYearText(word.normal)) &&
      (unit === 'quarter' || unit === 'day' || unit === 'month')
    ) {
      found.push({ grain: 'latest', from: 'latest', to: 'latest', text: entry.text, start, end });
      continue;
    }
    if (!seasonWord && SEASONS[inside[0]?.normal ?? ''] !== undefined) continue;
    // "(latest NMDB quarter)": the bare word names no quarter; the latest word beside it is read on its own.
    if (unit === 'quarter' && inside.length === 1 && inside[0]?.normal === 'quarter') continue;
    if (seasonWord) {
      const yearWord = clauseWords.find((word) => isYearText(word.normal) && word.start >= start && word.end <= end);
      const span = seasonSpan(seasonWord.normal, yearWord ? Number(yearWord.normal) : undefined, today);
      found.push({ grain: 'season', ...span, text: entry.text, start, end, readAs: `${entry.text.trim()} as ${span.from} to ${span.to}` });
    } else if (unit === 'quarter' && backTo(found.at(-1) ?? previous, clauseWords, start)) {
      // "Q2 2024 … the PMMS average that quarter": the quarter named before, not today's.
      const before = backTo(found.at(-1) ?? previous, clauseWords, start) as Found;
      const lead = clauseWords.filter((word) => word.end <= start).at(-1) as Word;
      found.push({ grain: 'quarter', from: before.from, to: before.to, text: entry.text, start: lead.start, end, back: true });
    } else if (unit === 'quarter' && entry.dates.start) {
      const { year, quarter } = quarterOf(entry.dates.start, clauseWords, previous, { start, end });
      found.push({ grain: 'quarter', ...quarterSpan(year, quarter), text: entry.text, start, end });
    } else if (entry.dates.start && entry.dates.end) {
      const inside = clauseWords.filter((word) => word.start >= start && word.end <= end).map((word) => word.normal);
      const relative = inside.some((word) => RELATIVE_WORDS.includes(word));
      const edge = inside.find((word) => word === 'end' || word === 'start' || word === 'beginning');
      const yearWord = inside.find((word) => isYearText(word));
      if (edge && yearWord) {
        const day = edge === 'end' ? `${yearWord}-12-31` : `${yearWord}-01-01`;
        found.push({ grain: 'day', from: day, to: day, text: entry.text, start, end, readAs: `"${entry.text.trim()}" as ${day}` });
      } else if (relative) found.push(relativeTime(entry, inside, start, end, today));
    }
  }
  return found;
}

/** "fall below 6%", "the steepest one-week fall": the verb or the noun of a move, not the season. */
function fallIsVerb(words: readonly Word[], index: number): boolean {
  if (FALL_AS_VERB.includes(words[index + 1]?.normal ?? '')) return true;
  const { superlatives, words: moveWords } = lexicon().moves;
  const before = words.slice(Math.max(0, index - 3), index).map((word) => word.normal);
  if (FALL_AFTER_SUBJECT.includes(before.at(-1) ?? '') || before.some((word) => FALL_AFTER_AUXILIARY.includes(word))) return true;
  return before.some((word) => superlatives.includes(word) || (moveWords.includes(word) && word.includes('week')));
}

const RELATIVE_WORDS = ['last', 'this', 'past', 'ago', 'previous', 'next', 'yesterday'];
/** Words that point back to the period named before ("that quarter", "the same quarter"). */
const BACK_WORDS = ['that', 'same'];
const backTo = (before: Found | undefined, words: readonly Word[], start: number) =>
  before?.grain === 'quarter' && BACK_WORDS.includes(words.filter((word) => word.end <= start).at(-1)?.normal ?? '') ? before : undefined;

export const isYearText = (text: string) =>
  text.length === 4 && Number.isInteger(Number(text)) && Number(text) >= 1900 && Number(text) <= 2100;

/** "last year", "two years ago" (a year, for annual figures), "last March", "two weeks ago". */
function relativeTime(entry: DateJson, inside: readonly string[], start: number, end: number, today: Date): Found {
  const unit = entry.dates.unit;
  const from = (entry.dates.start as string).slice(0, 10);
  // "a year ago", "12 months ago": the day that long before today (chrono counts it), not a calendar year.
  const ago = inside.includes('ago') ? chrono.parseDate(entry.text, today) : null;
  if (ago) {
    const day = isoDay(ago);
    const text = trimPunctuation(entry.text);
    return { grain: 'day', from: day, to: day, text, start, end, readAs: `"${text.trim()}" as ${day}` };
  }
  const byYear = unit === 'year' || inside.includes('year') || inside.includes('years');
  if (byYear) {
    const year = from.slice(0, 4);
    return {
      grain: 'year',
      from: `${year}-01-01`,
      to: `${year}-12-31`,
      text: entry.text,
      start,
      end,
      readAs: `"${entry.text.trim()}" as ${year}`,
    };
  }
  // "from last week", "yesterday": the latest figure and the one before, not a calendar day.
  if (inside.includes('week') || inside.includes('yesterday'))
    return { grain: 'latest', from: 'latest', to: 'latest', text: entry.text, start, end };
  const grain = unit === 'month' ? 'month' : 'day';
  const to = grain === 'day' ? from : (entry.dates.end as string).slice(0, 10);
  return { grain, from, to, text: entry.text, start, end, readAs: `"${entry.text.trim()}" as ${from === to ? from : `${from} to ${to}`}` };
}

export function quarterSpan(year: number, quarter: number): { from: string; to: string } {
  const first = (quarter - 1) * 3 + 1;
  return { from: `${year}-${pad(first)}-01`, to: `${year}-${pad(first + 2)}-${pad(lastDayOf(year, first + 2))}` };
}

/** Days and months: chrono-node. A month written without its year is the year another time names, else the latest past one. */
function calendarDates(
  question: string,
  words: readonly Word[],
  today: Date,
  years: readonly YearFound[],
): { found: Found[]; used: YearFound[] } {
  const found: Found[] = [];
  const used: YearFound[] = [];
  const writtenYear = words.find((word) => isYearText(word.normal))?.normal;
  for (const result of chrono.parse(question, today)) {
    const inside = words.filter((word) => word.start >= result.index && word.end <= result.index + result.text.length);
    const monthWords = inside.filter((word) => word.tags.has('Month') || MONTH_NAMES.includes(word.normal));
    const endWord = monthWords.at(-1);
    // "last year to March": the year belongs to the date before ("December last year"); the month is a date of its own.
    if (
      !result.start.isCertain('month') &&
      result.end?.isCertain('month') &&
      endWord &&
      years.some((year) => year.start === result.index)
    ) {
      const endMonth = result.end.get('month') as number;
      const endAt = result.index + result.text.length;
      const span = monthSpan(yearFor(endMonth, writtenYear, today), endMonth);
      found.push({ grain: 'month', ...span, text: question.slice(endWord.start, endAt), start: endWord.start, end: endAt });
      continue;
    }
    // "in the week", "in a month" are not dates; a date names its month or its numbers.
    if (!result.start.isCertain('month') || !monthWords[0]) continue;
    const start = years.some((year) => year.start === result.index) ? monthWords[0].start : result.index;
    const rangeEnd = result.end?.isCertain('month') && monthWords.length > 1 ? monthWords.at(-1) : undefined;
    let end = rangeEnd ? rangeEnd.start - 1 : result.index + result.text.length;
    const month = result.start.get('month') as number;
    // "December last year": the year said right after the month is its year, counted from today.
    const said = result.start.isCertain('year') ? undefined : yearSaidAfter(words, end, years);
    if (said) {
      used.push(said);
      end = Math.max(end, said.end);
    }
    const year = result.start.isCertain('year') ? (result.start.get('year') as number) : (said?.year ?? yearFor(month, writtenYear, today));
    const text = question.slice(start, end).trim();
    if (result.start.isCertain('day')) {
      const day = `${year}-${pad(month)}-${pad(result.start.get('day') as number)}`;
      found.push({ grain: 'day', from: day, to: day, text, start, end });
    } else found.push({ grain: 'month', ...monthSpan(year, month), text, start, end });
    // "from December 2025 to March": the range's end, in the year after when its month comes earlier.
    if (rangeEnd && result.end && !result.end.isCertain('day')) {
      const endMonth = result.end.get('month') as number;
      const endYear = result.end.isCertain('year') ? (result.end.get('year') as number) : endMonth < month ? year + 1 : year;
      const endAt = result.index + result.text.length;
      found.push({
        grain: 'month',
        ...monthSpan(endYear, endMonth),
        text: question.slice(rangeEnd.start, endAt),
        start: rangeEnd.start,
        end: endAt,
      });
    }
  }
  return { found, used };
}

/** A relative year within two words after a date ("December of last year"). */
function yearSaidAfter(words: readonly Word[], end: number, years: readonly YearFound[]): YearFound | undefined {
  const next = words.filter((word) => word.start >= end).slice(0, 3);
  const reach = next.at(-1)?.end ?? end;
  return years.find((year) => year.start >= end && year.start <= reach && next.slice(0, 2).some((word) => word.start === year.start));
}

function yearFor(month: number, writtenYear: string | undefined, today: Date): number {
  if (writtenYear) return Number(writtenYear);
  return month <= today.getUTCMonth() + 1 ? today.getUTCFullYear() : today.getUTCFullYear() - 1;
}

/** "last year", "the year before last": the year counted from today (data/ask/reader-words.json; compromise misses the possessive). */
function relativeYears(words: readonly Word[], today: Date): Found[] {
  const found: Found[] = [];
  const shifts = Object.entries(lexicon().relativeYears).sort((a, b) => b[0].length - a[0].length);
  for (const [phrase, shift] of shifts)
    for (const indexes of findPhrase(words, phrase)) {
      const year = today.getUTCFullYear() + shift;
      const start = (words[indexes[0] as number] as Word).start;
      const end = (words[indexes.at(-1) as number] as Word).end;
      if (overlaps(found, start, end)) continue;
      found.push({ grain: 'year', from: `${year}-01-01`, to: `${year}-12-31`, text: phrase, start, end, readAs: `"${phrase}" as ${year}` });
    }
  return found;
}

/** "the first half of 2024", "H2 2025": six months of the year written (else of the latest year begun). */
/** "the second quarter of 2024", "3rd quarter 2023": a quarter named in words, with its year written after it. */
function namedQuarters(words: readonly Word[]): Found[] {
  const found: Found[] = [];
  for (const [phrase, quarter] of Object.entries(lexicon().quarters))
    for (const indexes of findPhrase(words, phrase)) {
      const last = indexes.at(-1) as number;
      const yearWord = words.slice(last + 1, last + 4).find((word) => isYearText(word.normal));
      if (!yearWord) continue;
      const start = (words[indexes[0] as number] as Word).start;
      found.push({
        grain: 'quarter',
        ...quarterSpan(Number(yearWord.normal), quarter),
        text: `${phrase} of ${yearWord.normal}`,
        start,
        end: yearWord.end,
      });
    }
  return found;
}

function halves(words: readonly Word[], today: Date): Found[] {
  const found: Found[] = [];
  for (const [phrase, half] of Object.entries(lexicon().halves))
    for (const indexes of findPhrase(words, phrase)) {
      const last = indexes.at(-1) as number;
      const yearWord = words.slice(last + 1, last + 4).find((word) => isYearText(word.normal));
      const year = yearWord ? Number(yearWord.normal) : today.getUTCFullYear();
      const from = `${year}-${half === 1 ? '01' : '07'}-01`;
      const to = `${year}-${half === 1 ? '06-30' : '12-31'}`;
      const start = (words[indexes[0] as number] as Word).start;
      const end = (yearWord ?? (words[last] as Word)).end;
      found.push({
        grain: 'season',
        from,
        to,
        text: phrase,
        start,
        end,
        readAs: `"${phrase}${yearWord ? ` of ${year}` : ''}" as ${from} to ${to}`,
      });
    }
  return found;
}

/** "2025Q3", "2025-Q3": a quarter written as one word. */
function quarterWords(words: readonly Word[]): Found[] {
  const found: Found[] = [];
  for (const word of words) {
    const text = word.normal.replace('-', '');
    if (text.length !== 6 || text[4] !== 'q' || !isYearText(text.slice(0, 4))) continue;
    const quarter = Number(text[5]);
    if (quarter >= 1 && quarter <= 4)
      found.push({
        grain: 'quarter',
        ...quarterSpan(Number(text.slice(0, 4)), quarter),
        text: word.text,
        start: word.start,
        end: word.end,
      });
  }
  return found;
}

function overlaps(found: readonly Found[], start: number, end: number): boolean {
  return found.some((time) => start < time.end && end > time.start);
}

/** "the week of June 5, 2025": the Monday-to-Sunday week that holds the day. */
function asWeek(time: Found): Found {
  const monday = mondayOf(time.from);
  return {
    ...time,
    grain: 'week',
    from: monday,
    to: addDays(monday, 6),
    text: `the week of ${time.text}`,
  };
}

export function readTimes(
  question: string,
  coverage: Coverage,
  today: Date,
): { times: TimeSlot[]; relation: TimeRelation; readings: string[]; refusals: Refusal[] } {
  const words = coverage.words;
  // A day no calendar has is refused, and its words are no other time ("February 30, 2025" is not 2025).
  const impossible = impossibleDays(words);
  for (const day of impossible) coverage.takeSpan(day.start, day.end, 'times');
  const found: Found[] = [
    ...impossible.map((day) => ({ grain: 'latest' as const, from: '', to: '', text: '', ...day })),
    ...quarterWords(words),
    ...namedQuarters(words),
    ...halves(words, today),
  ];
  const years = relativeYears(words, today);
  const yearsSaid = years.map((time) => ({ year: Number(time.from.slice(0, 4)), start: time.start, end: time.end }));
  const dayFound = holidays(words, yearsSaid, today);
  const dates = calendarDates(question, words, today, yearsSaid);
  const yearsUsed = new Set([...dayFound.used, ...dates.used].map((year) => year.start));
  for (const time of [...dayFound.days, ...years.filter((year) => !yearsUsed.has(year.start))])
    if (!overlaps(found, time.start, time.end)) found.push(time);
  // "the latest quarter", "the last day of the data": the latest figure, not this calendar quarter.
  for (const phrase of [...LATEST].sort((a, b) => b.length - a.length))
    for (const indexes of findPhrase(words, phrase)) {
      const start = (words[indexes[0] as number] as Word).start;
      const end = (words[indexes.at(-1) as number] as Word).end;
      if (!overlaps(found, start, end)) found.push({ grain: 'latest', from: 'latest', to: 'latest', text: phrase, start, end });
    }
  for (const time of dates.found) if (!overlaps(found, time.start, time.end)) found.push(time);
  for (const clause of clauses(words, question))
    for (const time of relativeTimes(question, clause, words, today, found.at(-1)))
      if (!overlaps(found, time.start, time.end)) found.push(time);
  for (const word of words) {
    if (!isYearText(word.normal) || word.text.startsWith('$') || overlaps(found, word.start, word.end) || coverage.isTaken(word.index))
      continue;
    const year = Number(word.normal);
    found.push({ grain: 'year', from: `${year}-01-01`, to: `${year}-12-31`, text: word.text, start: word.start, end: word.end });
  }
  const placeholders = new Set(impossible.map((day) => day.start));
  // Words another slot read first ("at least a quarter of", a share) name no time.
  const taken = (time: Found) => words.some((word) => word.start >= time.start && word.end <= time.end && coverage.isTaken(word.index));
  const kept = found.filter((time) => !(time.text === '' && placeholders.has(time.start)) && !taken(time));
  kept.sort((a, b) => a.start - b.start);
  // "that quarter": the quarter named before, said again, is read (its words taken) but not a second time.
  for (const time of kept) if (time.back) coverage.takeSpan(time.start, time.end, 'times');
  const times = kept.filter((time) => !time.back).map((time) => withContext(time, words));
  for (const time of times) coverage.takeSpan(time.start, time.end, 'times');
  takeContextWords(coverage, times);
  return {
    times: times.map(({ start: _start, end: _end, back: _back, ...time }) => time),
    relation: relationOf(words, times),
    readings: times.flatMap((time) => (time.readAs ? [time.readAs] : [])),
    // "on February 29, 2023, and on March 1, 2023": the day that exists is still answered, after the refusal.
    refusals: impossible.map((day) => ({ ...day.refusal, blocking: times.length === 0 })),
  };
}

/** The words around a time that change it: "the week of", "the December 2024 Fed meeting". */
function withContext(time: Found, words: readonly Word[]): Found {
  const before = words
    .filter((word) => word.end <= time.start)
    .slice(-2)
    .map((word) => word.normal);
  const after = words
    .filter((word) => word.start >= time.end)
    .slice(0, 2)
    .map((word) => word.normal);
  let result = time;
  if (before.at(-1) === 'of' && before.at(-2) === 'week' && time.grain === 'day') result = asWeek(time);
  if (time.grain === 'month' && after.some((word) => FED.includes(word))) {
    const month = Number(time.from.slice(5, 7));
    const week = words
      .filter((word) => word.end <= time.start)
      .slice(-4)
      .some((word) => word.normal === 'week');
    result = { ...result, fedMeeting: { year: Number(time.from.slice(0, 4)), month, week } };
  }
  if (MONTH_NAMES.includes(time.text.toLowerCase()) && time.grain === 'month')
    result = { ...result, readAs: `${time.text} as ${time.from.slice(0, 7)}` };
  return result;
}

function takeContextWords(coverage: Coverage, times: readonly Found[]): void {
  for (const time of times) {
    const around = coverage.words.filter((word) => word.end <= time.start).slice(-2);
    for (const word of around) if (word.normal === 'week' || word.normal === 'of') coverage.take([word.index], 'times');
    if (time.fedMeeting)
      for (const word of coverage.words.filter((word) => word.start >= time.end).slice(0, 4))
        if ([...FED, 'meeting', 'decision', 'reserve', 'federal', 'rate'].includes(word.normal)) coverage.take([word.index], 'times');
  }
}

/** "a year ago?" as said in a label: without the sentence's closing mark. */
function trimPunctuation(text: string): string {
  let end = text.length;
  while (end > 0 && '?!.,;:'.includes(text[end - 1] as string)) end -= 1;
  return text.slice(0, end);
}

/** How many words before a time its "since" may stand ("since the first weekly survey of 2024"). */
const SINCE_REACH = 6;

function relationOf(words: readonly Word[], times: readonly Found[]): TimeRelation {
  const dated = times.filter((time) => time.grain !== 'latest');
  const first = dated[0];
  if (!first) return 'each';
  const { ranges } = lexicon();
  // "since the first survey of this year", "year to date": the since may stand a few words before, or be the time itself.
  const before = words
    .filter((word) => word.end <= first.start)
    .slice(-SINCE_REACH)
    .map((word) => word.normal);
  if (before.some((word) => ranges.since.includes(word))) return 'since';
  if (ranges.since.includes(first.text.trim().toLowerCase())) return 'since';
  // One period with no "from" before it: asked on its own, not as a start.
  if (dated.length < 2) return before.slice(-3).some((word) => ranges.from.includes(word)) ? 'each' : 'within';
  if (before.slice(-3).some((word) => word === 'from' || word === 'between')) return 'range';
  const second = dated[1] as Found;
  const between = words.filter((word) => word.start >= first.end && word.end <= second.start).map((word) => word.normal);
  return between.some((word) => ['to', 'through', 'until', 'till'].includes(word)) ? 'range' : 'each';
}
