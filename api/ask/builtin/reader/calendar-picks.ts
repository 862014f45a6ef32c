// One event picked from a span: "the first jobs report and the first CPI release of 2026" (the first
// of each), "the Fed's last rate decision of 2024 and its first of 2025" (the last of one year, the
// first of the next: "its first" names the release said before), "the last jobs report before July
// 4th and the first one after it" (before or after a day, never the day itself). The words that pick
// are data (`calendarPicks`, `calendarEdges` in data/ask/reader-words.json).
import type { TimeSlot } from './frame.ts';
import type { CalendarAsk } from './plan-types.ts';
import { findPhrase, type Word } from './words.ts';
import { lexicon } from './lexicon.ts';
import { addDays, longDate } from '../../../platform/dates.ts';

type Release = Pick<CalendarAsk, 'names' | 'category' | 'title'>;

interface Mention {
  release: Release;
  start: number;
  end: number;
  pick?: 'first' | 'last';
  edge?: { side: 'before' | 'after'; day: string };
  /** "the next CPI release after it": the first after the event of the release said before. */
  afterMention?: Mention;
}

/** Words that point back at the event said before ("after it", "after that"). */
const BACK = new Set(['it', 'that', 'this', 'then', 'them', 'which']);

/** How far before a release a picking word may stand ("the first BLS jobs report"). */
const PICK_REACH = 3;
/** How far after a release its edge may come ("the last jobs report release before July 4th"). */
const EDGE_REACH = 4;
/** Days searched before or after an edge day: a year holds every release at least once. */
const EDGE_SPAN = 400;

/** Each release named, the same release said again within a few words kept as one ("the Fed's last rate decision"). */
function mentionsOf(words: readonly Word[]): Mention[] {
  const found: Mention[] = [];
  for (const release of lexicon().calendarReleases)
    for (const phrase of release.phrases)
      for (const indexes of findPhrase(words, phrase)) found.push({ release, start: indexes[0] as number, end: indexes.at(-1) as number });
  found.sort((a, b) => a.start - b.start || b.end - a.end);
  const merged: Mention[] = [];
  for (const mention of found) {
    const last = merged.at(-1);
    // "BLS jobs report": the narrower release, written last, is the one meant.
    if (last && mention.start <= last.end + 1) {
      if (mention.release !== last.release && mention.start > last.start) last.release = mention.release;
      last.end = Math.max(last.end, mention.end);
    } else if (last && last.release === mention.release && mention.start - last.end <= PICK_REACH) last.end = mention.end;
    else merged.push({ release: mention.release, start: mention.start, end: mention.end });
  }
  return merged;
}

/** The picking words no time read ("last" of "last year" is the time's). */
function picksOf(words: readonly Word[], timed: (index: number) => boolean): { at: number; pick: 'first' | 'last' }[] {
  const { first, last } = lexicon().calendarPicks;
  return words
    .filter((word) => !timed(word.index) && !words[word.index - 1]?.tags.has('Verb'))
    .flatMap((word) => {
      const pick = first.includes(word.normal) ? 'first' : last.includes(word.normal) ? 'last' : undefined;
      return pick ? [{ at: word.index, pick } as const] : [];
    });
}

/** A picking word belongs to the release beside it, or, with none ("its first of 2025"), names the one said before. */
function attachPicks(mentions: Mention[], picks: readonly { at: number; pick: 'first' | 'last' }[]): Mention[] {
  const all = [...mentions];
  for (const { at, pick } of picks) {
    const beside = all.find((mention) => mention.pick === undefined && at >= mention.start - PICK_REACH && at <= mention.end + 1);
    if (beside) {
      beside.pick = pick;
      continue;
    }
    const before = [...all].reverse().find((mention) => mention.start < at);
    if (before) all.push({ release: before.release, start: at, end: at, pick });
  }
  return all.sort((a, b) => a.start - b.start);
}

/** "before July 4th", "after it": the day a release is picked next to, from the day times read. */
function attachEdges(mentions: Mention[], words: readonly Word[], times: readonly TimeSlot[]): void {
  const days = times.filter((time) => time.grain === 'day');
  const { before, after } = lexicon().calendarEdges;
  mentions.forEach((mention, index) => {
    const limit = Math.min(mentions[index + 1]?.start ?? words.length, mention.end + 1 + EDGE_REACH);
    const edge = words.slice(mention.end + 1, limit).find((word) => before.includes(word.normal) || after.includes(word.normal));
    if (!edge) return;
    const next = words[edge.index + 1]?.normal ?? '';
    const previous = mentions[index - 1];
    // "before July 4th and the first one after it": "it" is the day, which the release before was picked beside.
    if (after.includes(edge.normal) && previous && ((BACK.has(next) && !previous.edge) || days.length === 0)) {
      mention.afterMention = previous;
      return;
    }
    if (days.length === 0) return;
    const day = days.find((time) => time.text.toLowerCase().trim().startsWith(next)) ?? days[0];
    if (day) mention.edge = { side: before.includes(edge.normal) ? 'before' : 'after', day: day.from };
  });
}

function askOf(mention: Mention, time: TimeSlot | undefined, today: Date): CalendarAsk {
  const release = {
    names: mention.release.names,
    ...(mention.release.category ? { category: mention.release.category } : {}),
    ...(mention.release.title ? { title: mention.release.title } : {}),
  };
  const edge = mention.edge;
  if (edge) {
    const from = edge.side === 'before' ? addDays(edge.day, -EDGE_SPAN) : addDays(edge.day, 1);
    const to = edge.side === 'before' ? addDays(edge.day, -1) : addDays(edge.day, EDGE_SPAN);
    const pick = mention.pick ?? (edge.side === 'before' ? 'last' : 'first');
    return { ...release, from, to, label: `${edge.side} ${longDate(edge.day)}`, count: false, pick };
  }
  const year = String(today.getUTCFullYear());
  const span = time && time.grain !== 'latest' ? { from: time.from, to: time.to, label: time.text.trim() } : undefined;
  const { from, to, label } = span ?? { from: `${year}-01-01`, to: `${year}-12-31`, label: year };
  return { ...release, from, to, label: `of ${label.replace(/^(of|in|for)\s+/i, '')}`, count: false, pick: mention.pick ?? 'first' };
}

/**
 * The asks of a question that picks the first or last event of a span, or one before or after a
 * day; undefined when it picks none (the other calendar readings answer it).
 */
export function pickedAsks(
  words: readonly Word[],
  times: readonly TimeSlot[],
  timed: (index: number) => boolean,
  today: Date,
): CalendarAsk[] | undefined {
  const mentions = attachPicks(mentionsOf(words), picksOf(words, timed));
  attachEdges(mentions, words, times);
  const picked = mentions.filter((mention) => mention.pick !== undefined || mention.edge !== undefined || mention.afterMention);
  if (picked.length === 0) return undefined;
  const spans = times.filter((time) => time.grain !== 'latest' && time.grain !== 'day');
  return picked.map((mention, index) => {
    const ask = askOf(mention, spans[Math.min(index, spans.length - 1)], today);
    const previous = mention.afterMention ? picked.indexOf(mention.afterMention) : -1;
    // Its span is known once the event before it is found (reader-calendar.ts).
    return previous >= 0 ? { ...ask, afterAsk: previous, pick: 'first', label: 'after it' } : ask;
  });
}
