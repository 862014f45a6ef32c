// When a dataset's figures can next change: the day its publisher next releases (the schedules of
// ./schedules.ts), by dataset name. Caching hints (MCP's `ttlMs`) say an answer stays valid until
// then; a dataset without a publisher's schedule changes when our own refresh next runs.
import { APOR_WEEKLY, BUSINESS_DAILY, FHFA_YEARLY, HUD_YEARLY, PMMS_WEEKLY, type ReleaseSchedule } from './schedules.ts';
import { addDays, isoDay } from '../platform/dates.ts';

/** The datasets whose publisher releases on a known schedule. */
const DATASET_SCHEDULES: Readonly<Record<string, ReleaseSchedule>> = {
  pmms: PMMS_WEEKLY,
  optimal_blue: BUSINESS_DAILY,
  apor: APOR_WEEKLY,
  loan_limits_conforming: FHFA_YEARLY,
  loan_limits_fha: HUD_YEARLY,
};

/** Far enough ahead to hold the next release of a yearly schedule. */
const LOOK_AHEAD_DAYS = 400;

const found = new Map<string, string | null>();

/**
 * The start (00:00 UTC) of the first day after `now`'s day on which the dataset's publisher releases
 * a new figure; undefined for a dataset without a schedule. Remembered per dataset and day.
 */
export function nextScheduledRelease(dataset: string, now: Date): Date | undefined {
  const schedule = DATASET_SCHEDULES[dataset];
  if (schedule === undefined) return undefined;
  const today = isoDay(now);
  const key = `${dataset}|${today}`;
  let day = found.get(key);
  if (day === undefined) {
    // A release's figure may be dated after the day it is published (APOR): start a week back.
    const next = schedule
      .releasesBetween(addDays(today, -7), addDays(today, LOOK_AHEAD_DAYS))
      .find((release) => release.publishedOn > today);
    day = next?.publishedOn ?? null;
    if (found.size > 256) found.clear();
    found.set(key, day);
  }
  return day === null ? undefined : new Date(`${day}T00:00:00Z`);
}
