// Residents of every state, DC, territory and county as the FFIEC HMDA Data Browser divides by
// them (`population/TX`, `population/48201`): the denominators of per-resident figures, one value
// per data year the Data Browser publishes.
import type { Queryable } from '../../platform/db/database.ts';
import { POPULATION_DATASET, POPULATION_SOURCE, readPopulation } from '../../hmda-aggregates/population.ts';
import { DATA_BROWSER_URL, hmdaPlaceName } from '../../hmda-aggregates/series-reads.ts';
import { COUNTIES_DATASET, readCountyNames } from '../../loan-limits/series-reads.ts';
import type { HeldSeries, SeriesFamily } from '../types.ts';
import { stateByFips } from '../../geo/states.ts';

export function populationFamily(db: Queryable): SeriesFamily {
  return {
    id: 'population',
    title: 'Resident population by state and county, as the HMDA Data Browser uses it (Census Bureau figures)',
    publisher: 'U.S. Census Bureau, via the FFIEC HMDA Data Browser',
    frequency: 'annual',
    idPattern: 'population/<state code, 2-digit state FIPS or 5-digit county FIPS>',
    example: 'population/TX',
    datasets: [POPULATION_DATASET, COUNTIES_DATASET],
    claims: (lower) => lower.startsWith('population/'),
    canonical(lower) {
      const [, place = '', ...rest] = lower.split('/');
      if (rest.length > 0) return undefined;
      // A state by its FIPS code (`population/06`) is the state's series, as the docs give the FIPS form.
      if (/^\d{2}$/.test(place)) {
        const state = stateByFips(place);
        return state ? `population/${state.code}` : undefined;
      }
      return /^([a-z]{2}|\d{5})$/.test(place) ? `population/${place.toUpperCase()}` : undefined;
    },
    async load([record]) {
      const [rows, names] = await Promise.all([readPopulation(db), readCountyNames(db)]);
      const byPlace = new Map<string, { level: 'state' | 'county'; years: number[]; values: number[] }>();
      for (const row of rows) {
        let entry = byPlace.get(row.code);
        if (!entry) byPlace.set(row.code, (entry = { level: row.level, years: [], values: [] }));
        entry.years.push(row.year);
        entry.values.push(row.residents);
      }
      const held: HeldSeries[] = [];
      for (const [code, entry] of byPlace) {
        const county = entry.level === 'county' ? names.get(code) : undefined;
        const place =
          entry.level === 'state' ? (hmdaPlaceName(code) ?? code) : county ? `${county.name}, ${county.state}` : `county ${code}`;
        const state = entry.level === 'state' ? code : county?.state;
        held.push({
          id: `population/${code}`,
          title: `Resident population: ${place}`,
          family: 'population',
          publisher: 'U.S. Census Bureau (as published by the FFIEC HMDA Data Browser)',
          frequency: 'annual',
          units: 'residents',
          dates: entry.years.map((year) => `${year}-01-01`),
          periods: entry.years.map(String),
          values: entry.values,
          sourceUrl: DATA_BROWSER_URL,
          sourceName: POPULATION_SOURCE,
          asOf: record?.asOf ?? null,
          ...(state === undefined ? {} : { state }),
          place,
          notes: [
            `The residents the HMDA Data Browser divides by for its ${entry.years.join(', ')} data (Census Bureau figures); one vintage per data year, so a per-resident figure of another year says which vintage it used.`,
          ],
        });
      }
      return held;
    },
  };
}
