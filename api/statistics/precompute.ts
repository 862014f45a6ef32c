// Computes the statistics catalogue from the synced tables and writes it to `statistics` (inside the
// caller's transaction): every figure comes from a query or a documented computation, never a typed
// value. A catalogue that falls short of the coverage gate is refused and the previous one stays.
import type { Queryable } from '../platform/db/database.ts';
import { ValidationError } from '../sync/errors.ts';
import { deleteMissingRows, upsertRows } from '../sync/upsert.ts';
import { affordabilityStatistics } from './compute-affordability.ts';
import { hmdaStatistics } from './compute-hmda.ts';
import { lenderStatistics } from './compute-lenders.ts';
import { limitStatistics } from './compute-limits.ts';
import { rateStatistics } from './compute-rates.ts';
import { STAT_YEAR_MAX, STAT_YEAR_MIN } from './contract.ts';
import { CATEGORIES, type Statistic } from './types.ts';

export const MIN_PER_CATEGORY = 5;
export const MIN_TOTAL = 40;

export async function computeCatalogue(db: Queryable): Promise<Statistic[]> {
  const stats: Statistic[] = [];
  for (const compute of [hmdaStatistics, rateStatistics, limitStatistics, affordabilityStatistics, lenderStatistics])
    stats.push(...(await compute(db)));
  return stats.sort((a, b) => a.category.localeCompare(b.category) || a.id.localeCompare(b.id));
}

export function checkCatalogue(stats: readonly Statistic[]): void {
  const problems: string[] = [];
  const ids = new Set<string>();
  for (const stat of stats) {
    if (ids.has(stat.id)) problems.push(`duplicate id ${stat.id}`);
    ids.add(stat.id);
    if (!/^[a-z0-9_]+$/.test(stat.id)) problems.push(`${stat.id}: id must be lower-case letters, digits and underscores`);
    if (!Number.isFinite(stat.numeric_value)) problems.push(`${stat.id}: computed value is not a number`);
    if (!stat.value || /NaN|Infinity|undefined/.test(`${stat.value} ${stat.label} ${stat.headline} ${stat.population}`))
      problems.push(`${stat.id}: text holds an uncomputed value`);
    // A figure whose source states no year does not belong in the catalogue (data_year is an integer).
    if (!Number.isInteger(stat.data_year) || stat.data_year < STAT_YEAR_MIN || stat.data_year > STAT_YEAR_MAX)
      problems.push(`${stat.id}: data_year ${stat.data_year}`);
    if (!stat.population.trim()) problems.push(`${stat.id}: no population`);
    if (!/^https:\/\//.test(stat.source_url)) problems.push(`${stat.id}: source_url ${stat.source_url}`);
    if (!/^\d{4}-\d{2}-\d{2}$/.test(stat.as_of)) problems.push(`${stat.id}: as_of ${stat.as_of}`);
  }
  for (const category of CATEGORIES) {
    const n = stats.filter((stat) => stat.category === category).length;
    if (n < MIN_PER_CATEGORY) problems.push(`category ${category} has ${n} statistics (at least ${MIN_PER_CATEGORY} required)`);
  }
  if (stats.length < MIN_TOTAL) problems.push(`${stats.length} statistics in all (at least ${MIN_TOTAL} required)`);
  if (problems.length > 0) throw new ValidationError(`The statistics catalogue was not published: ${problems.join('; ')}.`);
}

const COLUMNS = [
  'id',
  'category',
  'value',
  'label',
  'headline',
  'data_year',
  'population',
  'source_url',
  'numeric_value',
  'as_of',
] as const;

/** Computes, checks and stores the catalogue; resolves to the statistics and the rows changed. */
export async function precomputeStatistics(tx: Queryable): Promise<{ stats: Statistic[]; changed: number }> {
  const stats = await computeCatalogue(tx);
  checkCatalogue(stats);
  const rows = stats.map((stat) => COLUMNS.map((column) => stat[column]));
  let changed = await upsertRows(tx, { table: 'statistics', key: ['id'], columns: COLUMNS, rows });
  changed += await deleteMissingRows(tx, { table: 'statistics', key: ['id'], scope: 'TRUE', keep: stats.map((stat) => [stat.id]) });
  return { stats, changed };
}
