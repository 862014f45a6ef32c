// The REST face of the HMDA warehouse, for key holders (as query_hmda is): one GET per preset
// (/hmda/presets/rates …), POST /hmda/sql for one read-only SELECT, and the downloads of results
// over the answer budget (/hmda/exports/{file}), served with Range support so an interrupted
// download resumes. The schemas are the HMDA contract's.
import path from 'node:path';
import type { Request } from 'express';
import { z } from 'zod';
import type { AppDeps } from '../deps.ts';
import { howToGetAKey } from '../access/identity.ts';
import { RESPONSE_WRITTEN, apiRoutes, type ResponseWritten, type RouteHandler, type RouteInput } from '../platform/http/api-registry.ts';
import { routeContract } from '../platform/http/route-contract.ts';
import { errorResponses, ErrorBodySchema } from '../platform/http/error-responses.ts';
import { HttpError, NotFoundError, UnauthorizedError } from '../platform/errors.ts';
import { strictArguments } from '../platform/contract/strict.ts';
import { HMDA_ANSWER_BUDGET_BYTES, HMDA_EXPORT_TTL_HOURS, HmdaAnswerSchema, HmdaFiltersSchema, HmdaSqlBodySchema } from './contract.ts';
import { PRESET_OPTIONS } from './answers.ts';
import { PRESET_NAMES, type PresetName } from './codes.ts';
import { EXPORT_FORMATS } from './exports.ts';

const PRESET_SUMMARIES: Record<PresetName, string> = {
  rates: 'HMDA interest rates: median and mean interest rate and rate spread of originated loans, by loan type',
  approvals: 'HMDA approvals: applications by outcome, approval and origination rates, by loan type',
  denials: 'HMDA denials: denial rate and the most cited denial reasons',
  demographics: 'HMDA demographics: applications, originations, approval and denial rates by race, ethnicity, sex, age or income',
  lender_rankings: 'HMDA lender rankings: top lenders by originations or dollar volume, with market shares',
};

const BUDGET_NOTE =
  `A result over ${HMDA_ANSWER_BUDGET_BYTES.toLocaleString('en-US')} bytes comes back with \`complete: false\`, its first rows, the row count and ` +
  `\`export\`: URLs of a CSV and a Parquet file holding every row (kept ${HMDA_EXPORT_TTL_HOURS} hours, downloaded with the same key).`;

const pascal = (name: string) => name.replace(/(^|_)([a-z])/g, (_, __, letter: string) => letter.toUpperCase());

/** The key's id and account, or a 401 saying how to get a key: HMDA records answer key holders only. */
function requireKey(req: Request, deps: AppDeps): { keyId: string; accountId: string } {
  const identity = req.identity;
  if (identity?.kind !== 'key')
    throw new UnauthorizedError(`HMDA loan records need an API key (X-API-Key header). ${howToGetAKey(deps.config)}`);
  return { keyId: identity.keyId, accountId: identity.accountId };
}

const ExportFileSchema = z.object({
  file: z
    .string()
    .regex(/^[0-9a-f]{64}\.(csv|parquet)$/, {
      error: "Give the export's file name as in its URL: 64 hex characters, then .csv or .parquet.",
    })
    .describe('The file name from `export.csv_url` or `export.parquet_url`: the export id, then .csv or .parquet.'),
});

/** The route of one preset, as data. */
export function hmdaPresetRoute(preset: PresetName) {
  return routeContract({
    method: 'get',
    path: `/hmda/presets/${preset}`,
    operationId: `getHmdaPreset${pascal(preset)}`,
    example: {
      query: Object.fromEntries(
        Object.entries({ year: '2024', state: 'CO' }).filter(([name]) => (PRESET_OPTIONS[preset] as readonly string[]).includes(name)),
      ),
    },
    summary: PRESET_SUMMARIES[preset],
    description: `HMDA loan/application records (FFIEC public LAR) for key holders; the same answer as the MCP tool query_hmda with \`preset: ${preset}\`. ${BUDGET_NOTE}`,
    tags: ['HMDA'],
    query: HmdaFiltersSchema.pick(
      Object.fromEntries(PRESET_OPTIONS[preset].map((name) => [name, true])) as Record<keyof typeof HmdaFiltersSchema.shape, true>,
    ),
    cache: 'none',
    responses: {
      200: { description: 'The preset answer, with the SQL it ran, its as-of and source', schema: HmdaAnswerSchema },
      ...errorResponses({ 404: 'No HMDA records are loaded for the state and year asked; the message says what is.' }),
    },
  });
}

