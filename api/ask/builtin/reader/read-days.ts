// Days the calendar readers miss: holidays named as such ("Halloween 2024", "Thanksgiving last year";
// the list is data, data/ask/reader-words.json `holidays`), and days that do not exist ("February
// 30, 2025", "April 31", "2025-13-01"), which are refused rather than shifted to a day that does.
import type { Refusal, TimeSlot } from './frame.ts';
import { lexicon } from './lexicon.ts';
import { findPhrase, nlp, type Word } from './words.ts';
import { isoDay } from '../../../platform/dates.ts';
import { MONTH_NAMES } from '../../../platform/contract/months.ts';

/** Month names as the words' normal form writes them. */
const MONTHS = MONTH_NAMES.map((name) => name.toLowerCase());
const WEEKDAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];
const pad = (value: number) => String(value).padStart(2, '0');
const daysIn = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate();
const isYear = (text: string) => /^(19|20)\d\d$/.test(text);

export interface DayFound extends TimeSlot {
  start: number;
  end: number;
}

/** A year's relative phrase ("last year") or written year, as the readers found it before. */
export interface YearFound {
  year: number;
  start: number;
  end: number;
}

/** The holiday's day in a year: a fixed "MM-DD", or the nth (or last) weekday of its month. */
export function holidayDay(rule: string, year: number): string {
  const [month, second, nth] = rule.split('-') as [string, string, string | undefined];
  if (nth === undefined) return `${year}-${month}-${second}`;
  const weekday = WEEKDAYS.indexOf(second);
  const monthNumber = Number(month);
  const days = Array.from({ length: daysIn(year, monthNumber) }, (_, index) => index + 1).filter(
    (day) => new Date(Date.UTC(year, monthNumber - 1, day)).getUTCDay() === weekday,
  );
  const day = nth === 'last' ? days.at(-1) : days[Number(nth) - 1];
  return `${year}-${month}-${pad(day as number)}`;
}

/**
 * "Halloween 2024", "Christmas of 2023", "Thanksgiving last year": the holiday in the year written
 * just after it (a year found before, so "last year" counts from today), else the latest one on or before today.
 */
export function holidays(words: readonly Word[], years: readonly YearFound[], today: Date): { days: DayFound[]; used: YearFound[] } {
  const days: DayFound[] = [];
  const used: YearFound[] = [];
  const entries = Object.entries(lexicon().holidays).sort((a, b) => b[0].length - a[0].length);
  for (const [phrase, rule] of entries)
    for (const indexes of findPhrase(words, phrase)) {
      const first = words[indexes[0] as number] as Word;
      const last = words[indexes.at(-1) as number] as Word;
      if (days.some((day) => first.start < day.end && last.end > day.start)) continue;
      const year = yearAfter(words, indexes.at(-1) as number, years);
      let value = year?.year ?? today.getUTCFullYear();
      if (!year && holidayDay(rule, value) > isoDay(today)) value -= 1;
      if (year) used.push(year);
      const shift = offsetBefore(words, indexes[0] as number, holidayDay(rule, value));
      const day = shift?.day ?? holidayDay(rule, value);
      const end = year ? Math.max(year.end, last.end) : last.end;
      const text = `${shift ? `${shift.text} ` : ''}${phrase}${year ? ` ${value}` : ''}`;
      days.push({ grain: 'day', from: day, to: day, text, start: shift?.start ?? first.start, end, readAs: `"${text}" as ${day}` });
    }
  return { days, used };
}

const WEEKDAY_NAMES = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];
const SIDES: Record<string, 1 | -1> = { before: -1, after: 1, prior: -1, following: 1 };

function countOf(word: Word | undefined): number | undefined {
  if (!word) return undefined;
  if (word.normal === 'the' || word.normal === 'a' || word.normal === 'one') return 1;
  if (/^\d{1,3}$/.test(word.normal)) return Number(word.normal);
  const value = (nlp(word.text).numbers().get() as unknown[])[0];
  return typeof value === 'number' && Number.isInteger(value) && value > 0 && value < 100 ? value : undefined;
}

/**
 * "the day before Thanksgiving", "two weeks after Christmas", "the Wednesday before Thanksgiving":
 * the day that far from the holiday, with the words it spans; undefined when none is written.
 */
