// The `economic_calendar` dataset: FOMC meetings, BLS releases (BLS's iCalendar feed and the
// mirror's CPI history), housing releases (Census, NAR, FHFA, S&P fact files) and Freddie Mac's
// weekly survey, upserted into calendar_events on (series, date). Each publisher's part loads on
// its own (./parts.ts): a part that fails keeps its earlier rows, and the dataset record and
// /healthz say which part is missing and why.
import path from 'node:path';
import { PROJECT_ROOT } from '../config.ts';
import { ValidationError } from '../sync/errors.ts';
import { combineChecksums } from '../sync/source.ts';
import type { DatasetDefinition, SyncContext } from '../sync/types.ts';
import { upsertRows } from '../sync/upsert.ts';
import { FED_CALENDAR_URL } from './fomc.ts';
import { CALENDAR_PARTS, describe, isPartFailure, type CalendarPart, type PartFile, type PartOutcome } from './parts.ts';
import type { CalendarEventRecord } from './series.ts';
import { archiveCalendar } from './snapshot.ts';
import { dayText, isoDay } from '../platform/dates.ts';

export { crossCheckFomcMirror } from './parts.ts';

export const CALENDAR_DATASET = 'economic_calendar';
export const CALENDAR_FACTS_DIR = path.join(PROJECT_ROOT, 'data', 'calendar');

export type PartStatus = 'loaded' | 'failed' | 'not-configured';

export interface PartReport {
  title: string;
  publisher: string;
  status: PartStatus;
  events?: number;
  asOf?: string;
  /** Why the part did not load: one sentence, no server paths. */
  reason?: string;
  warnings?: string[];
  details?: Record<string, unknown>;
}

const keyOf = (event: Pick<CalendarEventRecord, 'series' | 'date'>): string => `${event.series}|${event.date}`;

/**
 * The feed speaks for BLS's CPI dates within its span: a CPI-history row inside that span that the
 * feed does not list is a date BLS moved (the 2025 lapse in appropriations), so it is dropped.
 */
function applyFeedPrecedence(history: PartOutcome, feed: PartOutcome): PartOutcome {
  const span = feed.details?.span as { first: string; last: string } | undefined;
  if (!span) return history;
  const feedKeys = new Set(feed.events.map(keyOf));
  const dropped: string[] = [];
  const events = history.events.filter((event) => {
    const inSpan = event.date >= span.first && event.date <= span.last;
    if (inSpan && !feedKeys.has(keyOf(event))) dropped.push(event.date);
    return !inSpan;
  });
  return { ...history, events, details: { ...history.details, supersededByFeed: dropped } };
}

/** Removes server paths (the mirror folder, the project folder) from a message shown by /healthz. */
function withoutPaths(message: string, context: SyncContext): string {
  let text = message;
  for (const prefix of [context.config.sourceDir, PROJECT_ROOT]) {
    if (prefix) text = text.split(`${prefix.replace(/[/\\]+$/, '')}${path.sep}`).join('');
  }
  return text;
}

