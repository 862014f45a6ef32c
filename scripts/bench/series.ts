// GET /api/v1/series under load (50 connections), beside the same run's Express baseline: the ten
// latest years of Freddie Mac's weekly survey as JSON (target: p50 under 5 ms), the same as CSV and
// as monthly means, a mix of series of every family (first asked, then remembered), and a
// catalogue page.
import type { BenchModule, BenchRow } from './types.ts';
import { runLoad, serviceRow } from './load.ts';
import { isoDay } from '../../api/platform/dates.ts';

/** Ten years back from the series' latest observation (the day after, so exactly 10 × 52 or so weeks). */
function tenYearsBefore(last: string): string {
  const date = new Date(`${last}T00:00:00Z`);
  date.setUTCFullYear(date.getUTCFullYear() - 10);
  date.setUTCDate(date.getUTCDate() + 1);
  return isoDay(date);
}

const STATES = ['CA', 'TX', 'FL', 'NY', 'CO', 'IL', 'WA', 'GA', 'OH', 'AZ'];
const COUNTIES = ['06037', '48201', '17031', '04013', '06073', '12086', '36047', '48113', '06059', '53033'];

export const run: BenchModule = async (context) => {
  const { service, seconds } = context;
  const catalogue = await fetch(`${service.url}/api/v1/series?family=pmms`);
  const listed = ((await catalogue.json()) as { series?: { id: string; last_date: string | null }[] }).series ?? [];
  const latest = listed.find((series) => series.id === 'pmms/30-year')?.last_date;
  if (!latest) throw new Error(`GET /api/v1/series?family=pmms answered ${catalogue.status} without pmms/30-year: is pmms synced?`);
  const range = `from=${tenYearsBefore(latest)}&to=${latest}`;
  const tenYears = `/api/v1/series/pmms/30-year?${range}`;
  const check = await fetch(`${service.url}${tenYears}`);
  const weeks = ((await check.json()) as { count?: number }).count ?? 0;

  const mix = [
    ...STATES.flatMap((state) => [
      `/api/v1/series/nmdb/${state}/ave_intrate`,
      `/api/v1/series/nmdb/${state}/pct_intrate_ge_6?frequency=annual`,
      `/api/v1/series/hmda/${state}/denial_rate`,
    ]),
    ...COUNTIES.flatMap((fips) => [`/api/v1/series/loan-limits/conforming/${fips}`, `/api/v1/series/loan-limits/fha/${fips}?from=2020`]),
    ...[
      'pmms/15-year',
      'optimal-blue/conforming-30-year',
      'optimal-blue/fha-30-year',
      'pmms/5-1-arm',
      'optimal-blue/jumbo-30-year',
    ].flatMap((id) => [`/api/v1/series/${id}?from=2020`, `/api/v1/series/${id}?from=2020&frequency=monthly`]),
    '/api/v1/series/loan-limits/conforming/baseline',
    '/api/v1/series/loan-limits/fha/floor?from=2018',
  ];

  const measurements: { name: string; url: string; requests?: { path: string }[]; target?: boolean }[] = [
    { name: `GET ${tenYears} (${weeks} weekly observations, JSON)`, url: `${service.url}${tenYears}`, target: true },
    { name: `GET ${tenYears}&format=csv`, url: `${service.url}${tenYears}&format=csv` },
    { name: `GET ${tenYears}&frequency=monthly`, url: `${service.url}${tenYears}&frequency=monthly` },
    {
      name: `GET /api/v1/series/… (mix of ${mix.length} series: NMDB, HMDA, county and national limits, PMMS, Optimal Blue)`,
      url: service.url,
      requests: mix.map((path) => ({ path })),
    },
    { name: 'GET /api/v1/series?family=nmdb&state=CA (catalogue page)', url: `${service.url}/api/v1/series?family=nmdb&state=CA` },
  ];
  const rows: BenchRow[] = [];
  for (const { name, url, requests, target } of measurements) {
    const result = await runLoad({ url, connections: 50, durationSeconds: seconds, ...(requests ? { requests } : {}) });
    const row = serviceRow('series', name, result, context);
    rows.push(
      target
        ? { ...row, target: 'p50 < 5 ms (a 10-year weekly series)', met: result.p50Ms < 5 && result.non2xx === 0 && result.errors === 0 }
        : row,
    );
  }
  return rows;
};
