// The series as an MCP resource template: mds://series/{+id}, optionally with the REST query
// (mds://series/pmms/30-year?from=2016-10-08&frequency=monthly). A series too long for a client's
// context is answered as monthly (then annual) means, saying so and where the full data is.
import { ResourceTemplate, type McpServer } from '@modelcontextprotocol/server';
import type { CoreDeps } from '../platform/core-deps.ts';
import type { UsesServices } from '../domain-services.ts';
import type { SeriesAnswer } from '../series/contract.ts';
import { completing } from './completions.ts';

/** The series, and the logger a failed completion is reported to. */
type SeriesResourceDeps = Pick<CoreDeps, 'logger'> & UsesServices<'series'>;

/** About 15,000 tokens of JSON: well inside what common MCP clients accept in one result. */
export const SERIES_RESOURCE_BUDGET = 60_000;

function split(id: string): { id: string; query: Record<string, string> } {
  const mark = id.indexOf('?');
  if (mark === -1) return { id: decodeURIComponent(id), query: {} };
  return { id: decodeURIComponent(id.slice(0, mark)), query: Object.fromEntries(new URLSearchParams(id.slice(mark + 1))) };
}

async function withinBudget(
  deps: SeriesResourceDeps,
  id: string,
  query: Record<string, string>,
): Promise<{ answer: SeriesAnswer; note?: string }> {
  const answer = await deps.services.series.answer(id, query);
  if (JSON.stringify(answer).length <= SERIES_RESOURCE_BUDGET || query.frequency !== undefined) return { answer };
  for (const frequency of ['monthly', 'annual'] as const) {
    if (answer.native_frequency === 'annual' || (frequency === 'monthly' && answer.native_frequency === 'quarterly')) continue;
    const averaged = await deps.services.series.answer(id, { ...query, frequency });
    if (JSON.stringify(averaged).length <= SERIES_RESOURCE_BUDGET || frequency === 'annual') {
      return {
        answer: averaged,
        note:
          `${answer.count} ${answer.native_frequency} observations are more than one resource holds, so these are ${frequency} means ` +
          `(${averaged.aggregation?.method ?? ''}). Narrow the range with ?from=YYYY-MM-DD&to=YYYY-MM-DD, or download every observation: ${answer.csv_url}`,
      };
    }
  }
  return { answer };
}

export function registerSeriesResource(server: McpServer, deps: SeriesResourceDeps): void {
  server.registerResource(
    'series',
    new ResourceTemplate('mds://series/{+id}', {
      list: undefined,
      complete: { id: completing(deps, (typed) => deps.services.series.complete(typed, 100)) },
    }),
    {
      title: 'A series over time',
      description:
        'Observations of one series with its source and as-of date, e.g. mds://series/pmms/30-year?from=2016-10-08, ' +
        'mds://series/nmdb/CA/ave_intrate, mds://series/loan-limits/conforming/06037 or mds://series/hmda/TX/denial_rate?frequency=native. ' +
        'Accepts the query of GET /api/v1/series/{id} (from, to, frequency). The catalogue of ids is GET /api/v1/series.',
      mimeType: 'application/json',
    },
    async (uri, { id }) => {
      const request = split(String(id));
      const { answer, note } = await withinBudget(deps, request.id, request.query);
      const summary =
        `${answer.title}: ${answer.count} ${answer.frequency} observations from ${answer.observations[0]?.date} to ${answer.observations.at(-1)?.date}, ` +
        `${answer.units}. Source: ${answer.source.name} (${answer.source.url}), as of ${answer.as_of}.${note ? ` ${note}` : ''}`;
      return {
        contents: [
          { uri: uri.href, mimeType: 'application/json', text: JSON.stringify(answer) },
          { uri: `${uri.href}#text`, mimeType: 'text/plain', text: summary },
        ],
      };
    },
  );
}
