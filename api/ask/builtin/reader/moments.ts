// The moments and spans a question names, in order: days and months (chrono-node reads "December
// 26, 2024", "May 2026"), years, quarters ("2025Q3", "the first quarter of 2022"), the start of a
// year, "today"/"latest", Fed meetings named by month ("the December 2024 Fed meeting", resolved
// later against the calendar), and the spans built from them ("since 2019", "from 2021 to 2023").
import * as chrono from 'chrono-node';
import { MONTHS } from '../entities.ts';

export type Moment =
  | { kind: 'year' | 'month' | 'day' | 'quarter'; value: string; at: number; end: number }
  | { kind: 'start'; value: string; at: number; end: number }
  | { kind: 'latest'; value: 'latest'; at: number; end: number }
  | { kind: 'fomc'; year: number; month: number; week: boolean; value: string; at: number; end: number };

export interface Span {
  from?: Moment;
  to?: Moment;
  /** "since 2019": from that moment to the latest. */
  since: boolean;
}

const MONTH_WORDS = MONTHS.map((month) => `${month}|${month.slice(0, 3)}`).join('|');
const monthNumber = (word: string) => MONTHS.findIndex((month) => month.slice(0, 3).toLowerCase() === word.slice(0, 3).toLowerCase()) + 1;
const pad = (value: number) => String(value).padStart(2, '0');
const ORDINAL_QUARTER: Record<string, number> = { first: 1, second: 2, third: 3, fourth: 4, '1st': 1, '2nd': 2, '3rd': 3, '4th': 4 };

export function momentsIn(question: string, today: Date): Moment[] {
  const found: Moment[] = [];
  const taken = (at: number, end: number) => found.some((moment) => at < moment.end && end > moment.at);
  const add = (moment: Moment) => {
    if (!taken(moment.at, moment.end)) found.push(moment);
  };
  for (const match of question.matchAll(
    new RegExp(
      `\\b(?:the\\s+)?(week\\s+of\\s+the\\s+)?(${MONTH_WORDS})\\.?\\s+((?:19|20)\\d\\d)\\s+(?:fed|fomc|federal reserve)(?:\\s+(?:rate\\s+)?(?:meeting|decision))?`,
      'gi',
    ),
  )) {
    const month = monthNumber(match[2] as string);
    add({
      kind: 'fomc',
      year: Number(match[3]),
      month,
      week: match[1] !== undefined,
      value: `${match[3]}-${pad(month)}`,
      at: match.index,
      end: match.index + match[0].length,
    });
  }
  for (const match of question.matchAll(
    /\b(?:(first|second|third|fourth|1st|2nd|3rd|4th)\s+quarter\s+(?:of\s+)?((?:19|20)\d\d)|[Qq]([1-4])\s*((?:19|20)\d\d)|((?:19|20)\d\d)\s*[Qq]([1-4]))\b/g,
  )) {
    const quarter = match[1] ? ORDINAL_QUARTER[match[1].toLowerCase()] : Number(match[3] ?? match[6]);
    const year = match[2] ?? match[4] ?? match[5];
    add({ kind: 'quarter', value: `${year}Q${quarter}`, at: match.index, end: match.index + match[0].length });
  }
  for (const match of question.matchAll(/\b(?:the\s+)?(?:start|beginning)\s+of\s+((?:19|20)\d\d)\b/gi)) {
    add({ kind: 'start', value: match[1] as string, at: match.index, end: match.index + match[0].length });
  }
  for (const result of chrono.parse(question, today)) {
    const end = result.index + result.text.length;
    if (/^(today|now|right now|this week|tonight)$/i.test(result.text.trim())) {
      add({ kind: 'latest', value: 'latest', at: result.index, end });
      continue;
    }
    if (!result.start.isCertain('year') || !result.start.isCertain('month')) continue;
    const year = result.start.get('year') as number;
    const month = result.start.get('month') as number;
    if (result.start.isCertain('day'))
      add({ kind: 'day', value: `${year}-${pad(month)}-${pad(result.start.get('day') as number)}`, at: result.index, end });
    else add({ kind: 'month', value: `${year}-${pad(month)}`, at: result.index, end });
  }
  for (const match of question.matchAll(/\b((?:19|20)\d\d)\b/g))
    add({ kind: 'year', value: match[1] as string, at: match.index, end: match.index + 4 });
  for (const match of question.matchAll(/\b(today'?s?|current(?:ly)?|right now|latest|now|these days|this week)\b/gi))
    add({ kind: 'latest', value: 'latest', at: match.index, end: match.index + match[0].length });
  return found.sort((a, b) => a.at - b.at);
}

/** "since X", "from X to Y", "between X and Y", or the moments in order. */
export function spanIn(question: string, moments: readonly Moment[]): Span {
  const dated = moments.filter((moment) => moment.kind !== 'latest');
  const sinceAt = question.search(/\bsince\b/i);
  if (sinceAt >= 0) {
    const from = dated.find((moment) => moment.at > sinceAt);
    if (from) return { from, since: true };
  }
  if (dated.length >= 2) return { from: dated[0] as Moment, to: dated[dated.length - 1] as Moment, since: false };
  return dated[0] ? { from: dated[0], since: false } : { since: false };
}
