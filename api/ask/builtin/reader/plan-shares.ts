// "What % of home purchase loans in Ohio were FHA", "what share of originations were VA": a share of
// one HMDA field's code within another field's. The aggregates held count records by each field on
// its own (loan type, purpose, action taken, …), never one within another, so that is said first;
// then the program's (or purpose's) share of all the place's records, with both counts, and the count
// of the whole the question named — the division done, never two counts left side by side.
import type { Frame, MeasureSlot } from './frame.ts';
import { momentOf, type Plan } from './plan-types.ts';
import { placeCode, seriesOf } from './plan-series.ts';
import { catalogue } from '../../../catalogue/measures.ts';

/** The HMDA fields a count measure is a code of (`program`, `purpose`, `action`, …); none for a total. */
const fieldsOf = (measure: MeasureSlot) => (measure.family === 'hmda' ? Object.keys(measure.qualifiers) : []);

/** A count a measure stands for: the part of a catalogue share, or the count itself. */
const countOf = (measure: MeasureSlot): MeasureSlot => (measure.share ? { ...measure, template: measure.share.part } : measure);

/**
 * The count of the program or purpose the qualifiers read when no measure stands for it ("what percent
 * of cash-out refinance records were FHA": the FHA records), for a measure of another field.
 */
function qualifierCount(frame: Frame, measure: MeasureSlot): MeasureSlot | undefined {
  const own = Object.keys(measure.qualifiers);
  const asked = Object.entries({ program: frame.qualifiers.program, purpose: frame.qualifiers.purpose }).find(
    ([field, value]) => value !== undefined && !own.includes(field),
  );
  if (!asked) return undefined;
  const [field, value] = asked;
  const template = catalogue().templates.find(
    (candidate) =>
      candidate.topic === 'hmda' &&
      candidate.kind === 'count' &&
      candidate.qualifiers[field] === value &&
      Object.keys(candidate.qualifiers).length === 1,
  );
  if (!template) return undefined;
  return { template: template.id, family: 'hmda', title: template.title, kind: 'count', qualifiers: template.qualifiers, words: [] };
}

/** The whole named first and the part written after it, when they are codes of two different fields. */
export function crossedShare(frame: Frame): { whole: MeasureSlot; part: MeasureSlot } | undefined {
  const [first] = frame.measures;
  const second = frame.measures[1] ?? (first && fieldsOf(first).length > 0 ? qualifierCount(frame, first) : undefined);
  if (!first || !second || frame.measures.length > 2) return undefined;
  const [a, b] = [fieldsOf(first), fieldsOf(second)];
  if (a.length === 0 || b.length === 0 || a.some((field) => b.includes(field))) return undefined;
  // "VA loans as a share of all originations": the part first; "what share of originations were VA": the whole first.
  return frame.operation.partFirst ? { whole: countOf(second), part: countOf(first) } : { whole: countOf(first), part: countOf(second) };
}

const titleOf = (measure: MeasureSlot) => measure.title.replace(/, share of all records$/i, '');
const lower = (text: string) => (/^[A-Z][a-z]/.test(text) ? `${text.charAt(0).toLowerCase()}${text.slice(1)}` : text);

/** The refusal of the crossing, then for each place the part's share of all records and the whole's count. */
export function planCrossedShare(frame: Frame, plan: Plan, { whole, part }: { whole: MeasureSlot; part: MeasureSlot }): void {
  const time = frame.times.find((candidate) => candidate.grain !== 'latest');
  const at = time ? { at: momentOf(time) } : {};
  const [partTitle, wholeTitle] = [lower(titleOf(part)), lower(titleOf(whole))];
  plan.refusals.push({
    part: `the share of ${wholeTitle} that are ${partTitle}`,
    why: `the HMDA aggregates held count records by each field on its own (loan type, loan purpose, action taken, …), never one field's code within another's; given instead: ${partTitle} as a share of all the place's HMDA records, and ${wholeTitle} on their own`,
    blocking: false,
  });
  for (const place of frame.places.length > 0 ? frame.places : [undefined]) {
    const partId = seriesOf(part, place);
    const wholeId = seriesOf(whole, place);
    if (!partId || !wholeId) continue;
    const where = place && place.kind !== 'nation' ? `in ${place.name}` : 'in the US';
    plan.steps.push({
      operation: 'share',
      query: { part: partId, whole: `hmda/${placeCode(place)}/records`, ...at },
      label: `${where}, ${partTitle} of all records`,
    });
    plan.steps.push({
      operation: 'value',
      query: { series: wholeId, at: momentOf(time) ?? 'latest' },
      label: `${where}, ${wholeTitle}`,
    });
  }
}
