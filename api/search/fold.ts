// Folding repeated passages: the county research pages are written from one set of sentences, so a
// word they share ("jumbo") finds the same passage on hundreds of them, differing only in the
// county's name and figures. A result whose excerpt, without its own title's words, numbers and
// markup, is one an earlier result of the same type already showed is left out and counted on it.
import type { SearchHit } from './query.ts';

export interface FoldedHit {
  hit: SearchHit;
  /** Pages folded into this one. */
  similar: number;
}

/** The excerpt's words that are neither the page's own names (its title), figures, nor two-letter words. */
export function passageShape(hit: Pick<SearchHit, 'excerpt' | 'title' | 'type'>): string {
  const own = new Set(hit.title.toLowerCase().match(/\p{L}+/gu) ?? []);
  const words = hit.excerpt
    .replace(/<\/?mark>/g, '')
    .replace(/&[a-z]+;/g, ' ')
    .toLowerCase()
    .match(/\p{L}+/gu);
  // Words of two letters are left out too: a state's code in a title ("Benton County, IN") is also a word of the passage.
  return `${hit.type}:${(words ?? []).filter((word) => word.length > 2 && !own.has(word)).join(' ')}`;
}

/** The hits in order, each passage once, with how many later hits shared it. */
export function foldRepeatedPassages(hits: readonly SearchHit[]): FoldedHit[] {
  const kept: FoldedHit[] = [];
  const byShape = new Map<string, FoldedHit>();
  for (const hit of hits) {
    const shape = passageShape(hit);
    const first = byShape.get(shape);
    if (first) first.similar += 1;
    else {
      const folded = { hit, similar: 0 };
      byShape.set(shape, folded);
      kept.push(folded);
    }
  }
  return kept;
}
