// A measure's series for a place: the catalogue template with the place's code filled in, or none
// when the measure does not exist for that kind of place. Shared by the planner's modules.
import type { MeasureSlot } from './frame.ts';
import type { Place } from '../../../geo/gazetteer.ts';

export function placeCode(place: Place | undefined): string {
  if (!place || place.kind === 'nation') return 'US';
  return place.kind === 'state' ? place.code : place.fips;
}

export const placeName = (place: Place | undefined) => (!place || place.kind === 'nation' ? 'the US' : place.name);

/** The series of a measure for a place, or undefined when the measure does not exist for that kind of place. */
export function seriesOf(measure: MeasureSlot, place: Place | undefined): string | undefined {
  const { template } = measure;
  if (template.includes('{county}')) return place?.kind === 'county' ? template.replace('{county}', place.fips) : undefined;
  if (template.includes('{state}') && place?.kind === 'county') return undefined;
  if (template.includes('{state}')) return place?.kind === 'state' ? template.replace('{state}', place.code) : undefined;
  return template.replace('{place}', placeCode(place));
}
