// Search: the full-text JSON API and the on-demand /search page (rendered per request by Astro),
// each beside the bare-Express baseline of the same run.
import type { BenchModule, BenchRow } from './types.ts';
import { runLoad, serviceRow } from './load.ts';

const PATHS = ['/api/v1/search?query=escrow', '/api/v1/search?query=loan%20limit&type=glossary&limit=20', '/search?query=escrow'];

export const run: BenchModule = async (context) => {
  const { service, seconds } = context;
  const rows: BenchRow[] = [];
  for (const path of PATHS) {
    const probe = await fetch(`${service.url}${path}`);
    await probe.arrayBuffer();
    if (probe.status !== 200) throw new Error(`GET ${path} answered ${probe.status}: is search_index synced and the site built?`);
    const result = await runLoad({ url: `${service.url}${path}`, connections: 50, durationSeconds: seconds });
    rows.push(serviceRow('search', `GET ${path}`, result, context));
  }
  return rows;
};
