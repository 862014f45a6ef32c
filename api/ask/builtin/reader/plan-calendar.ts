// Calendar questions from a frame: the releases or Fed decisions in each time the question names,
// narrowed to the release it names (CPI, the jobs report, JOLTS, the Employment Cost Index), counted
// when it asks how many, and the days between two when it asks that.
import type { Frame, TimeSlot } from './frame.ts';
import type { CalendarAsk } from './plan-types.ts';
import { findPhrase, type Word } from './words.ts';
import { addDays, isoDay } from '../../../platform/dates.ts';

/** Release names people use, and the words the calendar's event names hold for them. */
const RELEASES: { phrases: string[]; names: string[]; category?: CalendarAsk['category'] }[] = [
  { phrases: ['cpi', 'consumer price index', 'inflation report'], names: ['Consumer Price Index', 'CPI'], category: 'inflation' },
  { phrases: ['employment cost index', 'eci'], names: ['Employment Cost Index'] },
  { phrases: ['jolts', 'job openings'], names: ['Job Openings', 'JOLTS'] },
  { phrases: ['jobs report', 'employment situation', 'nonfarm payrolls', 'payrolls'], names: ['Employment Situation'] },
  { phrases: ['fed', 'fomc', 'federal reserve', 'rate decision', 'policy meeting'], names: [], category: 'fed' },
];

function releasesNamed(words: readonly Word[]): { names: string[]; category?: CalendarAsk['category']; at: number }[] {
  const found: { names: string[]; category?: CalendarAsk['category']; at: number }[] = [];
  for (const release of RELEASES)
    for (const phrase of release.phrases)
      for (const indexes of findPhrase(words, phrase)) {
        const at = indexes[0] as number;
        if (found.some((entry) => Math.abs(entry.at - at) <= 1)) continue;
        found.push({ names: release.names, ...(release.category ? { category: release.category } : {}), at });
      }
  return found.sort((a, b) => a.at - b.at);
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

export function calendarAsks(
  frame: Frame,
  words: readonly Word[],
  today: Date,
): { asks: CalendarAsk[]; daysBetween: boolean; between?: boolean } {
  const named = releasesNamed(words);
  const count = frame.operation.kind === 'count';
  const daysBetween = frame.operation.kind === 'calendar-arithmetic';
  const times = frame.times.length > 0 ? frame.times : [undefined];
  const asks: CalendarAsk[] = [];
  const between = count && words.some((word) => word.normal === 'between') ? betweenAsks(named, frame, today) : undefined;
  if (between) return { asks: between, daysBetween: false, between: true };
  // One event each: the first release named in the first time, the second in the second (or the
  // same release in two times: "between the September and October Fed meetings").
  const pairs = named.length >= 2 ? named.slice(0, 2) : named.length === 1 && times.length >= 2 ? [named[0], named[0]] : [];
  if (daysBetween && pairs.length === 2) {
    pairs.forEach((release, index) => {
      const span = spanOf(times[Math.min(index, times.length - 1)], today);
      if (release) asks.push({ ...span, names: release.names, ...(release.category ? { category: release.category } : {}), count: false });
    });
    return { asks, daysBetween: true };
  }
  const release = named[0];
  for (const time of times) {
    const span = ahead(spanOf(time, today), words, today);
    asks.push({ ...span, names: release?.names ?? [], ...(release?.category ? { category: release.category } : {}), count });
  }
  return { asks, daysBetween: false };
}
