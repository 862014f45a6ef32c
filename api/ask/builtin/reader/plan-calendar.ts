// Calendar questions from a frame: the releases or Fed decisions in each time the question names,
// narrowed to the release it names (data/ask/reader-words.json `calendarReleases`: CPI, PPI, the jobs
// report, JOLTS, the Employment Cost Index), counted when it asks how many, the days between two (and
// which comes first) when it asks that, and "this week" or "next week" as that calendar week.
import type { Frame, Refusal, TimeSlot } from './frame.ts';
import type { CalendarAsk } from './plan-types.ts';
import { findPhrase, type Word } from './words.ts';
import { lexicon } from './lexicon.ts';
import { pickedAsks } from './calendar-picks.ts';
import { addDays, isoDay, mondayOf } from '../../../platform/dates.ts';

type Release = Pick<CalendarAsk, 'names' | 'category' | 'title'>;

/** What an ask takes from the release named: the names its events hold, its category, its title. */
const releaseOf = (release: Release | undefined): Release => ({
  names: release?.names ?? [],
  ...(release?.category ? { category: release.category } : {}),
  ...(release?.title ? { title: release.title } : {}),
});

function releasesNamed(words: readonly Word[]): (Release & { at: number })[] {
  const found: (Release & { at: number })[] = [];
  for (const release of lexicon().calendarReleases)
    for (const phrase of release.phrases)
      for (const indexes of findPhrase(words, phrase)) {
        const at = indexes[0] as number;
        if (found.some((entry) => Math.abs(entry.at - at) <= 1)) continue;
        found.push({ ...releaseOf(release), at });
      }
  return found.sort((a, b) => a.at - b.at);
}

/** "this week", "next week": that Monday-to-Sunday week, counted from today's. */
function weekSpan(words: readonly Word[], today: Date): { from: string; to: string; label: string } | undefined {
  const weeks = Object.entries(lexicon().calendarWeeks).sort((a, b) => b[0].length - a[0].length);
  const said = weeks.find(([phrase]) => findPhrase(words, phrase).length > 0);
  if (!said) return undefined;
  const from = addDays(mondayOf(isoDay(today)), 7 * said[1]);
  return { from, to: addDays(from, 6), label: said[0] };
}

/** A year that only gives its months their year ("in 2026, the March CPI release …") is no time of its own. */
function innermost(times: readonly TimeSlot[]): TimeSlot[] {
  return times.filter(
    (time) =>
      time.grain === 'latest' ||
      !times.some(
        (other) =>
          other !== time &&
          other.grain !== 'latest' &&
          other.from >= time.from &&
          other.to <= time.to &&
          (other.from !== time.from || other.to !== time.to),
      ),
  );
}

function spanOf(time: TimeSlot | undefined, today: Date): { from: string; to: string; label: string } {
  if (!time || time.grain === 'latest') {
    const year = today.getUTCFullYear();
    return { from: `${year}-01-01`, to: `${year}-12-31`, label: String(year) };
  }
  return { from: time.from, to: time.to, label: time.text.trim() };
}

/** Words that ask for what is still to come ("the next CPI release", "meetings left in 2026"). */
const AHEAD = ['next', 'upcoming', 'left', 'remaining', 'coming', 'still'];

/** From today, when the question asks what is still to come: the next one only, or those left in the span. */
function ahead(span: { from: string; to: string; label: string }, words: readonly Word[], today: Date) {
  const said = words.find((word) => AHEAD.includes(word.normal));
  if (!said) return { ...span };
  const day = isoDay(today);
  const to = said.normal === 'next' || span.to < day ? addDays(day, 366) : span.to;
  return {
    from: day,
    to,
    label: said.normal === 'next' ? 'the next one' : `what is left of ${span.label}`,
    ...(said.normal === 'next' ? { first: true } : {}),
  };
}

