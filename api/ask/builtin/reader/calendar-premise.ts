// A count of calendar events a question takes for granted: "the Fed held twelve scheduled meetings
// in 2023", "CPI comes out twice a month". The claim is read here (a number written just before an
// event's noun, or a frequency held as data in data/ask/reader-words.json `calendarFrequencies`);
// the answer checks it against the events the calendar holds and says first when it is wrong.
import { daysBetween } from '../../../platform/dates.ts';
import { lexicon } from './lexicon.ts';
import { findPhrase, nlp, type Word } from './words.ts';

export interface CountClaim {
  /** The events claimed: in the span asked, or in a year when `perYear`. */
  count: number;
  perYear: boolean;
  text: string;
}

const EVENT_NOUNS = new Set(['meeting', 'meetings', 'release', 'releases', 'decision', 'decisions', 'report', 'reports']);
/** How many words may stand between the number and its noun ("twelve scheduled FOMC meetings"). */
const NOUN_REACH = 3;

function numberOf(word: Word): number | undefined {
  if (/^\d+$/.test(word.normal)) return Number(word.normal);
  const value = (nlp(word.text).numbers().get() as unknown[])[0];
  return typeof value === 'number' ? value : undefined;
}

/** The count the question claims, if it writes one; `timed` tells the words the times read (a year is no count). */
export function claimedCount(words: readonly Word[], timed: (index: number) => boolean): CountClaim | undefined {
  for (const [phrase, perYear] of Object.entries(lexicon().calendarFrequencies))
    if (findPhrase(words, phrase).length > 0) return { count: perYear, perYear: true, text: phrase };
  for (const word of words) {
    if (timed(word.index)) continue;
    const count = numberOf(word);
    if (count === undefined || !Number.isInteger(count) || count < 1 || count > 400) continue;
    const noun = words.slice(word.index + 1, word.index + 1 + NOUN_REACH).find((next) => EVENT_NOUNS.has(next.normal));
    if (noun)
      return {
        count,
        perYear: false,
        text: words
          .slice(word.index, noun.index + 1)
          .map((each) => each.text)
          .join(' '),
      };
  }
  return undefined;
}

const YEAR_DAYS = 365.25;

/** The claim checked against the events found in a span: the correction, said first, or nothing when it holds. */
export function countPremiseText(
  claim: CountClaim,
  found: { count: number; what: string; label: string; from: string; to: string },
): string | undefined {
  const days = daysBetween(found.from, found.to) + 1;
  const expected = claim.perYear ? Math.round((claim.count * days) / YEAR_DAYS) : claim.count;
  if (expected === found.count) return undefined;
  const claimed = claim.perYear ? `the ${expected} that “${claim.text}” would make` : `${claim.count} (“${claim.text}”)`;
  return `That premise is not right: the calendar holds **${found.count}** ${found.what} in ${found.label}, not ${claimed}.`;
}
