// Housing release schedules kept by hand, one file per publisher (data/calendar/housing/*.json):
// Census (New Residential Construction and Sales), NAR (existing and pending home sales), FHFA
// (House Price Index) and S&P (Case-Shiller). None of them publishes a machine-readable schedule
// (HTML tables, a .docx), so each date is transcribed from the publisher's page with the page's
// URL, the words it was read from, and where that copy was read. Years whose schedule could not be
// found are listed with the reason instead of being estimated.
import path from 'node:path';
import { z } from 'zod';
import { ValidationError } from '../sync/errors.ts';
import { MONTH_NAMES } from '../platform/contract/months.ts';
import { seriesEvent, type CalendarEventRecord, type SeriesId } from './series.ts';

export const HOUSING_SERIES = [
  'housing_starts',
  'new_home_sales',
  'existing_home_sales',
  'pending_home_sales',
  'fhfa_hpi',
  'case_shiller',
] as const;
export type HousingSeries = (typeof HOUSING_SERIES)[number] & SeriesId;

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

const ReleaseSchema = z.object({
  series: z.enum(HOUSING_SERIES),
  date: z.iso.date(),
  /** The reference month the publisher names ("September 2026"). */
  period: z.string().regex(/^[A-Z][a-z]+ \d{4}$/),
  /** Appended to the series description (e.g. FHFA's quarterly releases). */
  detail: z.string().min(5).optional(),
  /** The publisher's page that states this date. */
  sourceUrl: z.url(),
  /** The publisher's words the date was read from. */
  quote: z.string().min(8),
  /** Where the copy of the page was read, when not from the page itself. */
  readFrom: z.string().min(10).optional(),
});

export const HousingFactFileSchema = z.object({
  publisher: z.string().min(3),
  series: z.array(z.enum(HOUSING_SERIES)).min(1),
  description: z.string().min(10),
  /** When the dates were last checked against the publisher's pages. */
  asOf: z.iso.date(),
  years: z.array(z.object({ year: z.int(), sourceUrl: z.url(), coverage: z.string().min(5) })),
  yearsNotFound: z.array(z.object({ year: z.int(), why: z.string().min(10) })),
  notes: z.array(z.string()),
  releases: z.array(ReleaseSchema),
});

export type HousingFactFile = z.infer<typeof HousingFactFileSchema>;

export interface HousingPublisher {
  /** Names the part (`census` → `census-release-schedule`). */
  id: string;
  file: string;
  /** As the file must name it. */
  name: string;
  series: readonly HousingSeries[];
}

export const HOUSING_PUBLISHERS: readonly HousingPublisher[] = [
  { id: 'census', file: 'census.json', name: 'U.S. Census Bureau', series: ['housing_starts', 'new_home_sales'] },
  { id: 'nar', file: 'nar.json', name: 'National Association of Realtors', series: ['existing_home_sales', 'pending_home_sales'] },
  { id: 'fhfa', file: 'fhfa.json', name: 'Federal Housing Finance Agency', series: ['fhfa_hpi'] },
  { id: 'sp-case-shiller', file: 'sp-case-shiller.json', name: 'S&P Dow Jones Indices', series: ['case_shiller'] },
];

export const housingFactPath = (factsDir: string, publisher: HousingPublisher): string => path.join(factsDir, 'housing', publisher.file);

/**
 * Checks what a schema cannot: each release's year is one the file claims to cover, a series the
 * file's publisher owns, on a weekday (the one its quote names, when it names one), after its
 * reference month, and listed once.
 */
export function checkHousingFacts(facts: HousingFactFile, file: string): void {
  const years = new Set(facts.years.map((year) => year.year));
  for (const missing of facts.yearsNotFound) {
    if (years.has(missing.year)) throw new ValidationError(`${file}: ${missing.year} is listed both as covered and as not found`);
  }
  if (facts.releases.length === 0 && facts.yearsNotFound.length === 0) {
    throw new ValidationError(`${file}: no releases and no year explained as not found`);
  }
  const seen = new Set<string>();
  for (const release of facts.releases) {
    const where = `${file}: ${release.series} ${release.date}`;
    if (!years.has(Number(release.date.slice(0, 4))))
      throw new ValidationError(`${where}: ${release.date.slice(0, 4)} is not among the years the file covers`);
    if (!facts.series.includes(release.series))
      throw new ValidationError(`${where}: ${release.series} is not a series of ${facts.publisher}`);
    const day = new Date(`${release.date}T12:00:00Z`);
    const weekday = WEEKDAYS[day.getUTCDay()] ?? '';
    if (weekday === 'Sat' || weekday === 'Sun') throw new ValidationError(`${where}: falls on a ${weekday}`);
    const abbreviation = /\b(mon|tue|wed|thu|fri|sat|sun)[a-z]*\.?,/i.exec(release.quote)?.[1];
    const named = abbreviation ? `${abbreviation.charAt(0).toUpperCase()}${abbreviation.slice(1, 3).toLowerCase()}` : undefined;
    if (named && named !== weekday) throw new ValidationError(`${where}: the quote names a ${named} but the date is a ${weekday}`);
    const [monthName = '', yearText = ''] = release.period.split(' ');
    const month = (MONTH_NAMES as readonly string[]).indexOf(monthName);
    if (month < 0) throw new ValidationError(`${where}: "${release.period}" is not a month`);
    if (release.date < `${yearText}-${String(month + 1).padStart(2, '0')}-32`)
      throw new ValidationError(`${where}: not after its reference month ${release.period}`);
    const key = `${release.series}|${release.date}`;
    if (seen.has(key)) throw new ValidationError(`${where}: listed twice`);
    seen.add(key);
  }
}

/** Parses and checks a publisher's file; with `publisher`, the file must be that publisher's. */
export function readHousingFacts(text: string, file: string, publisher?: HousingPublisher): HousingFactFile {
  const facts = HousingFactFileSchema.parse(JSON.parse(text));
  if (publisher && (facts.publisher !== publisher.name || facts.series.join() !== publisher.series.join())) {
    throw new ValidationError(
      `${file}: expected ${publisher.name}'s ${publisher.series.join(', ')} schedule, found ${facts.publisher}'s ${facts.series.join(', ')}`,
    );
  }
  checkHousingFacts(facts, file);
  return facts;
}

export function housingEvents(facts: HousingFactFile): CalendarEventRecord[] {
  return facts.releases.map((release) => seriesEvent(release.series, release.date, release.period, release.detail, release.sourceUrl));
}
