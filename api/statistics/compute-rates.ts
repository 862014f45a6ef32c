// Rate statistics from the synced national series: the latest Freddie Mac PMMS 30- and 15-year
// rates, their yearly change, average and records, and the Optimal Blue spreads between programs.
import type { Queryable } from '../platform/db/database.ts';
import { OPTIMAL_BLUE_DATASET, PMMS_DATASET } from '../rates/sync/national.ts';
import { daysBefore, datasetInfo, onOrBefore, series, yearAverage, type Observation } from './inputs.ts';
import { percent, points, type Statistic } from './types.ts';

const fredPage = (id: string) => `https://fred.stlouisfed.org/series/${id}`;
const yearOf = (date: string) => Number(date.slice(0, 4));
const longDate = (date: string) => new Date(`${date}T00:00:00Z`).toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });

export async function rateStatistics(db: Queryable): Promise<Statistic[]> {
  const stats: Statistic[] = [];
  const pmms = await datasetInfo(db, PMMS_DATASET);
  const thirty = await series(db, 'MORTGAGE30US');
  const fifteen = await series(db, 'MORTGAGE15US');
  const latest30 = thirty.at(-1);
  if (pmms && latest30) {
    const asOf = latest30.date;
    const push = (id: string, numeric: number, value: string, label: string, headline: string, dataYear = yearOf(asOf), seriesId = 'MORTGAGE30US') =>
      stats.push({ id, category: 'rates', value, label, headline, data_year: dataYear, source_url: fredPage(seriesId), numeric_value: numeric, as_of: asOf });
    push('pmms_30yr_latest', latest30.value, percent(latest30.value, 2), `Freddie Mac PMMS 30-year fixed rate, week of ${longDate(asOf)}`,
      `The average 30-year fixed mortgage rate was ${percent(latest30.value, 2)} in Freddie Mac's survey of ${longDate(asOf)}.`);
    const yearAgo = onOrBefore(thirty, daysBefore(asOf, 364));
    if (yearAgo) {
      const change = latest30.value - yearAgo.value;
      push('pmms_30yr_change_52wk', change, points(change), `Change in the PMMS 30-year rate over 52 weeks to ${longDate(asOf)}`,
        `The 30-year fixed rate is ${Math.abs(change).toFixed(2)} points ${change >= 0 ? 'higher' : 'lower'} than a year earlier (${percent(yearAgo.value, 2)} on ${longDate(yearAgo.date)}).`);
    }
    const lastFullYear = yearOf(asOf) - 1;
    const average = yearAverage(thirty, lastFullYear);
    if (average !== undefined) {
      push(`pmms_30yr_average_${lastFullYear}`, average, percent(average, 2), `Average PMMS 30-year fixed rate in ${lastFullYear}`,
        `The 30-year fixed rate averaged ${percent(average, 2)} across Freddie Mac's weekly surveys of ${lastFullYear}.`, lastFullYear);
    }
    const extremes = (pick: (a: Observation, b: Observation) => boolean) => thirty.reduce((best, item) => (pick(item, best) ? item : best));
    const low = extremes((a, b) => a.value < b.value);
    const high = extremes((a, b) => a.value > b.value);
    push('pmms_30yr_record_low', low.value, percent(low.value, 2), `Lowest PMMS 30-year rate since ${thirty[0]?.date.slice(0, 4)}`,
      `The lowest 30-year rate in Freddie Mac's survey since ${thirty[0]?.date.slice(0, 4)} was ${percent(low.value, 2)}, on ${longDate(low.date)}.`, yearOf(low.date));
    push('pmms_30yr_record_high', high.value, percent(high.value, 2), `Highest PMMS 30-year rate since ${thirty[0]?.date.slice(0, 4)}`,
      `The highest 30-year rate in Freddie Mac's survey since ${thirty[0]?.date.slice(0, 4)} was ${percent(high.value, 2)}, on ${longDate(high.date)}.`, yearOf(high.date));
    const latest15 = fifteen.at(-1);
    if (latest15) {
      stats.push({
        id: 'pmms_15yr_latest', category: 'rates', value: percent(latest15.value, 2), label: `Freddie Mac PMMS 15-year fixed rate, week of ${longDate(latest15.date)}`,
        headline: `The average 15-year fixed mortgage rate was ${percent(latest15.value, 2)} in Freddie Mac's survey of ${longDate(latest15.date)}.`,
        data_year: yearOf(latest15.date), source_url: fredPage('MORTGAGE15US'), numeric_value: latest15.value, as_of: latest15.date,
      });
      const same30 = thirty.find((observation) => observation.date === latest15.date);
      if (same30) {
        const spread = same30.value - latest15.value;
        stats.push({
          id: 'pmms_30_15_spread_latest', category: 'rates', value: `${spread.toFixed(2)} pts`, label: `30-year minus 15-year PMMS rate, ${longDate(latest15.date)}`,
          headline: `A 30-year fixed loan cost ${spread.toFixed(2)} percentage points more than a 15-year loan in Freddie Mac's survey of ${longDate(latest15.date)}.`,
          data_year: yearOf(latest15.date), source_url: fredPage('MORTGAGE15US'), numeric_value: spread, as_of: latest15.date,
        });
      }
    }
  }

  const optimalBlue = await datasetInfo(db, OPTIMAL_BLUE_DATASET);
  const conforming = await series(db, 'OBMMIC30YF');
  const latestConforming = conforming.at(-1);
  if (optimalBlue && latestConforming) {
    const date = latestConforming.date;
    stats.push({
      id: 'obmmi_conforming_latest', category: 'rates', value: percent(latestConforming.value, 3), label: `Optimal Blue 30-year conforming rate index, ${longDate(date)}`,
      headline: `Locked 30-year conforming loans averaged ${percent(latestConforming.value, 3)} in Optimal Blue's index on ${longDate(date)}.`,
      data_year: yearOf(date), source_url: fredPage('OBMMIC30YF'), numeric_value: latestConforming.value, as_of: date,
    });
    for (const [id, key, name] of [['OBMMIFHA30YF', 'fha', 'FHA'], ['OBMMIVA30YF', 'va', 'VA'], ['OBMMIJUMBO30YF', 'jumbo', 'jumbo']] as const) {
      const other = (await series(db, id)).find((observation) => observation.date === date);
      if (!other) continue;
      const spread = other.value - latestConforming.value;
      stats.push({
        id: `obmmi_${key}_spread_latest`, category: 'rates', value: points(spread, 3), label: `Optimal Blue 30-year ${name} rate minus conforming, ${longDate(date)}`,
        headline: `30-year ${name} locks averaged ${percent(other.value, 3)}, ${Math.abs(spread).toFixed(3)} points ${spread >= 0 ? 'above' : 'below'} conforming loans, on ${longDate(date)} (Optimal Blue).`,
        data_year: yearOf(date), source_url: fredPage(id), numeric_value: spread, as_of: date,
      });
    }
  }
  return stats;
}
