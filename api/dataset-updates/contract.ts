// One published dataset version, as every face that tells of it says it: the feeds
// (/dataset-updates.xml and .json), the webhook payload and the MCP notice's reason. Zod only.
import { z } from 'zod';
import { integer } from '../platform/contract/lenient.ts';

export const DatasetUpdateSchema = z.object({
  id: z.int().describe('The update: increases with each version published, in this database.'),
  dataset: z.string().describe('The dataset, as /healthz and `dataset_versions` name it (e.g. pmms).'),
  description: z.string().describe('What the dataset holds and who publishes it.'),
  version: z.string().describe("The new version: the publisher's vintage and the first 8 hex digits of the content checksum."),
  previous_version: z.string().nullable().describe('The version it replaces; null for the first load.'),
  as_of: z.string().nullable().describe("The publisher's date of the new version (YYYY-MM-DD)."),
  published_at: z.string().describe('When this service published it (ISO 8601).'),
  rows: z.int().describe('Rows the dataset holds now.'),
  previous_rows: z.int().nullable().describe('Rows it held before; null for the first load.'),
  changed_rows: z
    .int()
    .nullable()
    .describe('Rows the load inserted or whose values changed; null where not recorded (versions published before it was kept).'),
  source_url: z.string().describe("The publisher's file or page the version was read from."),
});
export type DatasetUpdate = z.infer<typeof DatasetUpdateSchema>;

/** "1,240 rows (+6), 6 inserted or changed" / "1,234 rows, first load". */
export function countsText(update: DatasetUpdate): string {
  const rows = `${update.rows.toLocaleString('en-US')} rows`;
  const net = update.previous_rows === null ? 'first load' : signed(update.rows - update.previous_rows);
  const changed = update.changed_rows === null ? '' : `, ${update.changed_rows.toLocaleString('en-US')} inserted or changed`;
  return `${rows} (${net})${changed}`;
}

const signed = (value: number) => (value > 0 ? `+${value.toLocaleString('en-US')}` : value === 0 ? '±0' : value.toLocaleString('en-US'));

/** The update in one sentence: what was published, as of when, and what changed in counts. */
export function updateSentence(update: DatasetUpdate): string {
  const asOf = update.as_of === null ? '' : ` as of ${update.as_of}`;
  const replaced = update.previous_version === null ? '' : `, replacing ${update.previous_version}`;
  return `${update.dataset} ${update.version}${asOf}${replaced}: ${countsText(update)}.`;
}

/** GET /dataset-updates: the latest updates, optionally only those after one already seen. */
export const DatasetUpdatesQuerySchema = z.object({
  after: integer({ min: 0, max: Number.MAX_SAFE_INTEGER })
    .optional()
    .describe('Only updates after this one (its `id`): poll with the last id seen.'),
  limit: integer({ min: 1, max: 100 }).default(20).describe('How many, newest first: 1 to 100; default 20.'),
});

export const DatasetUpdatesAnswerSchema = z.object({
  updates: z.array(DatasetUpdateSchema).describe('Newest first.'),
  feeds: z.object({ rss: z.string(), json: z.string() }).describe('The same updates as feeds.'),
});

export const DatasetUpdateParamsSchema = z.object({
  id: integer({ min: 1, max: Number.MAX_SAFE_INTEGER }).describe('The update, as `id` in the list.'),
});
