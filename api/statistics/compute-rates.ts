// Rate statistics from the synced national series: the latest Freddie Mac PMMS 30- and 15-year
// rates, their yearly change, average and records, and the Optimal Blue spreads between programs.
import type { Queryable } from '../platform/db/database.ts';
import { OPTIMAL_BLUE_DATASET, PMMS_DATASET } from '../rates/sync/national.ts';
import { datasetInfo, onOrBefore, series, yearAverage, type Observation } from './inputs.ts';
import { percent, points, whole, type Statistic } from './types.ts';
import { addDays, longDate } from '../platform/dates.ts';

const fredPage = (id: string) => `https://fred.stlouisfed.org/series/${id}`;
const yearOf = (date: string) => Number(date.slice(0, 4));

interface RateStat {
  id: string;
  numeric: number;
  value: string;
  label: string;
  headline: string;
  population: string;
  dataYear: number;
  seriesId: string;
  asOf: string;
}

const toStatistic = (stat: RateStat): Statistic => ({
  id: stat.id,
  category: 'rates',
  value: stat.value,
  label: stat.label,
  headline: stat.headline,
  data_year: stat.dataYear,
  population: stat.population,
  source_url: fredPage(stat.seriesId),
  numeric_value: stat.numeric,
  as_of: stat.asOf,
});

