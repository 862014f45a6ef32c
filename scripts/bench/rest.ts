// REST data endpoints under load, each beside the bare-Express baseline of the same run. The /rates
// target is judged by the rates family, on rounds interleaved with Express.
import type { BenchModule, BenchRow } from './types.ts';
import { runLoad, serviceRow } from './load.ts';

export const REST_PATHS = [
  '/api/v1/rates',
  '/api/v1/rates?state=TX&fico=2&format=simple',
  '/api/v1/statistics?category=market_overview',
  '/api/v1/calendar',
  '/api/v1/escrow?state=IL&closing_month=3',
  '/api/v1/loan-limits?state=CA&county=Los%20Angeles&year=2026',
];

export const run: BenchModule = async (context) => {
  const { service, seconds } = context;
  const rows: BenchRow[] = [];
  for (const path of REST_PATHS) {
    const result = await runLoad({ url: `${service.url}${path}`, connections: 50, durationSeconds: seconds });
    rows.push(serviceRow('rest', `GET ${path}`, result, context));
  }
  return rows;
};
