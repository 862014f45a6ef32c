// Where a figure comes from: every tool result and every converted REST body lists its sources with
// their as-of dates, so a caller can cite them.
import { z } from 'zod';

export const SourceSchema = z.object({
  url: z.string().describe('Where the data comes from (publisher page or our page).'),
  as_of: z.string().nullable().describe('YYYY-MM-DD the data is current as of, when known.'),
  name: z.string().optional().describe('Publisher or document name.'),
});
export type Source = z.infer<typeof SourceSchema>;
