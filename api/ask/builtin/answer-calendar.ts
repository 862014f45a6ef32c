// "When is the next Fed meeting?": upcoming events from the economic calendar, filtered by what the
// question names (Fed, CPI, jobs, housing), with dates and sources.
import type { Composer } from './draft.ts';
import { formatDate } from './draft.ts';
import { addDays, isoDay } from '../../platform/dates.ts';

function wantedCategory(question: string): 'fed' | 'inflation' | 'employment' | 'housing' | undefined {
  if (/\b(fed|fomc|federal reserve|rate decision)\b/i.test(question)) return 'fed';
  if (/\b(cpi|inflation|consumer price|ppi|producer price|pce)\b/i.test(question)) return 'inflation';
  if (/\b(jobs?|employment|payrolls?|unemployment|jolts)\b/i.test(question)) return 'employment';
  if (/\b(housing starts|home sales|construction|housing)\b/i.test(question)) return 'housing';
  return undefined;
}

const RELEASE_NAMES = {
  fed: 'Federal Reserve (FOMC)',
  inflation: 'Consumer Price Index (CPI) or other inflation',
  employment: 'Employment Situation (jobs report)',
  housing: 'housing data',
} as const;

export const answerCalendar: Composer = async ({ question, deps }) => {
  const category = wantedCategory(question);
  const from = isoDay(deps.clock());
  const to = addDays(from, 400);
  const answer = await deps.services.calendar.answer({ from, to, ...(category ? { category: [category] } : {}), limit: category ? 5 : 8 });
  const events = answer.events;
  if (events.length === 0) {
    const release = category ? RELEASE_NAMES[category] : 'economic';
    return {
      text:
        `I have no upcoming ${release} release dates on the calendar after ${formatDate(from)}. ` +
        (category === 'inflation' || category === 'employment'
          ? "I hold no Bureau of Labor Statistics release dates for that period, so I won't guess one; BLS publishes its schedule at https://www.bls.gov/schedule/."
          : "I hold no publisher's schedule for that period, so I won't guess a date."),
      sources: [
        `${deps.config.baseUrl}/calendar`,
        ...(category === 'inflation' || category === 'employment' ? ['https://www.bls.gov/schedule/'] : []),
      ],
    };
  }
  const [next] = events;
  const lines = events.map((event) => `- ${formatDate(event.date)} (${event.date}): ${event.name} — ${event.impact} impact`);
  return {
    text: [
      next
        ? `The next ${category === 'fed' ? 'Federal Reserve (FOMC) decision' : 'event'} is **${next.name}** on **${formatDate(next.date)}**.`
        : '',
      'Upcoming:',
      lines.join('\n'),
      category === 'fed'
        ? 'The FOMC sets the federal funds rate; mortgage rates follow longer-term yields, which often move on the decision and the statement.'
        : '',
    ]
      .filter(Boolean)
      .join('\n\n'),
    sources: [...new Set(events.map((event) => event.source_url))],
    versions: answer.dataset_versions,
  };
};