/** "How many jobs reports came out between the June and September Fed meetings": the bounds, then the release counted between them. */
function betweenAsks(named: ReturnType<typeof releasesNamed>, frame: Frame, today: Date): CalendarAsk[] | undefined {
  const [counted, bound] = named;
  if (!counted || !bound || frame.times.length < 2) return undefined;
  const bounds = frame.times.slice(0, 2).map((time) => ({
    ...spanOf(time, today),
    names: bound.names,
    ...(bound.category ? { category: bound.category } : {}),
    count: false,
  }));
  const counting = {
    from: '',
    to: '',
    label: 'between them',
    names: counted.names,
    ...(counted.category ? { category: counted.category } : {}),
    count: true,
  };
  return [...bounds, counting];
}

/** "When did the Fed cut rates": the calendar holds the days of FOMC decisions, not what was decided. */
function decisionRefusals(named: ReturnType<typeof releasesNamed>, words: readonly Word[]): Refusal[] {
  if (!named.some((release) => release.category === 'fed')) return [];
  // "The Fed held eight meetings": a meeting held is no decision to hold.
  const meetingNear = (at: number) => words.slice(at + 1, at + 4).some((word) => word.normal.startsWith('meeting'));
  const said = lexicon().calendarDecisionWords.find((phrase) =>
    findPhrase(words, phrase).some((indexes) => !meetingNear(indexes.at(-1) as number)),
  );
  if (!said) return [];
  return [
    {
      part: `whether the Fed's decision was a ${said}`,
      why: "the calendar holds the days of the FOMC's decisions, not what was decided; the decisions in the time asked are listed",
      blocking: false,
    },
  ];
}

/** "Fed meetings and releases this week", "what else is on the calendar": every release, not only the one named. */
function othersToo(words: readonly Word[]): boolean {
  return words.some(
    (word, index) =>
      ['release', 'releases', 'events', 'reports'].includes(word.normal) &&
      ['and', 'or', 'other', 'else', 'economic'].includes(words[index - 1]?.normal ?? ''),
  );
}

/** Which of two events comes first ("which comes first, the March CPI release or the March Fed meeting"). */
function asksOrder(frame: Frame, words: readonly Word[], named: readonly unknown[]): boolean {
  if (frame.operation.kind === 'calendar-arithmetic') return true;
  const which = words.some((word) => word.normal === 'which');
  return named.length >= 2 && which && words.some((word) => ['first', 'earlier', 'sooner', 'before'].includes(word.normal));
}

export function calendarAsks(
  frame: Frame,
  words: readonly Word[],
  today: Date,
  timed: (index: number) => boolean = () => false,
): { asks: CalendarAsk[]; daysBetween: boolean; between?: boolean; refusals: Refusal[] } {
  const named = releasesNamed(words);
  const refusals = decisionRefusals(named, words);
  const count = frame.operation.kind === 'count';
  const daysBetween = asksOrder(frame, words, named);
  const dated = innermost(frame.times);
  const times = dated.length > 0 ? dated : [undefined];
  const asks: CalendarAsk[] = [];
  const between = count && words.some((word) => word.normal === 'between') ? betweenAsks(named, frame, today) : undefined;
  if (between) return { asks: between, daysBetween: false, between: true, refusals };
  // A count lists every event (and so its first); only a question not counting picks one.
  const picked = count ? undefined : pickedAsks(words, dated, timed, today);
  if (picked) return { asks: picked, daysBetween: daysBetween && picked.length >= 2, refusals };
  // One event each: the first release named in the first time, the second in the second (or the
  // same release in two times: "between the September and October Fed meetings").
  const pairs = named.length >= 2 ? named.slice(0, 2) : named.length === 1 && times.length >= 2 ? [named[0], named[0]] : [];
  if (daysBetween && pairs.length === 2) {
    pairs.forEach((release, index) => {
      const span = spanOf(times[Math.min(index, times.length - 1)], today);
      if (release) asks.push({ ...span, ...releaseOf(release), count: false });
    });
    return { asks, daysBetween: true, refusals };
  }
  const release = othersToo(words) ? undefined : named[0];
  const week = weekSpan(words, today);
  for (const time of week ? [undefined] : times) {
    const span = week ?? ahead(spanOf(time, today), words, today);
    asks.push({ ...span, ...releaseOf(release), count });
  }
  return { asks, daysBetween: false, refusals };
}
