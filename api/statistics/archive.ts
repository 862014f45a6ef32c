// The statistics catalogue's rows as the service reads them: from the table for the current load,
// and archived with each load's version so an `as_of` answer can be read again.
import type { Queryable } from '../platform/db/database.ts';
import type { StatRecord } from './contract.ts';
import { dayText } from '../platform/dates.ts';

/** What the `statistics` dataset's load is archived as: the catalogue's rows. */
export interface StatisticsArchive {
  rows: StatRow[];
}

export type StatRow = Omit<StatRecord, 'as_of' | 'data_year'> & {
  as_of: unknown;
  /** Null only in a catalogue archived while undated statistics were still kept (the service drops them). */
  data_year: number | null;
};

const STAT_COLUMNS = 'id, category, value, label, headline, data_year, population, source_url, as_of';

export async function readRows(db: Queryable): Promise<StatRow[]> {
  const { rows } = await db.query<StatRow>(`SELECT ${STAT_COLUMNS} FROM statistics ORDER BY category, id`);
  return rows.map((row) => ({
    ...row,
    as_of: dayText(row.as_of),
  }));
}

export const archiveStatistics = async (db: Queryable): Promise<StatisticsArchive> => ({ rows: await readRows(db) });
