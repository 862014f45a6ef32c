// The catalogue: every family with whether it can answer now, and every series held, filtered by
// family, state and words, one page at a time. A family whose datasets are not loaded is listed with
// the reason and holds no series; the others answer as usual.
import { significantWords } from '../platform/contract/words.ts';
import type { CatalogueAnswer, CatalogueQuery, FamilyId, SeriesInfo } from './contract.ts';
import { ID_SYNTAX } from './contract.ts';
import type { FamilyDescription, HeldSeries } from './types.ts';

export interface FamilyState {
  family: FamilyDescription;
  /** The family's series as held, or why it cannot answer. */
  series: readonly HeldSeries[] | { message: string };
}

const LOAN_LIMIT_FAMILIES: readonly FamilyId[] = ['loan-limits-national', 'loan-limits-conforming', 'loan-limits-fha'];

function matchesFamily(family: FamilyId, filter: CatalogueQuery['family']): boolean {
  if (filter === undefined) return true;
  return filter === 'loan-limits' ? LOAN_LIMIT_FAMILIES.includes(family) : family === filter;
}

const isHeld = (series: FamilyState['series']): series is readonly HeldSeries[] => Array.isArray(series);

export function buildCatalogue(
  states: readonly FamilyState[],
  query: CatalogueQuery,
  wordsOf: (series: HeldSeries) => ReadonlySet<string>,
  /** How the catalogue lists a series: made for the page's series only (tens of thousands are held). */
  describe: (series: HeldSeries) => SeriesInfo,
): CatalogueAnswer {
  const words = query.query === undefined ? [] : significantWords(query.query);
  const matching: HeldSeries[] = [];
  for (const { family, series } of states) {
    if (!matchesFamily(family.id, query.family) || !isHeld(series)) continue;
    for (const one of series) {
      if (query.state !== undefined && !one.id.split('/').includes(query.state)) continue;
      if (words.length > 0) {
        const held = wordsOf(one);
        if (!words.every((word) => held.has(word))) continue;
      }
      matching.push(one);
    }
  }
  const sources = new Map<string, { url: string; as_of: string | null; name: string }>();
  for (const one of matching)
    if (!sources.has(one.sourceUrl)) sources.set(one.sourceUrl, { url: one.sourceUrl, as_of: one.asOf, name: one.publisher });
  return {
    families: states.map(({ family, series }) => ({
      id: family.id,
      title: family.title,
      publisher: family.publisher,
      frequency: family.frequency,
      id_pattern: family.idPattern,
      example: family.example,
      datasets: [...family.datasets],
      available: isHeld(series),
      ...(isHeld(series) ? {} : { message: series.message }),
      series: isHeld(series) ? series.length : 0,
    })),
    series: matching.slice(query.offset, query.offset + query.limit).map(describe),
    total: matching.length,
    limit: query.limit,
    offset: query.offset,
    filters: { family: query.family ?? null, state: query.state ?? null, query: query.query ?? null },
    id_syntax: ID_SYNTAX,
    sources: [...sources.values()],
  };
}