function offsetBefore(words: readonly Word[], first: number, holiday: string): { day: string; text: string; start: number } | undefined {
  const side = SIDES[words[first - 1]?.normal ?? ''];
  const unit = words[first - 2];
  const count = countOf(words[first - 3]);
  if (side === undefined || !unit || count === undefined) return undefined;
  const date = new Date(`${holiday}T00:00:00Z`);
  const weekday = WEEKDAY_NAMES.indexOf(unit.normal);
  if (weekday >= 0) {
    // The nearest such weekday strictly on that side of the holiday.
    do date.setUTCDate(date.getUTCDate() + side);
    while (date.getUTCDay() !== weekday);
  } else if (/^days?$/.test(unit.normal)) date.setUTCDate(date.getUTCDate() + side * count);
  else if (/^weeks?$/.test(unit.normal)) date.setUTCDate(date.getUTCDate() + side * count * 7);
  else return undefined;
  const from = words[first - 3] as Word;
  return {
    day: isoDay(date),
    text: words
      .slice(first - 3, first)
      .map((word) => word.text)
      .join(' '),
    start: from.start,
  };
}

/** The year written or said within two words after a holiday ("Halloween 2024", "Christmas of last year"). */
function yearAfter(words: readonly Word[], last: number, years: readonly YearFound[]): YearFound | undefined {
  const next = words.slice(last + 1, last + 3);
  const reach = next.at(-1)?.end ?? 0;
  const after = (words[last] as Word).end;
  const said = years.find((year) => year.start >= after && year.start <= reach);
  if (said) return said;
  const written = next.find((word) => isYear(word.normal));
  return written ? { year: Number(written.normal), start: written.start, end: written.end } : undefined;
}

/** The number a day is written as ("30", "31st", "30,"), or undefined. */
function dayNumber(word: Word | undefined): number | undefined {
  const match = /^(\d{1,2})(st|nd|rd|th)?$/.exec(word?.normal.replace(/[.,]$/, '') ?? '');
  return match ? Number(match[1]) : undefined;
}

/** A day written that no calendar has, with the words it spans. */
export interface ImpossibleDay {
  refusal: Refusal;
  start: number;
  end: number;
}

const impossible = (text: string, why: string, start: number, end: number): ImpossibleDay => ({
  refusal: { part: text, why, blocking: true },
  start,
  end,
});

/** "February 30, 2025", "April 31", "2025-13-01", "2/30/2025": refused, never moved to a day that exists. */
export function impossibleDays(words: readonly Word[]): ImpossibleDay[] {
  const found: ImpossibleDay[] = [];
  words.forEach((word, index) => {
    const month = MONTHS.indexOf(word.normal) + 1;
    const day = dayNumber(words[index + 1]);
    if (month > 0 && day !== undefined) {
      const yearWord = words.slice(index + 2, index + 4).find((next) => isYear(next.normal));
      const year = yearWord ? Number(yearWord.normal) : 2024; // no year: a leap year, so February 29 stands
      if (day >= 1 && day <= daysIn(year, month)) return;
      const text = `${word.text} ${day}${yearWord ? `, ${year}` : ''}`;
      const length = day > 31 ? 'no month has' : `${word.text}${yearWord ? ` ${year}` : ''} has ${daysIn(year, month)} days`;
      found.push(
        impossible(
          text,
          `${text} is not a day of the calendar (${length}), and I won't answer for another day`,
          word.start,
          (yearWord ?? words[index + 1] ?? word).end,
        ),
      );
    }
    const numeric = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(word.normal) ?? /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(word.normal);
    if (!numeric) return;
    const [y, m, d] = word.normal.includes('-')
      ? [Number(numeric[1]), Number(numeric[2]), Number(numeric[3])]
      : [Number(numeric[3]), Number(numeric[1]), Number(numeric[2])];
    if (m >= 1 && m <= 12 && d >= 1 && d <= daysIn(y, m)) return;
    const why = m < 1 || m > 12 ? `a year has no month ${m}` : `${MONTHS[m - 1]} ${y} has ${daysIn(y, m)} days`;
    found.push(
      impossible(word.text, `${word.text} is not a day of the calendar (${why}), and I won't answer for another day`, word.start, word.end),
    );
  });
  return found;
}
