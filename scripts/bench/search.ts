// Search: the full-text JSON API and the on-demand /search page (rendered per request by Astro),
// each beside the bare-Express baseline of the same run.
import type { BenchModule, BenchRow } from './types.ts';
import { peakRssMb, runLoad } from './load.ts';

const PATHS = ['/api/v1/search?query=escrow', '/api/v1/search?query=loan%20limit&type=glossary&limit=20', '/search?query=escrow'];

export const run: BenchModule = async ({ service, baselines, seconds }) => {
  const rows: BenchRow[] = [];
  for (const path of PATHS) {
    const probe = await fetch(`${service.url}${path}`);
    await probe.arrayBuffer();
    if (probe.status !== 200) throw new Error(`GET ${path} answered ${probe.status}: is search_index synced and the site built?`);
    const result = await runLoad({ url: `${service.url}${path}`, connections: 50, durationSeconds: seconds });
    rows.push({
      family: 'search',
      name: `GET ${path}`,
      requestsPerSecond: result.requestsPerSecond,
      p50Ms: result.p50Ms,
      p99Ms: result.p99Ms,
      errors: result.errors + result.non2xx,
      peakRssMb: peakRssMb(service.pid),
      baseline: 'express hello',
      ratio: result.requestsPerSecond / baselines.express.requestsPerSecond,
    });
  }
  return rows;
};
