// The small readings a plan is built from: a moment as the analysis contract writes it for a
// series' frequency, a threshold ("above 7%", "above the baseline"), an amount ("$400,000", "550k"),
// how many places ("top 3"), and a place's series for a topic.
import type { Moment } from './moments.ts';
import type { Place } from '../../../geo/gazetteer.ts';
import { hmdaMeasureOf, limitProgramOf, type Topic } from './measures.ts';

const NUMBER_WORDS: Record<string, number> = { one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10 };
export const lastDay = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate();
export const pad = (value: number) => String(value).padStart(2, '0');

/** A moment as the analysis contract writes it, for a series of this frequency. */
export function atOf(moment: Moment | undefined, frequency: 'weekly' | 'quarterly' | 'annual'): string | undefined {
  if (!moment) return undefined;
  if (moment.kind === 'start')
    return frequency === 'quarterly' ? `${moment.value}Q1` : frequency === 'annual' ? moment.value : `${moment.value}-01`;
  return moment.value;
}

/** The range a moment covers, for counts and extremes: a year's first and last day. */
export function rangeOf(moment: Moment | undefined): { from?: string; to?: string } {
  if (!moment || moment.kind === 'latest') return {};
  if (moment.kind === 'start') return { from: moment.value };
  return { from: moment.value, to: moment.value };
}

export function thresholdIn(question: string): { op: 'above' | 'below'; value: string } | undefined {
  const match =
    /\b(above|over|higher than|more than|exceed(?:ed|ing)?|at least|below|under|lower than|less than|beneath)\s+(?:the\s+)?(\$?\d[\d,.]*\s*(?:%|percent|k|million)?|baseline|fha floor|floor|conforming (?:loan )?limit)/i.exec(
      question,
    );
  if (!match) return undefined;
  const op = /above|over|higher|more|exceed|at least/i.test(match[1] as string) ? 'above' : 'below';
  const word = (match[2] as string).toLowerCase();
  if (word === 'baseline' || word.startsWith('conforming')) return { op, value: 'loan-limits/conforming/baseline' };
  if (word.includes('floor')) return { op, value: 'loan-limits/fha/floor' };
  return { op, value: String(moneyOf(word) ?? Number(word.replace(/[%,$a-z\s]/g, ''))) };
}

export function moneyOf(text: string): number | undefined {
  const match = /\$?\s*(\d[\d,]*(?:\.\d+)?)\s*(k|thousand|m|million)?\b/i.exec(text);
  if (!match) return undefined;
  const base = Number((match[1] as string).replace(/,/g, ''));
  const unit = (match[2] ?? '').toLowerCase();
  return unit === 'k' || unit === 'thousand' ? base * 1000 : unit === 'm' || unit === 'million' ? base * 1_000_000 : base;
}

export function topN(question: string): number | undefined {
  const match =
    /\b(?:top|first|five|three|best|largest|biggest|the)\s+(\d{1,2}|one|two|three|four|five|six|seven|eight|nine|ten)\b|\b(\d{1,2}|three|five|ten)\s+(?:states|counties)\b/i.exec(
      question,
    );
  const word = (match?.[1] ?? match?.[2])?.toLowerCase();
  if (!word) return undefined;
  return NUMBER_WORDS[word] ?? (Number(word) || undefined);
}

/** The series of a place for the question's topic: `hmda/<place>/<measure>`, a county limit, NMDB. */
export function placeSeries(topic: Topic, question: string, place: Place): string | undefined {
  if (topic === 'hmda') {
    const code = place.kind === 'county' ? place.fips : place.kind === 'state' ? place.code : 'US';
    return `hmda/${code}/${hmdaMeasureOf(question).measure}`;
  }
  if (topic === 'limit') {
    const program = limitProgramOf(question);
    if (place.kind === 'county') return `loan-limits/${program}/${place.fips}`;
    return undefined;
  }
  if (topic === 'outstanding' && place.kind === 'state') return `nmdb/${place.code}/ave_intrate`;
  return undefined;
}

export const FREQUENCY: Record<Topic, 'weekly' | 'quarterly' | 'annual'> = {
  rate: 'weekly',
  outstanding: 'quarterly',
  limit: 'annual',
  hmda: 'annual',
};
