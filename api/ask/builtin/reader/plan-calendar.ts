// Calendar questions from a frame: the releases or Fed decisions in each time the question names,
// narrowed to the release it names (CPI, the jobs report, JOLTS, the Employment Cost Index), counted
// when it asks how many, and the days between two when it asks that.
import type { Frame, TimeSlot } from './frame.ts';
import type { CalendarAsk } from './plan-types.ts';
import { findPhrase, type Word } from './words.ts';

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

export function calendarAsks(frame: Frame, words: readonly Word[], today: Date): { asks: CalendarAsk[]; daysBetween: boolean } {
  const named = releasesNamed(words);
  const count = frame.operation.kind === 'count';
  const daysBetween = frame.operation.kind === 'calendar-arithmetic';
  const times = frame.times.length > 0 ? frame.times : [undefined];
  const asks: CalendarAsk[] = [];
  if (daysBetween && named.length >= 2) {
    // One event each: the first release named in the first time, the second in the second (or the same).
    named.slice(0, 2).forEach((release, index) => {
      const span = spanOf(times[Math.min(index, times.length - 1)], today);
      asks.push({ ...span, names: release.names, ...(release.category ? { category: release.category } : {}), count: false });
    });
    return { asks, daysBetween: true };
  }
  const release = named[0];
  for (const time of times) {
    const span = spanOf(time, today);
    asks.push({ ...span, names: release?.names ?? [], ...(release?.category ? { category: release.category } : {}), count });
  }
  return { asks, daysBetween: false };
}
