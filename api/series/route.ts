// GET /series (the catalogue) and GET /series/{id} (one series over time, JSON or CSV). The schemas
// are the series contract's; the id may hold its slashes as they are or encoded (%2F).
import { createHash } from 'node:crypto';
import type { Request, Response } from 'express';
import type { AppDeps } from '../deps.ts';
import { DATA_CACHE_CONTROL, RESPONSE_WRITTEN, apiRoutes } from '../platform/http/api-registry.ts';
import { routeContract } from '../platform/http/route-contract.ts';
import { errorResponses } from '../platform/http/error-responses.ts';
import { CatalogueAnswerSchema, CatalogueQuerySchema, SeriesAnswerSchema, SeriesPathSchema, SeriesQuerySchema } from './contract.ts';
import type { CsvAnswer } from './service.ts';

/** Each CSV answer's bytes and strong ETag, computed once per remembered answer. */
const encoded = new WeakMap<CsvAnswer, { bytes: Buffer; etag: string }>();

function sendCsv(req: Request, res: Response, csv: CsvAnswer): void {
  let entry = encoded.get(csv);
  if (!entry) {
    const bytes = Buffer.from(csv.text, 'utf8');
    entry = { bytes, etag: `"${bytes.length.toString(16)}-${createHash('sha1').update(bytes).digest('base64').slice(0, 27)}"` };
    encoded.set(csv, entry);
  }
  res.setHeader('Cache-Control', DATA_CACHE_CONTROL);
  res.setHeader('Content-Type', 'text/csv; charset=utf-8');
  res.setHeader('Content-Disposition', `inline; filename="${csv.fileName}"`);
  res.setHeader('ETag', entry.etag);
  if (req.fresh) {
    res.removeHeader('Content-Type');
    res.statusCode = 304;
    res.end();
    return;
  }
  res.setHeader('Content-Length', entry.bytes.length);
  if (req.method === 'HEAD') res.end();
  else res.end(entry.bytes);
}

const routes = {
  listSeries: routeContract({
    method: 'get',
    path: '/series',
    operationId: 'listSeries',
    example: {},
    summary: 'Catalogue of every series over time: rates, FHFA state rates, loan limits, HUD income limits, HMDA aggregates',
    description:
      'Every series this service holds, with its id, title, publisher, frequency, units, first and last date, source and as-of date, ' +
      'one page at a time (`limit`, `offset`), filtered by `family`, `state` or words (`query`). `families` says which families can answer ' +
      'now and, for one whose data is not loaded, why. With `query`, `codes` says what the HMDA codes its words name mean ' +
      '("denial reason 3", "loan purpose 32"; every code of a field whose codes it asks for: "what codes can HOEPA status take"), from the ' +
      'same code book as the MCP tool `find_series`; and words about lenders ("which institution reported the most HMDA records in ' +
      '2020") get `lenders`: that year\'s HMDA filers (name, LEI, records reported, share of the national total), most records first. ' +
      'A year whose filer list is not loaded gives no `lenders`.',
    tags: ['Series'],
    query: CatalogueQuerySchema,
    responses: { 200: { description: 'The catalogue page', schema: CatalogueAnswerSchema }, ...errorResponses([]) },
  }),
  getSeries: routeContract({
    method: 'get',
    path: '/series/*id',
    operationId: 'getSeries',
    example: { params: { id: 'pmms/30-year' }, query: { from: '2026-01' } },
    summary: 'One series over time, in a date range, as published or averaged to a coarser frequency, as JSON or CSV',
    description:
      'Observations from `from` to `to` (inclusive; a year or month covers all of it), as published or averaged (`frequency`: the method ' +
      'is stated in `aggregation.method`), with the source and as-of date. `format=csv` answers `text/csv`: one row per observation with ' +
      'the series id, period, value, count (averages), source URL and as-of date.',
    tags: ['Series'],
    params: SeriesPathSchema,
    query: SeriesQuerySchema,
    responses: {
      200: { description: 'The series in the range asked for', schema: SeriesAnswerSchema, otherContentTypes: ['text/csv'] },
      ...errorResponses({
        400: "Invalid parameters: a malformed date, 'from' after 'to', or a frequency the series cannot be averaged to; the message says which.",
        404: 'No series has this id (the message says where the catalogue is), or the series has no observation in the range (the message gives its span).',
        503: 'The datasets this series is read from are not loaded yet; see Retry-After.',
      }),
    },
  }),
};

export const seriesRoutes = apiRoutes(routes, (deps: AppDeps) => ({
  listSeries: ({ query }) => deps.services.catalogue.seriesCatalogueJson(query),

  getSeries: async ({ params, query, req, res }) => {
    if (query.format === 'csv') {
      sendCsv(req, res, await deps.services.series.answerCsv(params.id, query));
      return RESPONSE_WRITTEN;
    }
    return deps.services.series.answerJson(params.id, query);
  },
}));
