// The catalogue: every family with whether it can answer now, and every series held, filtered by
// family and state, one page at a time; with words, the series the catalogue of measures ranked for
// them (api/catalogue/), best first. A family whose datasets are not loaded is listed with the reason
// and holds no series; the others answer as usual. Only the page's series are described: a family
// may make its series when read (the HMDA aggregates hold hundreds of thousands).
import type { CatalogueAnswer, CatalogueQuery, FamilyId, SeriesInfo } from './contract.ts';
import { ID_SYNTAX } from './contract.ts';
import type { FamilyDescription, HeldFamily, HeldSeries } from './types.ts';
import { codeAnswer, codesNamedIn } from '../catalogue/code-book.ts';

export interface FamilyState {
  family: FamilyDescription;
  /** The family's series as held, or why it cannot answer. */
  series: HeldFamily | { message: string };
}

const LOAN_LIMIT_FAMILIES: readonly FamilyId[] = ['loan-limits-national', 'loan-limits-conforming', 'loan-limits-fha'];

function matchesFamily(family: FamilyId, filter: CatalogueQuery['family']): boolean {
  if (filter === undefined) return true;
  return filter === 'loan-limits' ? LOAN_LIMIT_FAMILIES.includes(family) : family === filter;
}

const isHeld = (series: FamilyState['series']): series is HeldFamily => !('message' in series);

/** The ids the filters keep, in order: every family's in the family order, or the ranked ones. */
function* matchingIds(
  states: readonly FamilyState[],
  query: CatalogueQuery,
  ranked: readonly string[] | undefined,
  familyOf: (id: string) => FamilyId | undefined,
): Generator<{ id: string; held: HeldFamily }> {
  const inState = (id: string) => query.state === undefined || id.split('/').includes(query.state);
  const byFamily = new Map(states.flatMap((state) => (isHeld(state.series) ? [[state.family.id, state.series] as const] : [])));
  if (ranked) {
    for (const id of ranked) {
      const family = familyOf(id);
      const held = family === undefined ? undefined : byFamily.get(family);
      if (family && held && matchesFamily(family, query.family) && inState(id) && held.has(id)) yield { id, held };
    }
    return;
  }
  for (const { family, series } of states) {
    if (!matchesFamily(family.id, query.family) || !isHeld(series)) continue;
    for (const id of series.keys()) if (inState(id)) yield { id, held: series };
  }
}

/** Without words or a state, a family's count is its size: only the families the page falls in are read. */
function pageOfFamilies(states: readonly FamilyState[], query: CatalogueQuery): { page: HeldSeries[]; total: number } {
  const page: HeldSeries[] = [];
  let total = 0;
  for (const { family, series } of states) {
    if (!matchesFamily(family.id, query.family) || !isHeld(series)) continue;
    if (page.length < query.limit && query.offset < total + series.size) {
      const skip = Math.max(0, query.offset - total);
      let index = 0;
      for (const id of series.keysFrom?.(skip) ?? series.keys()) {
        if (series.keysFrom !== undefined || index >= skip) page.push(series.get(id) as HeldSeries);
        index += 1;
        if (page.length >= query.limit) break;
      }
    }
    total += series.size;
  }
  return { page, total };
}

export function buildCatalogue(
  states: readonly FamilyState[],
  query: CatalogueQuery,
  /** How the catalogue lists a series: made for the page's series only. */
  describe: (series: HeldSeries) => SeriesInfo,
  ranked: readonly string[] | undefined,
  familyOf: (id: string) => FamilyId | undefined,
): CatalogueAnswer {
  let { page, total } = { page: [] as HeldSeries[], total: 0 };
  if (ranked === undefined && query.state === undefined) ({ page, total } = pageOfFamilies(states, query));
  else
    for (const { id, held } of matchingIds(states, query, ranked, familyOf)) {
      if (total >= query.offset && page.length < query.limit) page.push(held.get(id) as HeldSeries);
      total += 1;
    }
  const sources = new Map<string, { url: string; as_of: string | null; name: string }>();
  for (const one of page)
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
      series: isHeld(series) ? series.size : 0,
    })),
    series: page.map(describe),
    ...(query.query === undefined ? {} : { codes: codesNamedIn(query.query).map(codeAnswer) }),
    total,
    limit: query.limit,
    offset: query.offset,
    filters: { family: query.family ?? null, state: query.state ?? null, query: query.query ?? null },
    id_syntax: ID_SYNTAX,
    sources: [...sources.values()],
  };
}
