// One line per frame, for the tests and the probe script: what each slot read, what was refused and
// what no slot read.
import type { Frame } from './frame.ts';

export function frameLine(frame: Frame): string {
  const places = frame.places.map((place) => (place.kind === 'nation' ? 'US' : place.kind === 'state' ? place.code : place.fips));
  const parts = [
    `op=${frame.operation.kind}${frame.operation.direction ? `:${frame.operation.direction}` : ''}`,
    `measures=[${frame.measures.map((measure) => measure.template).join(', ')}]`,
    `places=[${places.join(', ')}]${frame.placeSet ? ` set=${frame.placeSet.among}${frame.placeSet.state ? `:${frame.placeSet.state}` : ''}` : ''}`,
    `times=[${frame.times.map((time) => `${time.grain}:${time.from}${time.to !== time.from ? `..${time.to}` : ''}`).join(', ')}]${frame.times.length > 1 ? ` (${frame.timeRelation})` : ''}`,
    `qualifiers=${JSON.stringify(frame.qualifiers)}`,
    `numbers=${JSON.stringify(frame.numbers)}`,
    `refused=[${frame.refusals.map((refusal) => `${refusal.part}${refusal.blocking ? ' (blocking)' : ''}`).join('; ')}]`,
    `unread=[${frame.unread.join(', ')}]`,
  ];
  return parts.join(' ');
}
