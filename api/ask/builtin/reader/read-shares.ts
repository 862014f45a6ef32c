// Shares asked as thresholds: a share written in words ("at least a quarter", "more than half", "over
// two-thirds") is a percent (25, 50, 66.7), read before the times so that "a quarter" is not a
// calendar quarter; and a percent threshold set on a count ("counties where more than half of
// applications were FHA", "above 30% FHA") is a threshold on the count's share, not on the count.
// The phrases and the shares counts stand for are data (data/ask/reader-words.json).
import type { MeasureSlot, Threshold } from './frame.ts';
import { catalogue } from '../../../catalogue/measures.ts';
import { lexicon } from './lexicon.ts';
import { findPhrase, type Coverage } from './words.ts';

/** How many words may come between the direction and the share ("more than just half"). */
const REACH = 2;

/** "at least a quarter of …": the share as a percent threshold, consuming its words. */
export function readFractionThreshold(coverage: Coverage): Threshold | undefined {
  const words = coverage.words;
  const { fractions, thresholds } = lexicon();
  const phrases = Object.entries(fractions).sort((a, b) => b[0].length - a[0].length);
  for (const [phrase, percent] of phrases)
    for (const span of findPhrase(words, phrase)) {
      const first = span[0] as number;
      if (span.some((index) => coverage.isTaken(index))) continue;
      for (const op of ['above', 'below'] as const)
        for (const direction of thresholds[op])
          for (const before of findPhrase(words, direction)) {
            const end = before.at(-1) as number;
            if (end >= first || first - end > REACH) continue;
            const indexes = [...before, ...span];
            const text = words
              .slice(Math.min(...indexes), Math.max(...indexes) + 1)
              .map((word) => word.text)
              .join(' ');
            coverage.take(indexes, 'numbers.threshold');
            return { op, value: percent, text, percent: true };
          }
    }
  return undefined;
}

/** The measure of the catalogue with this template, as a slot. */
function slotOf(template: string, words: readonly string[]): MeasureSlot | undefined {
  const entry = catalogue().templates.find((candidate) => candidate.id === template);
  if (!entry) return undefined;
  return {
    template: entry.id,
    family: entry.id.split('/')[0] as string,
    title: entry.title,
    kind: entry.kind,
    qualifiers: entry.qualifiers,
    ...(entry.share ? { share: entry.share } : {}),
    words: [...words],
  };
}

/** The share a count stands for under a percent threshold: the data's choice, else the catalogue's share of it. */
function shareOf(measure: MeasureSlot): MeasureSlot | undefined {
  const named = lexicon().shareOfCount[measure.template];
  if (named) return slotOf(named, measure.words);
  const share = catalogue().templates.find((template) => template.share?.part === measure.template);
  return share ? slotOf(share.id, measure.words) : undefined;
}

/**
 * A percent threshold over counts ("more than half of applications were FHA"): the first count that
 * has a share, read as that share. The totals ("applications", "records") have none: they are the whole.
 */
export function sharesForThreshold(measures: readonly MeasureSlot[], threshold: Threshold | undefined): MeasureSlot[] {
  if (!threshold?.percent || measures.every((measure) => measure.kind !== 'count')) return [...measures];
  for (const measure of measures) {
    if (measure.kind !== 'count') continue;
    const share = shareOf(measure);
    if (share) return [share];
  }
  return [...measures];
}
