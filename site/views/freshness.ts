// Freshness on the site's pages: how old a series' latest figure is against today and whether its
// publisher has released a newer one since (the same judgement the API's records carry), and the
// words a page shows for a dataset that is not loaded yet (the publisher's series, not our dataset ids);
// and, for the banner (see site/views/format.ts for why views exist), the sentence that says a newer
// release is missing.
import { assessFreshness } from '../../api/freshness/assess.ts';
import type { Freshness } from '../../api/freshness/contract.ts';
import { BUSINESS_DAILY, PMMS_WEEKLY } from '../../api/freshness/schedules.ts';

export type { Freshness } from '../../api/freshness/contract.ts';
export { staleSentence } from '../../api/freshness/assess.ts';

/** The freshness of a rate series' latest figure (`pmms/…` weekly, `optimal-blue/…` each business day). */
export function seriesFreshness(seriesId: string, label: string, asOf: string, today: string): Freshness {
  const schedule = seriesId.startsWith('pmms/') ? PMMS_WEEKLY : BUSINESS_DAILY;
  return assessFreshness({ field: seriesId, series: label, as_of: asOf, schedule }, today);
}

/** "50 days old" or "current". */
export function ageText(entry: Freshness): string {
  const age = entry.age_days === 0 ? 'today' : `${entry.age_days} day${entry.age_days === 1 ? '' : 's'} old`;
  if (!entry.stale) return age;
  const missed = entry.missed_release_count;
  return `${age}, ${missed} newer release${missed === 1 ? '' : 's'} not loaded`;
}

const DATASET_WORDS: Readonly<Record<string, string>> = {
  pmms: "Freddie Mac's weekly mortgage rate survey (PMMS)",
  optimal_blue: "Optimal Blue's daily mortgage rate indices",
  apor: "the FFIEC's Average Prime Offer Rate table",
  state_rate_estimates: 'the state rate estimates from HMDA loan records',
  economic_calendar: "the publishers' release calendars",
  loan_limits_conforming: "FHFA's conforming loan limits",
  loan_limits_fha: "HUD's FHA loan limits",
  counties: "the Census Bureau's county list",
  bills: "congress.gov's records of the tracked bills",
  nmdb: "FHFA's National Mortgage Database state statistics",
  hmda_aggregates: "the FFIEC's HMDA aggregates",
  hmda_lenders: "the FFIEC's HMDA lender list",
  hud_median_family_income: "HUD's median family incomes",
  statistics: 'the market statistics',
  search_index: 'the search index',
};

/** A dataset-state message with the dataset's id replaced by the publisher's series in words. */
export const inWords = (message: string): string =>
  message.replace(/\bThe ([a-z_]+) dataset\b/, (whole, name: string) => {
    const words = DATASET_WORDS[name];
    return words ? `${words.charAt(0).toUpperCase()}${words.slice(1)}` : whole;
  });