export function createCalendarDataset({
  factsDir = CALENDAR_FACTS_DIR,
  parts = CALENDAR_PARTS,
}: { factsDir?: string; parts?: readonly CalendarPart[] } = {}): DatasetDefinition {
  return {
    name: CALENDAR_DATASET,
    description:
      "Economic calendar: FOMC decisions, BLS releases (CPI, jobs, PPI, JOLTS...), Census, NAR and FHFA housing releases, Freddie Mac's weekly rate survey",
    syncByDefault: true,
    archive: archiveCalendar,
    async load(tx, context) {
      const reports: Record<string, PartReport> = {};
      const outcomes = new Map<string, PartOutcome>();
      let cpiReferenceMonths = new Map<string, string>();
      for (const part of parts) {
        const report: PartReport = { title: part.title, publisher: part.publisher, status: 'loaded' };
        reports[part.id] = report;
        try {
          const outcome = await part.load({ context, factsDir, cpiReferenceMonths });
          if (outcome === 'not-configured') {
            report.status = 'not-configured';
            continue;
          }
          outcomes.set(part.id, outcome);
          const months = outcome.details?.referenceMonths;
          if (months && typeof months === 'object') cpiReferenceMonths = new Map(Object.entries(months as Record<string, string>));
        } catch (error) {
          if (!isPartFailure(error)) throw error;
          report.status = 'failed';
          report.reason = withoutPaths(describe(error), context);
          context.logger.warn(
            { part: part.id, err: report.reason },
            'calendar part not loaded; its earlier rows stay served (fix the file, then `npm run sync -- economic_calendar`)',
          );
        }
      }
      if (outcomes.size === 0) {
        throw new ValidationError(
          `economic calendar: no part loaded (${Object.values(reports)
            .map((report) => `${report.title}: ${report.reason ?? report.status}`)
            .join('; ')})`,
        );
      }
      const history = outcomes.get('bls-cpi-release-dates');
      const feed = outcomes.get('bls-release-calendar');
      if (history && feed) outcomes.set('bls-cpi-release-dates', applyFeedPrecedence(history, feed));

      // Later parts win a shared (series, date): the feed's CPI release over the CPI history's.
      const events = new Map<string, { event: CalendarEventRecord; origin: string }>();
      const files: PartFile[] = [];
      for (const part of parts) {
        const outcome = outcomes.get(part.id);
        if (!outcome) continue;
        for (const event of outcome.events) events.set(keyOf(event), { event, origin: part.id });
        files.push(...outcome.files);
        const report = reports[part.id] as PartReport;
        Object.assign(report, { events: outcome.events.length, ...(outcome.asOf ? { asOf: outcome.asOf } : {}) });
        if (outcome.warnings?.length) report.warnings = outcome.warnings.map((warning) => withoutPaths(warning, context));
        if (outcome.details) {
          // The CPI months are already in the event names; the record keeps the rest.
          const rest = { ...outcome.details };
          delete rest.referenceMonths;
          if (Object.keys(rest).length > 0) report.details = rest;
        }
      }

      const rows = [...events.values()].map(({ event, origin }) => [
        event.series,
        event.date,
        event.name,
        event.impact,
        event.category,
        event.description,
        event.sourceUrl,
        origin,
      ]);
      let changed = await upsertRows(tx, {
        table: 'calendar_events',
        key: ['series', 'date'],
        columns: ['series', 'date', 'name', 'impact', 'category', 'description', 'source_url', 'origin'],
        rows,
        onBatch: (done, total) => context.progress(done, total),
      });
      // A loaded part's rows it no longer lists (a moved release) are removed; a failed part's rows
      // stay. Keys compare as text: a date column reads back as a Date.
      for (const part of parts) {
        if (!outcomes.has(part.id)) continue;
        const keys = [...events.entries()].filter(([, entry]) => entry.origin === part.id).map(([key]) => key);
        const deleted = await tx.query(
          `DELETE FROM calendar_events
            WHERE origin = ANY($1::text[]) AND series = ANY($2::text[])
              AND NOT (series || '|' || to_char(date, 'YYYY-MM-DD') = ANY($3::text[]))`,
          [[part.id, ...(part.legacyOrigins ?? [])], [...part.series], keys],
        );
        changed += deleted.rowCount;
      }

      const missing = Object.values(reports).flatMap((report) => [
        ...(report.status === 'failed' ? [`${report.title} did not load: ${report.reason}; its earlier events stay served.`] : []),
        ...(report.warnings ?? []),
      ]);
      const total = await tx.query<{ count: string | number }>('SELECT count(*) AS count FROM calendar_events');
      const bySeries: Record<string, number> = {};
      for (const { event } of events.values()) bySeries[event.series] = (bySeries[event.series] ?? 0) + 1;
      // The newest vintage of the parts that carry one (the BLS feed carries none). When none of
      // them loaded, the previous record's date stands; only a first load ever falls back to today.
      const vintages = Object.values(reports)
        .map((report) => report.asOf)
        .filter((value): value is string => Boolean(value));
      const previous = await tx.query<{ as_of: string | Date | null }>('SELECT as_of FROM datasets WHERE name = $1', [CALENDAR_DATASET]);
      const previousAsOf = previous.rows[0]?.as_of;
      const fallback = previousAsOf ? dayText(previousAsOf) : isoDay(context.clock());
      return {
        asOf: vintages.sort().at(-1) ?? fallback,
        sourceUrl: FED_CALENDAR_URL,
        checksum: combineChecksums(files),
        rows: Number(total.rows[0]?.count ?? 0),
        changed,
        details: { parts: reports, missing, bySeries, files: files.map((file) => file.entry.id) },
      };
    },
  };
}

export const calendarDataset: DatasetDefinition = createCalendarDataset();
