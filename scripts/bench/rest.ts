// REST data endpoints, each side by side with a bare Express app answering the same body bytes
// (fetched from the service first), in the service's default configuration (access log on).
// Targets: /rates >= 0.85 of that baseline; statistics, escrow, calendar and loan limits >= 0.6.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { BenchModule, BenchRow } from './types.ts';
import { startBodyBaseline } from './baseline.ts';
import { compareSideBySide, sideBySideRow } from './side-by-side.ts';

export const REST_PATHS: { path: string; minimum?: number }[] = [
  { path: '/api/v1/rates', minimum: 0.85 },
  { path: '/api/v1/rates?state=TX&fico=2&format=simple' },
  { path: '/api/v1/statistics?category=market_overview', minimum: 0.6 },
  { path: '/api/v1/calendar', minimum: 0.6 },
  { path: '/api/v1/escrow?state=IL&closing_month=3', minimum: 0.6 },
  { path: '/api/v1/loan-limits?state=CA&county=Los%20Angeles&year=2026', minimum: 0.6 },
];

export const BODY_BASELINE = 'bare Express, same body';

export const run: BenchModule = async (context) => {
  const rows: BenchRow[] = [];
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mds-bench-bodies-'));
  try {
    for (const [index, { path: route, minimum }] of REST_PATHS.entries()) {
      const response = await fetch(`${context.service.url}${route}`);
      if (response.status !== 200) throw new Error(`GET ${route} answered ${response.status}: is its dataset synced?`);
      const file = path.join(dir, `body-${index}`);
      fs.writeFileSync(file, Buffer.from(await response.arrayBuffer()));
      const baseline = await startBodyBaseline(file, response.headers.get('content-type') ?? 'application/json');
      try {
        const result = await compareSideBySide(context, baseline, route, '/');
        rows.push(sideBySideRow('rest', `GET ${route}`, BODY_BASELINE, result, context, minimum));
      } finally {
        await baseline.stop();
      }
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  return rows;
};
