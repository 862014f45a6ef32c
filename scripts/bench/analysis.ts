// GET /api/v1/analysis under load (50 connections), beside the same run's Express baseline: every
// state ranked by originations (target: p50 under 20 ms), the same ranking for each year (one
// request shape per year and order, so the front door's one-second copy serves little of it), and a
// mix of the other operations.
import type { BenchModule, BenchRow } from './types.ts';
import { runLoad, serviceRow } from './load.ts';

const RANKING = '/api/v1/analysis/rank?series=hmda/*/originations&at=2024&limit=51';

export const run: BenchModule = async (context) => {
  const { service, seconds } = context;
  // The first ranking reads the HMDA family into memory; the measurement is of answers after that.
  const first = await fetch(`${service.url}${RANKING}`);
  const ranked = ((await first.json()) as { result?: { members?: unknown[] } }).result?.members?.length ?? 0;
  if (first.status !== 200 || ranked !== 51)
    throw new Error(`GET ${RANKING} answered ${first.status} with ${ranked} states: is hmda_aggregates synced?`);
  const years = [2018, 2019, 2020, 2021, 2022, 2023, 2024, 2025].flatMap((year) =>
    ['highest', 'lowest'].map((order) => ({ path: `/api/v1/analysis/rank?series=hmda/*/denial_rate&at=${year}&order=${order}&limit=51` })),
  );
  const mix = [
    '/api/v1/analysis/count?series=pmms/30-year&from=2023&to=2023&above=7',
    '/api/v1/analysis/crossing?series=pmms/30-year&below=6',
    '/api/v1/analysis/change?series=pmms/30-year&from=2021&to=2023',
    '/api/v1/analysis/compare?series=pmms/30-year&other=pmms/15-year&at=2025-09-25',
    '/api/v1/analysis/extremes?series=pmms/30-year&from=2022&to=2022',
    '/api/v1/analysis/payment?amount=400000&series=pmms/30-year',
    '/api/v1/analysis/share?part=hmda/CA/originations&whole=hmda/US/originations&at=2024',
    '/api/v1/analysis/per-resident?series=hmda/FL/originations&at=2024',
    '/api/v1/analysis/rank?series=nmdb/*/ave_intrate&limit=5',
    '/api/v1/analysis/count?series=loan-limits/conforming/*&state=CO&at=2026&above=loan-limits/conforming/baseline',
  ].map((path) => ({ path }));
  for (const { path } of [...years, ...mix]) await fetch(`${service.url}${path}`).then((response) => response.arrayBuffer());

  const measurements: { name: string; url: string; requests?: { path: string }[]; target?: boolean }[] = [
    { name: `GET ${RANKING} (51 states ranked)`, url: `${service.url}${RANKING}`, target: true },
    {
      name: `GET /api/v1/analysis/rank?series=hmda/*/denial_rate… (51 states, ${years.length} year × order shapes)`,
      url: service.url,
      requests: years,
    },
    {
      name: `GET /api/v1/analysis/… (mix of ${mix.length}: count, crossing, change, compare, extremes, payment, share, per-resident, rank, county count)`,
      url: service.url,
      requests: mix,
    },
  ];
  const rows: BenchRow[] = [];
  for (const { name, url, requests, target } of measurements) {
    const result = await runLoad({ url, connections: 50, durationSeconds: seconds, ...(requests ? { requests } : {}) });
    const row = serviceRow('analysis', name, result, context);
    rows.push(
      target
        ? { ...row, target: 'p50 < 20 ms (51-state ranking)', met: result.p50Ms < 20 && result.non2xx === 0 && result.errors === 0 }
        : row,
    );
  }
  return rows;
};
