// What the county maps credit (see site/views/format.ts for why views exist): the county shapes'
// publisher, named under every map.
export { SHAPES_SOURCE } from '../../api/geo/county-shapes.ts';
