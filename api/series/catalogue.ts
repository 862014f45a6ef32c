// The catalogue: every family with whether it can answer now, and every series held, filtered by
// family, state and words, one page at a time. A family whose datasets are not loaded is listed with
// the reason and holds no series; the others answer as usual.
import { significantWords } from '../platform/contract/words.ts';
import type { CatalogueAnswer, CatalogueQuery, FamilyId, SeriesInfo } from './contract.ts';
import { ID_SYNTAX } from './contract.ts';
import type { FamilyDescription } from './types.ts';

export interface FamilyState {
  family: FamilyDescription;
  /** The family's series (as the catalogue lists them), or why it cannot answer. */
  series: SeriesInfo[] | { message: string };
}

const LOAN_LIMIT_FAMILIES: readonly FamilyId[] = ['loan-limits-national', 'loan-limits-conforming', 'loan-limits-fha'];

function matchesFamily(family: FamilyId, filter: CatalogueQuery['family']): boolean {
  if (filter === undefined) return true;
  return filter === 'loan-limits' ? LOAN_LIMIT_FAMILIES.includes(family) : family === filter;
}

export function buildCatalogue(
  states: readonly FamilyState[],
  query: CatalogueQuery,
  wordsOf: (info: SeriesInfo) => ReadonlySet<string>,
): CatalogueAnswer {
  const words = query.query === undefined ? [] : significantWords(query.query);
  const matching: SeriesInfo[] = [];
  for (const { family, series } of states) {
    if (!matchesFamily(family.id, query.family) || !Array.isArray(series)) continue;
    for (const info of series) {
      if (query.state !== undefined && !info.id.split('/').includes(query.state)) continue;
      if (words.length > 0) {
        const held = wordsOf(info);
        if (!words.every((word) => held.has(word))) continue;
      }
      matching.push(info);
    }
  }
  const sources = new Map<string, { url: string; as_of: string | null; name: string }>();
  for (const info of matching)
    if (!sources.has(info.source_url)) sources.set(info.source_url, { url: info.source_url, as_of: info.as_of, name: info.publisher });
  return {
    families: states.map(({ family, series }) => ({
      id: family.id,
      title: family.title,
      publisher: family.publisher,
      frequency: family.frequency,
      id_pattern: family.idPattern,
      example: family.example,
      datasets: [...family.datasets],
      available: Array.isArray(series),
      ...(Array.isArray(series) ? {} : { message: series.message }),
      series: Array.isArray(series) ? series.length : 0,
    })),
    series: matching.slice(query.offset, query.offset + query.limit),
    total: matching.length,
    limit: query.limit,
    offset: query.offset,
    filters: { family: query.family ?? null, state: query.state ?? null, query: query.query ?? null },
    id_syntax: ID_SYNTAX,
    sources: [...sources.values()],
  };
}
