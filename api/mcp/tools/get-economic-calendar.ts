// get_economic_calendar: upcoming events that move mortgage rates (FOMC decisions, CPI, jobs,
// housing releases, the weekly rate survey), filtered by impact, category and date range.
import { z } from 'zod';
import { sourceSchema, sourcesText, type ToolContext } from '../tool-kit.ts';
import { BadRequestError } from '../../platform/http/errors.ts';

const isoDay = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'use YYYY-MM-DD');
const impacts = ['high', 'medium', 'low'] as const;
const categories = ['fed', 'inflation', 'employment', 'housing'] as const;

export const getEconomicCalendarTool = {
  name: 'get_economic_calendar',
  title: 'Economic calendar',
  description:
    'Upcoming economic events that move mortgage rates: FOMC rate decisions (Federal Reserve), the jobs report, CPI and ' +
    "other BLS releases, housing releases (Census, NAR, FHFA) and Freddie Mac's weekly mortgage rate survey, each with " +
    'date, impact (high/medium/low), category and source. Defaults to today through 60 days ahead.',
  input: {
    from: isoDay.optional().describe('First day, YYYY-MM-DD (default today).'),
    to: isoDay.optional().describe('Last day, YYYY-MM-DD, inclusive (default from + 60 days).'),
    impact: z.array(z.enum(impacts)).optional().describe('Only these impact levels: high, medium, low.'),
    category: z.array(z.enum(categories)).optional().describe('Only these categories: fed, inflation, employment, housing.'),
  },
  output: {
    from: z.string(),
    to: z.string(),
    events: z.array(
      z.object({
        name: z.string(),
        date: z.string(),
        impact: z.enum(impacts),
        category: z.enum(categories),
        description: z.string(),
        source_url: z.string(),
      }),
    ),
    sources: z.array(sourceSchema),
  },
  async run(
    args: { from?: string | undefined; to?: string | undefined; impact?: (typeof impacts)[number][] | undefined; category?: (typeof categories)[number][] | undefined },
    { deps }: ToolContext,
  ) {
    if (args.from && args.to && args.from > args.to) throw new BadRequestError("'from' must be on or before 'to'.");
    const result = await deps.services.calendar.getEvents({
      ...(args.from ? { from: args.from } : {}),
      ...(args.to ? { to: args.to } : {}),
      ...(args.impact ? { impact: args.impact } : {}),
      ...(args.category ? { category: args.category } : {}),
    });
    const events = result.events.map((event) => ({
      name: event.name,
      date: event.date,
      impact: event.impact,
      category: event.category,
      description: event.description,
      source_url: event.sourceUrl,
    }));
    const sources = result.sources.map((url) => ({ url, as_of: result.asOf }));
    const text =
      events.length === 0
        ? `No events between ${result.from} and ${result.to} match.`
        : events.map((event) => `${event.date}  ${event.name} (${event.impact}, ${event.category})`).join('\n') + `\n\n${sourcesText(sources)}`;
    return { structured: { from: result.from, to: result.to, events, sources }, text };
  },
};
