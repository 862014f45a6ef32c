// Lender statistics from the HMDA transmittal sheet (only 2020 is available, and every statistic
// says so): how many institutions filed, how concentrated the market is, who supervises the filers.
import type { Queryable } from '../platform/db/database.ts';
import { HMDA_LENDERS_DATASET, filers as filersOf, lenderYears, placeName, transmittalSheetEntry } from '../hmda-aggregates/reads.ts';
import { datasetInfo } from './inputs.ts';
import { count, percent, whole, type Statistic } from './types.ts';

export async function lenderStatistics(db: Queryable): Promise<Statistic[]> {
  const info = await datasetInfo(db, HMDA_LENDERS_DATASET);
  const year = (await lenderYears(db)).at(-1);
  if (!info || year === undefined) return [];
  const lenders = await filersOf(db, year);
  const stats: Statistic[] = [];
  const url = transmittalSheetEntry(year).publisherUrl;
  const add = (id: string, numeric: number, value: string, label: string, headline: string, population: string) =>
    stats.push({
      id,
      category: 'lenders',
      value,
      label,
      headline,
      data_year: year,
      population,
      source_url: url,
      numeric_value: numeric,
      as_of: info.asOf,
    });
  const records = lenders.reduce((sum, row) => sum + row.records, 0);
  const sheet = `the ${year} HMDA transmittal sheet`;
  const filers = `The ${whole(lenders.length)} institutions listed in ${sheet}.`;
  const filerRecords = `The ${whole(records)} records (lar_count) reported by the ${whole(lenders.length)} institutions of ${sheet}.`;

  add(
    `hmda_filers_${year}`,
    lenders.length,
    whole(lenders.length),
    `Institutions that filed HMDA data for ${year}`,
    `${whole(lenders.length)} lenders filed HMDA data for ${year}, reporting ${count(records)} records (${sheet}).`,
    filers,
  );
  const top = lenders[0];
  if (top) {
    const share = (top.records / records) * 100;
    add(
      `top_lender_share_${year}`,
      share,
      percent(share),
      `Share of ${year} HMDA records reported by the largest filer (${top.name})`,
      `${top.name} reported the most HMDA records for ${year}: ${count(top.records)}, ${percent(share)} of all records (${sheet}).`,
      filerRecords,
    );
  }
  const top10 = lenders.slice(0, 10).reduce((sum, row) => sum + row.records, 0);
  const top10Share = (top10 / records) * 100;
  add(
    `top10_lender_share_${year}`,
    top10Share,
    percent(top10Share),
    `Share of ${year} HMDA records reported by the 10 largest filers`,
    `The 10 largest filers reported ${percent(top10Share)} of all ${year} HMDA records (${sheet}).`,
    filerRecords,
  );
  const sorted = lenders.map((row) => row.records).sort((a, b) => a - b);
  const middle = sorted.length / 2;
  const median = sorted.length % 2 === 1 ? (sorted[Math.floor(middle)] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
  add(
    `median_filer_records_${year}`,
    median,
    whole(median),
    `Median number of HMDA records per filer, ${year}`,
    `Half of the ${whole(lenders.length)} HMDA filers for ${year} reported ${whole(median)} records or fewer (${sheet}).`,
    filers,
  );
  const small = lenders.filter((row) => row.records < 100).length;
  const smallShare = (small / lenders.length) * 100;
  add(
    `filers_under_100_records_${year}`,
    smallShare,
    percent(smallShare),
    `Share of ${year} HMDA filers reporting fewer than 100 records`,
    `${percent(smallShare)} of HMDA filers (${whole(small)}) reported fewer than 100 records for ${year} (${sheet}).`,
    filers,
  );
  const byAgency = (code: number) => lenders.filter((row) => row.agencyCode === code);
  const creditUnions = byAgency(5);
  const cuShare = (creditUnions.length / lenders.length) * 100;
  add(
    `credit_union_filer_share_${year}`,
    cuShare,
    percent(cuShare),
    `Share of ${year} HMDA filers supervised by the NCUA (credit unions)`,
    `${whole(creditUnions.length)} of the ${year} HMDA filers (${percent(cuShare)}) were credit unions supervised by the National Credit Union Administration (${sheet}).`,
    filers,
  );
  const hudRecords = byAgency(7).reduce((sum, row) => sum + row.records, 0);
  const hudShare = (hudRecords / records) * 100;
  add(
    `hud_agency_record_share_${year}`,
    hudShare,
    percent(hudShare),
    `Share of ${year} HMDA records from filers whose HMDA agency is HUD (non-bank mortgage companies)`,
    `Filers reporting to HUD, mostly non-bank mortgage companies, accounted for ${percent(hudShare)} of ${year} HMDA records (${sheet}).`,
    filerRecords,
  );
  const states = new Map<string, number>();
  for (const row of lenders) if (row.state) states.set(row.state, (states.get(row.state) ?? 0) + 1);
  const [topState, topCount] = [...states].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0] ?? ['', 0];
  if (topState) {
    add(
      `most_filers_state_${year}`,
      topCount,
      placeName(topState) ?? topState,
      `State where the most ${year} HMDA filers are based`,
      `More HMDA filers for ${year} listed their address in ${placeName(topState) ?? topState} than in any other state: ${whole(topCount)} (${sheet}).`,
      `The ${whole([...states.values()].reduce((sum, n) => sum + n, 0))} institutions of ${sheet} that gave a respondent state, counted by that state.`,
    );
  }
  return stats;
}
