// A record puts figures of different dates side by side (a lender quote, the weekly survey, the daily
// benchmark). This says, for machines and for readers, which of them lag the newest figure of the
// record, and by how much: publishers stop, mirrors age, and a year-old benchmark must not pass for
// today's beside a current survey.
import { daysBetween } from './choose.ts';
import { STALE_AFTER_DAYS, type StaleFigure } from './contract.ts';

export interface DatedFigure {
  /** The record field holding the figure, e.g. `index_a_rate`. */
  field: string;
  /** The figure in words, for the disclaimer ("the market benchmark (Optimal Blue 30-year conforming)"). */
  label: string;
  as_of: string;
}

export interface Staleness {
  stale: StaleFigure[];
  /** Days between the oldest and the newest figure of the record (0 when they share a date). */
  oldest_figure_days_behind: number;
  /** One plain sentence naming the figures that lag, or undefined when none does. */
  sentence: string | undefined;
}

export function assessStaleness(figures: readonly DatedFigure[]): Staleness {
  const newest = figures.reduce<string | undefined>((max, figure) => (max === undefined || figure.as_of > max ? figure.as_of : max), undefined);
  if (newest === undefined) return { stale: [], oldest_figure_days_behind: 0, sentence: undefined };
  const behind = figures.map((figure) => ({ ...figure, days: daysBetween(figure.as_of, newest) }));
  const stale = behind.filter((figure) => figure.days > STALE_AFTER_DAYS);
  const oldest = Math.max(0, ...behind.map((figure) => figure.days));
  if (stale.length === 0) return { stale: [], oldest_figure_days_behind: oldest, sentence: undefined };
  // One clause per date, each naming its figures once (a field may repeat another, e.g. the survey).
  const byDate = new Map<string, string[]>();
  for (const figure of stale) {
    const labels = byDate.get(figure.as_of) ?? [];
    if (!labels.includes(figure.label)) labels.push(figure.label);
    byDate.set(figure.as_of, labels);
  }
  const clauses = [...byDate.entries()].map(([date, labels]) => {
    const days = daysBetween(date, newest);
    const who = labels.length === 1 ? labels[0] : `${labels.slice(0, -1).join(', ')} and ${labels.at(-1)}`;
    return `${who} ${labels.length === 1 ? 'is' : 'are'} from ${date}, ${days} days before the newest figure here (${newest})`;
  });
  return {
    stale: stale.map((figure) => ({ field: figure.field, as_of: figure.as_of, days_behind: figure.days })),
    oldest_figure_days_behind: oldest,
    sentence: `Not every figure here is current: ${clauses.join('; ')}.`,
  };
}
