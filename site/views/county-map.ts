// What a county map shows, worked out on the server: each county's outline (api/geo/county-shapes.ts)
// filled by the band its value falls in, the frame to draw (the whole country or one state), and a
// legend that counts the counties in each band. Conforming loan limits are banded against FHFA's
// national baseline and high-cost ceiling; and the shapes' publisher, credited under every map.
import { countyShapes, NATION_FRAME, type CountyShape } from '../../api/geo/county-shapes.ts';

export { SHAPES_SOURCE } from '../../api/geo/county-shapes.ts';

export interface Band {
  id: string;
  label: string;
  color: string;
  /** Whether a value belongs in this band (bands are tried in order). */
  holds: (value: number) => boolean;
}

export interface MapCounty {
  fips: string;
  name: string;
  d: string;
  band: Band;
  value: number | null;
  /** The tooltip: county, state and figure. */
  title: string;
  highlighted: boolean;
}

export interface CountyMapView {
  viewBox: string;
  counties: MapCounty[];
  stateBorders: string | null;
  legend: { band: Band; count: number }[];
}

export const NO_FIGURE: Band = { id: 'none', label: 'No figure', color: '#f6f8fa', holds: () => false };

const money = (value: number): string => `$${value.toLocaleString('en-US')}`;

/** Bands of one-unit conforming limits: the baseline, two steps up to the ceiling, the ceiling, and above it. */
export function conformingBands(baseline: number, ceiling: number): Band[] {
  const middle = Math.round((baseline + ceiling) / 2);
  return [
    { id: 'baseline', label: `Baseline, ${money(baseline)}`, color: '#deebf7', holds: (value) => value <= baseline },
    {
      id: 'lower',
      label: `${money(baseline + 1)} to ${money(middle - 1)}`,
      color: '#9ecae1',
      holds: (value) => value < middle,
    },
    {
      id: 'upper',
      label: `${money(middle)} to ${money(ceiling - 1)}`,
      color: '#4292c6',
      holds: (value) => value < ceiling,
    },
    { id: 'ceiling', label: `Ceiling, ${money(ceiling)}`, color: '#08519c', holds: (value) => value === ceiling },
    {
      id: 'above',
      label: `Above ${money(ceiling)} (only Alaska, Hawaii, Guam and the Virgin Islands go higher)`,
      color: '#54278f',
      holds: () => true,
    },
  ];
}

export function bandOf(bands: readonly Band[], value: number | null): Band {
  return value === null ? NO_FIGURE : (bands.find((band) => band.holds(value)) ?? NO_FIGURE);
}

export interface MapRequest {
  /** Each county's figure by 5-digit FIPS (a county missing here is drawn as "No figure"). */
  values: ReadonlyMap<string, { value: number | null; label: string }>;
  bands: readonly Band[];
  /** Two-digit state FIPS: draw only that state, filling the frame; otherwise the whole country. */
  stateFips?: string;
  /** A county to outline (its own page). */
  highlight?: string;
  /** How a figure reads in a tooltip. */
  format?: (value: number) => string;
}

function frameOf(shapes: readonly CountyShape[]): string {
  const [x0, y0, x1, y1] = shapes.reduce(
    ([a, b, c, d], shape) => [
      Math.min(a, shape.bounds[0][0]),
      Math.min(b, shape.bounds[0][1]),
      Math.max(c, shape.bounds[1][0]),
      Math.max(d, shape.bounds[1][1]),
    ],
    [Infinity, Infinity, -Infinity, -Infinity],
  );
  const pad = Math.max(x1 - x0, y1 - y0) * 0.02;
  const round = (value: number) => Math.round(value * 10) / 10;
  return `${round(x0 - pad)} ${round(y0 - pad)} ${round(x1 - x0 + 2 * pad)} ${round(y1 - y0 + 2 * pad)}`;
}

export async function countyMap(request: MapRequest): Promise<CountyMapView> {
  const all = await countyShapes();
  const shapes = request.stateFips
    ? [...all.counties.values()].filter((shape) => shape.fips.startsWith(request.stateFips!))
    : all.nationCounties;
  const format = request.format ?? money;
  const counties = shapes.map((shape): MapCounty => {
    const figure = request.values.get(shape.fips);
    const value = figure?.value ?? null;
    return {
      fips: shape.fips,
      name: figure?.label ?? shape.name,
      d: shape.d,
      band: bandOf(request.bands, value),
      value,
      title: `${figure?.label ?? shape.name}: ${value === null ? 'no figure' : format(value)}`,
      highlighted: shape.fips === request.highlight,
    };
  });
  const legend = [...request.bands, NO_FIGURE]
    .map((band) => ({ band, count: counties.filter((county) => county.band === band).length }))
    .filter((entry) => entry.count > 0);
  return {
    viewBox: request.stateFips ? frameOf(shapes) : `0 0 ${NATION_FRAME.width} ${NATION_FRAME.height}`,
    // The highlighted county is drawn last, so its outline is not covered by its neighbours.
    counties: counties.sort((a, b) => Number(a.highlighted) - Number(b.highlighted)),
    stateBorders: request.stateFips ? null : all.stateBorders,
    legend,
  };
}
