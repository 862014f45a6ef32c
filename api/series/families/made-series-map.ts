// A family's series made when read, behind the ReadonlyMap a HeldFamily is: the HMDA aggregates and
// HUD's income figures hold hundreds of thousands of series each, too many to make at load. A family
// says how many it holds, which ids it has and how one is made; the map keeps what it made for a
// while, so a series read again while kept is the same object and an answer computed from it is
// still known to be current.
import { BoundedCache } from '../../platform/bounded-cache.ts';
import type { HeldFamily, HeldSeries } from '../types.ts';

export abstract class MadeSeriesMap implements HeldFamily {
  private readonly made: BoundedCache<HeldSeries>;

  /** `keptBytes`: how much of what was made is kept; `bytesPerSeries`: one made series besides its id. */
  constructor({ keptBytes, bytesPerSeries }: { keptBytes: number; bytesPerSeries: number }) {
    this.made = new BoundedCache<HeldSeries>({
      maxBytes: keptBytes,
      sizeOf: (_series, id) => bytesPerSeries + 2 * id.length,
    });
  }

  abstract get size(): number;
  abstract has(id: string): boolean;
  abstract keys(): MapIterator<string>;
  /** The series of an id, made now, or undefined when the family has no such id. */
  protected abstract make(id: string): HeldSeries | undefined;

  get(id: string): HeldSeries | undefined {
    const hit = this.made.get(id);
    if (hit) return hit;
    const series = this.make(id);
    if (series) this.made.set(id, series);
    return series;
  }

  *values(): MapIterator<HeldSeries> {
    for (const id of this.keys()) yield this.get(id) as HeldSeries;
  }

  *entries(): MapIterator<[string, HeldSeries]> {
    for (const id of this.keys()) yield [id, this.get(id) as HeldSeries];
  }

  [Symbol.iterator](): MapIterator<[string, HeldSeries]> {
    return this.entries();
  }

  forEach(callback: (series: HeldSeries, id: string, map: ReadonlyMap<string, HeldSeries>) => void): void {
    for (const [id, series] of this.entries()) callback(series, id, this);
  }
}
