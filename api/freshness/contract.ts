// The shape every answer uses to say how old a figure is and whether a newer release should exist.
import { z } from 'zod';

export const FreshnessSchema = z.object({
  field: z.string().describe('The answer field holding the figure, e.g. `survey_rate`.'),
  series: z.string().describe("The publisher's series in words."),
  as_of: z.string().describe('YYYY-MM-DD of the figure.'),
  checked_on: z.string().describe('The day it is judged against: today, or the `date` asked for.'),
  age_days: z.int().describe('Days from `as_of` to `checked_on`.'),
  schedule: z.string().describe("The publisher's release schedule in words."),
  stale: z
    .boolean()
    .describe('True when at least one scheduled release since `as_of` was published before `checked_on` and is not loaded.'),
  missed_release_count: z.int().describe('Scheduled releases since `as_of` that are not loaded.'),
  missed_releases: z.array(z.string()).describe('Their figure dates (YYYY-MM-DD), the latest 10 at most.'),
});
export type Freshness = z.infer<typeof FreshnessSchema>;