export async function rateStatistics(db: Queryable): Promise<Statistic[]> {
  const stats: RateStat[] = [];
  const pmms = await datasetInfo(db, PMMS_DATASET);
  const thirty = await series(db, 'MORTGAGE30US');
  const fifteen = await series(db, 'MORTGAGE15US');
  const latest30 = thirty.at(-1);
  if (pmms && latest30) {
    const asOf = latest30.date;
    const base = { dataYear: yearOf(asOf), seriesId: 'MORTGAGE30US', asOf };
    stats.push({
      ...base,
      id: 'pmms_30yr_latest',
      numeric: latest30.value,
      value: percent(latest30.value, 2),
      label: `Freddie Mac PMMS 30-year fixed rate, week of ${longDate(asOf)}`,
      headline: `The average 30-year fixed mortgage rate was ${percent(latest30.value, 2)} in Freddie Mac's survey of ${longDate(asOf)}.`,
      population: `One weekly national average of Freddie Mac's Primary Mortgage Market Survey: 30-year fixed-rate conventional conforming loans, week of ${longDate(asOf)}.`,
    });
    const yearAgo = onOrBefore(thirty, addDays(asOf, -364));
    if (yearAgo) {
      const change = latest30.value - yearAgo.value;
      stats.push({
        ...base,
        id: 'pmms_30yr_change_52wk',
        numeric: change,
        value: points(change),
        label: `Change in the PMMS 30-year rate over 52 weeks to ${longDate(asOf)}`,
        headline: `The 30-year fixed rate is ${Math.abs(change).toFixed(2)} points ${change >= 0 ? 'higher' : 'lower'} than a year earlier (${percent(yearAgo.value, 2)} on ${longDate(yearAgo.date)}).`,
        population: `Two weekly PMMS 30-year averages: ${longDate(yearAgo.date)} (${percent(yearAgo.value, 2)}) and ${longDate(asOf)} (${percent(latest30.value, 2)}).`,
      });
    }
    const lastFullYear = yearOf(asOf) - 1;
    const average = yearAverage(thirty, lastFullYear);
    if (average !== undefined) {
      const weeks = thirty.filter((observation) => yearOf(observation.date) === lastFullYear).length;
      stats.push({
        ...base,
        dataYear: lastFullYear,
        id: `pmms_30yr_average_${lastFullYear}`,
        numeric: average,
        value: percent(average, 2),
        label: `Average PMMS 30-year fixed rate in ${lastFullYear}`,
        headline: `The 30-year fixed rate averaged ${percent(average, 2)} across Freddie Mac's weekly surveys of ${lastFullYear}.`,
        population: `The ${weeks} weekly PMMS 30-year averages dated in ${lastFullYear}, each weighted equally.`,
      });
    }
    const extremes = (pick: (a: Observation, b: Observation) => boolean) => thirty.reduce((best, item) => (pick(item, best) ? item : best));
    const low = extremes((a, b) => a.value < b.value);
    const high = extremes((a, b) => a.value > b.value);
    const since = thirty[0]?.date ?? asOf;
    const history = `Every weekly PMMS 30-year average from ${longDate(since)} to ${longDate(asOf)} (${whole(thirty.length)} weeks; a tie goes to the earliest week).`;
    for (const [kind, word, record] of [
      ['low', 'Lowest', low],
      ['high', 'Highest', high],
    ] as const) {
      stats.push({
        ...base,
        dataYear: yearOf(record.date),
        id: `pmms_30yr_record_${kind}`,
        numeric: record.value,
        value: percent(record.value, 2),
        label: `${word} PMMS 30-year rate since ${since.slice(0, 4)}`,
        headline: `The ${word.toLowerCase()} 30-year rate in Freddie Mac's survey since ${since.slice(0, 4)} was ${percent(record.value, 2)}, on ${longDate(record.date)}.`,
        population: history,
      });
    }
    const latest15 = fifteen.at(-1);
    if (latest15) {
      const base15 = { dataYear: yearOf(latest15.date), seriesId: 'MORTGAGE15US', asOf: latest15.date };
      stats.push({
        ...base15,
        id: 'pmms_15yr_latest',
        numeric: latest15.value,
        value: percent(latest15.value, 2),
        label: `Freddie Mac PMMS 15-year fixed rate, week of ${longDate(latest15.date)}`,
        headline: `The average 15-year fixed mortgage rate was ${percent(latest15.value, 2)} in Freddie Mac's survey of ${longDate(latest15.date)}.`,
        population: `One weekly national average of Freddie Mac's Primary Mortgage Market Survey: 15-year fixed-rate conventional conforming loans, week of ${longDate(latest15.date)}.`,
      });
      const same30 = thirty.find((observation) => observation.date === latest15.date);
      if (same30) {
        const spread = same30.value - latest15.value;
        stats.push({
          ...base15,
          id: 'pmms_30_15_spread_latest',
          numeric: spread,
          value: `${spread.toFixed(2)} pts`,
          label: `30-year minus 15-year PMMS rate, ${longDate(latest15.date)}`,
          headline: `A 30-year fixed loan cost ${spread.toFixed(2)} percentage points more than a 15-year loan in Freddie Mac's survey of ${longDate(latest15.date)}.`,
          population: `The PMMS 30-year (${percent(same30.value, 2)}) and 15-year (${percent(latest15.value, 2)}) averages of the week of ${longDate(latest15.date)}, the latest week both series hold.`,
        });
      }
    }
  }

  const optimalBlue = await datasetInfo(db, OPTIMAL_BLUE_DATASET);
  const conforming = await series(db, 'OBMMIC30YF');
  const latestConforming = conforming.at(-1);
  if (optimalBlue && latestConforming) {
    const date = latestConforming.date;
    const base = { dataYear: yearOf(date), asOf: date };
    stats.push({
      ...base,
      seriesId: 'OBMMIC30YF',
      id: 'obmmi_conforming_latest',
      numeric: latestConforming.value,
      value: percent(latestConforming.value, 3),
      label: `Optimal Blue 30-year conforming rate index, ${longDate(date)}`,
      headline: `Locked 30-year conforming loans averaged ${percent(latestConforming.value, 3)} in Optimal Blue's index on ${longDate(date)}.`,
      population: `One daily reading of Optimal Blue's index of rate locks on 30-year fixed conforming loans, ${longDate(date)}.`,
    });
    for (const [id, key, name] of [
      ['OBMMIFHA30YF', 'fha', 'FHA'],
      ['OBMMIVA30YF', 'va', 'VA'],
      ['OBMMIJUMBO30YF', 'jumbo', 'jumbo'],
    ] as const) {
      const other = (await series(db, id)).find((observation) => observation.date === date);
      if (!other) continue;
      const spread = other.value - latestConforming.value;
      stats.push({
        ...base,
        seriesId: id,
        id: `obmmi_${key}_spread_latest`,
        numeric: spread,
        value: points(spread, 3),
        label: `Optimal Blue 30-year ${name} rate minus conforming, ${longDate(date)}`,
        headline: `30-year ${name} locks averaged ${percent(other.value, 3)}, ${Math.abs(spread).toFixed(3)} points ${spread >= 0 ? 'above' : 'below'} conforming loans, on ${longDate(date)} (Optimal Blue).`,
        population: `Two daily readings of Optimal Blue's rate-lock indices on ${longDate(date)}: 30-year fixed ${name} (${percent(other.value, 3)}) and conforming (${percent(latestConforming.value, 3)}).`,
      });
    }
  }
  return stats.map(toStatistic);
}
