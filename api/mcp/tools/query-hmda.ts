// query_hmda: HMDA loan records — preset queries (rates, approvals, denials, demographics, lender
// rankings) or a read-only SQL SELECT over the `lar` view — for key holders only. The schemas are
// the HMDA contract's, shared with GET /hmda/presets/{preset} and POST /hmda/sql. A result over the
// answer budget arrives as its first rows plus resource links to a CSV and a Parquet file of every row.
import type { ResourceLink } from '@modelcontextprotocol/sdk/types.js';
import { defineTool } from '../tool-kit.ts';
import { HMDA_YEAR_SPAN } from '../../hmda/codes.ts';
import {
  HMDA_ANSWER_BUDGET_BYTES,
  HMDA_TEXT_BUDGET_BYTES,
  HmdaAnswerSchema,
  HMDA_TOTALS_POINTER,
  HmdaQuerySchema,
  type HmdaAnswer,
} from '../../hmda/contract.ts';
import { ServiceUnavailableError, UnauthorizedError } from '../../platform/errors.ts';
import { howToGetAKey } from '../../access/identity.ts';

const MAX_TEXT_ROWS = 20;
/** The text table shows the start of long values; structured content has them whole. */
const MAX_CELL_CHARACTERS = 60;
const BUDGET = `${Math.round(HMDA_ANSWER_BUDGET_BYTES / 1000)} KB`;

const megabytes = (bytes: number) => `${(bytes / 1e6).toFixed(bytes < 1e7 ? 2 : 0)} MB`;

function cell(value: unknown): string {
  const text = typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value ?? '');
  return text.length > MAX_CELL_CHARACTERS ? `${text.slice(0, MAX_CELL_CHARACTERS)}…` : text;
}

/** The answer as text: a table of the first rows, what is missing from it and where to get it, the source. */
export function hmdaAnswerText(answer: HmdaAnswer): string {
  const head = [
    answer.synthetic ? 'NOTE: SYNTHETIC benchmark data, not real loans.' : '',
    answer.partial ? 'NOTE: this server holds extracts of state-years, not whole geographies; totals are not those of any area.' : '',
    answer.complete
      ? `${answer.row_count.toLocaleString('en-US')} row${answer.row_count === 1 ? '' : 's'}.`
      : `${answer.row_count.toLocaleString('en-US')} rows: more than an answer carries (${BUDGET}). The first ${answer.rows.length} are below; every row is in the CSV and Parquet files linked with this result.`,
    answer.columns.join(' | '),
  ];
  const tail = [
    answer.rows.length > MAX_TEXT_ROWS ? `… ${answer.rows.length - MAX_TEXT_ROWS} more rows in structured content.` : '',
    answer.export
      ? `Files (every row; download with your API key in the X-API-Key header; Range requests resume an interrupted download; kept until ${answer.export.expires_at}): CSV ${answer.export.csv_url} (${megabytes(answer.export.csv_bytes)}), Parquet ${answer.export.parquet_url} (${megabytes(answer.export.parquet_bytes)}).`
      : '',
    `Source: ${answer.source}, ${answer.sources[0]?.url ?? ''} (as of ${answer.as_of})`,
  ];
  const budget = HMDA_TEXT_BUDGET_BYTES - Buffer.byteLength([...head, ...tail].join('\n')) - 200;
  const table: string[] = [];
  let used = 0;
  for (const row of answer.rows.slice(0, MAX_TEXT_ROWS)) {
    const line = answer.columns.map((column) => cell(row[column])).join(' | ');
    used += Buffer.byteLength(line) + 1;
    if (used > budget) {
      table.push('… (wide rows: the rest are in structured content)');
      break;
    }
    table.push(line);
  }
  return [...head, ...table, ...tail].filter(Boolean).join('\n');
}

/** The two export files: how each is named, typed and described. */
const EXPORT_FORMATS = [
  { extension: 'csv', url: 'csv_url', bytes: 'csv_bytes', label: 'CSV', mimeType: 'text/csv', contents: 'CSV with a header line' },
  {
    extension: 'parquet',
    url: 'parquet_url',
    bytes: 'parquet_bytes',
    label: 'Parquet',
    mimeType: 'application/vnd.apache.parquet',
    contents: 'Parquet with the column types',
  },
] as const;

/** The export files as MCP resource links (https URLs the client downloads with its key). */
export function exportLinks(answer: HmdaAnswer): ResourceLink[] {
  const exported = answer.export;
  if (!exported) return [];
  const rows = `${exported.rows.toLocaleString('en-US')} rows`;
  return EXPORT_FORMATS.map((format) => ({
    type: 'resource_link',
    uri: exported[format.url],
    name: `hmda-${exported.id.slice(0, 12)}.${format.extension}`,
    title: `Every row of the HMDA result as ${format.label} (${rows})`,
    description: `${format.contents}, ${rows}. Needs the X-API-Key header; supports Range requests. Kept until ${exported.expires_at}.`,
    mimeType: format.mimeType,
    size: exported[format.bytes],
  }));
}

export const queryHmdaTool = defineTool({
  name: 'query_hmda',
  title: 'HMDA records',
  requiresKey: true,
  description:
    `HMDA loan records, ${HMDA_YEAR_SPAN}, if loaded; needs an API key (totals, code meanings, top filers: find_series). A \`preset\` ` +
    `with filters, or \`sql\`; over ${BUDGET}: first rows and CSV/Parquet links.`,
  inputSchema: HmdaQuerySchema,
  outputSchema: HmdaAnswerSchema,
  uses: ['hmda'],
  async run(args, { deps, caller }) {
    if (caller.kind !== 'key') {
      // Nothing to query yet: that comes first, since a key would not help (and then what a key is for).
      if (deps.services.hmda.asOf() === undefined) {
        const note = deps.services.hmda.progress.publicNote();
        throw new ServiceUnavailableError(
          `HMDA loan records are not loaded on this server yet.${note ? ` ${note}` : ''} Once they are, query_hmda needs an API key: ${howToGetAKey(deps.config)} ${HMDA_TOTALS_POINTER}`,
          300,
        );
      }
      throw new UnauthorizedError(`query_hmda needs an API key. ${howToGetAKey(deps.config)}`);
    }
    const answer = await deps.services.hmda.answer(args, { keyId: caller.keyId, accountId: caller.accountId });
    return { structured: answer, text: hmdaAnswerText(answer), links: exportLinks(answer) };
  },
});
