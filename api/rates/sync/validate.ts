// Merging and validation gates for national series: where the mirror splits a series into several
// files their overlaps must agree, and a series is published only when its row count, value range
// and spacing look like the real thing.
import { ValidationError } from '../../sync/errors.ts';
import type { SeriesInfo } from '../series.ts';
import type { Observation } from './fred-csv.ts';
import { daysBetween } from '../../platform/dates.ts';

export interface SeriesPart {
  file: string;
  observations: Observation[];
}

/** Rates outside this band (percent) mean a unit or parsing error, not a market. */
export const VALUE_RANGE = { min: 0.5, max: 20 } as const;

/** Union of the parts by date; throws when two files give different values for one date. */
export function mergeParts(seriesId: string, parts: SeriesPart[]): Observation[] {
  const byDate = new Map<string, { value: number; file: string }>();
  for (const part of parts) {
    for (const observation of part.observations) {
      const seen = byDate.get(observation.date);
      if (seen === undefined) {
        byDate.set(observation.date, { value: observation.value, file: part.file });
      } else if (Math.abs(seen.value - observation.value) > 0.0005) {
        throw new ValidationError(
          `${seriesId} ${observation.date}: ${seen.file} says ${seen.value} but ${part.file} says ${observation.value}; the files disagree`,
        );
      }
    }
  }
  return [...byDate.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([date, { value }]) => ({ date, value }));
}

/** Throws ValidationError naming the first failed gate. */
export function validateSeries(series: SeriesInfo, observations: Observation[]): void {
  if (observations.length < series.minRows) {
    throw new ValidationError(`${series.id}: ${observations.length} observations, expected at least ${series.minRows}`);
  }
  for (const observation of observations) {
    if (observation.value < VALUE_RANGE.min || observation.value > VALUE_RANGE.max) {
      throw new ValidationError(
        `${series.id} ${observation.date}: ${observation.value}% is outside ${VALUE_RANGE.min}–${VALUE_RANGE.max}%`,
      );
    }
  }
  for (let index = 1; index < observations.length; index += 1) {
    const previous = observations[index - 1];
    const current = observations[index];
    if (!previous || !current) continue;
    const gap = daysBetween(previous.date, current.date);
    if (gap < series.minGapDays || gap > series.maxGapDays) {
      throw new ValidationError(
        `${series.id}: ${previous.date} and ${current.date} are ${gap} days apart; a ${series.frequency} series expects ` +
          `${series.minGapDays}–${series.maxGapDays}`,
      );
    }
  }
}