const hmdaOtherRoutes = {
  queryHmdaSql: routeContract({
    method: 'post',
    path: '/hmda/sql',
    operationId: 'queryHmdaSql',
    example: { body: { sql: "SELECT loan_type, count(*) AS n FROM lar WHERE year = 2024 AND state = 'CO' GROUP BY loan_type" } },
    summary: 'One read-only SQL SELECT over the HMDA loan records (views lar and lenders)',
    description:
      'For key holders; the same answer as the MCP tool query_hmda with `sql`. The query runs in a sandbox process with a time and ' +
      `memory limit; anything but one SELECT over the views is refused with a 400 saying why. ${BUDGET_NOTE}`,
    tags: ['HMDA'],
    body: strictArguments(HmdaSqlBodySchema, 'parameter'),
    corsMethods: 'POST',
    responses: {
      200: { description: 'The rows, with the SQL that ran, its as-of and source', schema: HmdaAnswerSchema },
    },
  }),
  getHmdaExport: routeContract({
    method: 'get',
    path: '/hmda/exports/:file',
    operationId: 'getHmdaExport',
    summary: 'Download every row of an HMDA result that was over the answer budget (CSV or Parquet)',
    description:
      `The file named by \`export.csv_url\` or \`export.parquet_url\` of an HMDA answer, for key holders, kept ${HMDA_EXPORT_TTL_HOURS} hours after ` +
      'it was written. Supports `Range` (and `If-Range` with the ETag) so an interrupted download resumes: a ranged request answers 206 ' +
      'with `Content-Range`, a range past the end 416.',
    tags: ['HMDA'],
    params: ExportFileSchema,
    cache: 'none',
    responses: {
      200: {
        description: 'The whole file',
        schema: z.string(),
        contentType: EXPORT_FORMATS.csv,
        otherContentTypes: [EXPORT_FORMATS.parquet],
      },
      206: {
        description: 'The requested byte range (`Content-Range` says which)',
        contentType: EXPORT_FORMATS.csv,
        otherContentTypes: [EXPORT_FORMATS.parquet],
      },
      ...errorResponses({ 404: 'No such export is kept (never written, or expired and deleted): ask the question again for new files.' }),
      412: { description: 'If-Match named an ETag the file no longer has.', schema: ErrorBodySchema },
      416: { description: 'The range starts past the end of the file; `Content-Range` gives its size.', schema: ErrorBodySchema },
    },
  }),
};

type PresetRoute = ReturnType<typeof hmdaPresetRoute>;

/** Every preset's route, as data, by preset. */
const presetRoutes = Object.fromEntries(PRESET_NAMES.map((preset) => [preset, hmdaPresetRoute(preset)])) as Record<PresetName, PresetRoute>;

/** Sends one kept export file, with Range support; a missing or expired one is a 404. */
async function sendExport(
  deps: AppDeps,
  { params, req, res }: RouteInput<z.ZodObject, z.ZodType, typeof ExportFileSchema>,
): Promise<ResponseWritten> {
  requireKey(req, deps);
  const found = deps.services.hmda.exports.find(params.file);
  if (!found) {
    throw new NotFoundError(
      `No export ${params.file} is kept here: exports are deleted ${HMDA_EXPORT_TTL_HOURS} hours after they are written. Ask the same question again for new files.`,
    );
  }
  const remaining = Math.max(0, Math.floor((Date.parse(found.record.expiresAt) - Date.now()) / 1000));
  res.setHeader('Cache-Control', `private, max-age=${remaining}`);
  res.setHeader('Content-Disposition', `attachment; filename="hmda-${found.record.id.slice(0, 12)}.${found.format}"`);
  await new Promise<void>((resolve, reject) => {
    // Sent by name from the exports folder: a path given whole would be refused where a folder on
    // it starts with a dot, as the default DATA_DIR (./.data) does.
    const options = {
      root: path.dirname(found.path),
      headers: { 'Content-Type': EXPORT_FORMATS[found.format] },
      acceptRanges: true,
      etag: true,
      lastModified: true,
      cacheControl: false,
    };
    res.sendFile(path.basename(found.path), options, (error?: Error & { status?: number }) => {
      if (!error || res.headersSent) return resolve(); // done, or the client went away mid-transfer
      if (error.status === 416) {
        const size = found.format === 'csv' ? found.record.csvBytes : found.record.parquetBytes;
        return reject(
          new HttpError(416, `The range ${String(req.headers.range)} starts past the end of the file (${size} bytes).`, {
            'Content-Range': `bytes */${size}`,
          }),
        );
      }
      if (error.status === 412)
        return reject(new HttpError(412, 'The file changed since the ETag given in If-Match; download it again from the start.'));
      reject(error);
    });
  });
  return RESPONSE_WRITTEN;
}

export const hmdaRoutes = apiRoutes({ ...presetRoutes, ...hmdaOtherRoutes }, (deps: AppDeps) => {
  const presetHandler =
    (preset: PresetName): RouteHandler<PresetRoute> =>
    ({ query, req }) =>
      deps.services.hmda.answer({ ...query, preset }, requireKey(req, deps));
  return {
    ...(Object.fromEntries(PRESET_NAMES.map((preset) => [preset, presetHandler(preset)])) as Record<PresetName, RouteHandler<PresetRoute>>),
    queryHmdaSql: ({ body, req }) => deps.services.hmda.answer({ sql: body.sql }, requireKey(req, deps)),
    getHmdaExport: (input) => sendExport(deps, input),
  };
});
