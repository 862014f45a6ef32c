// What a frame asks that the data cannot honour, or that makes no sense, each said first with why:
// a lender, a census tract, a ZIP code or a metro area (the HMDA aggregates held go down to the
// county, all lenders together), a credit score outside rates, a county's mortgage rate, a term no
// survey publishes, a negative or absurd rate, a zero term, an amount no loan has, more places than
// exist. Years a series has not published yet are found against the data by the planner.
import type { Frame, Refusal } from './frame.ts';

const STATES_AND_DC = 51;
const MAX_RATE = 30;
const MAX_TERM = 50;
const MAX_AMOUNT = 100_000_000;
const SURVEY_TERMS = [15, 30];

function qualifierRefusals(frame: Frame): Refusal[] {
  const { qualifiers, topic } = frame;
  const refusals: Refusal[] = [];
  const grain = 'the HMDA aggregates this service holds go down to the county and count every lender together';
  if (qualifiers.lender)
    refusals.push({
      part: `figures for ${qualifiers.lender}`,
      why: `I don't have lender-level figures: ${grain}, so no count is broken down by lender or institution (the HMDA filer list gives only each filer's national total of records, for the years it covers)`,
      blocking: true,
    });
  if (qualifiers.tract)
    refusals.push({ part: `census tract ${qualifiers.tract}`, why: `I don't have census-tract figures: ${grain}`, blocking: true });
  if (qualifiers.zip)
    refusals.push({
      part: `ZIP code ${qualifiers.zip}`,
      why: `I don't have ZIP-code figures: ${grain} (a county-level figure is not the ZIP code's)`,
      blocking: true,
    });
  if (qualifiers.metro && topic !== 'limit')
    refusals.push({ part: `the ${qualifiers.metro} metro area`, why: `I don't have metro-area figures: ${grain}`, blocking: true });
  if (qualifiers.creditScore !== undefined && topic !== 'rate')
    refusals.push({
      part: 'a credit score',
      why: "I don't have figures by credit score for that: only the rate indices are published by credit score",
      blocking: true,
    });
  return refusals;
}

function numberRefusals(frame: Frame): Refusal[] {
  const { numbers, operation } = frame;
  const refusals: Refusal[] = [];
  if (numbers.rate !== undefined && (numbers.rate < 0 || numbers.rate > MAX_RATE) && operation.kind === 'payment')
    refusals.push({
      part: `a rate of ${numbers.rate}%`,
      why: `a mortgage rate of ${numbers.rate}% makes no sense (I compute payments for rates from 0% to ${MAX_RATE}%)`,
      blocking: true,
    });
  if (numbers.termYears !== undefined && (numbers.termYears <= 0 || numbers.termYears > MAX_TERM) && operation.kind === 'payment')
    refusals.push({
      part: `a term of ${numbers.termYears} years`,
      why: `a loan term of ${numbers.termYears} years makes no sense (I compute payments for terms of 1 to ${MAX_TERM} years)`,
      blocking: true,
    });
  if (numbers.amount !== undefined && (numbers.amount <= 0 || numbers.amount > MAX_AMOUNT) && operation.kind === 'payment')
    refusals.push({
      part: `a loan of $${numbers.amount.toLocaleString('en-US')}`,
      why: `a loan amount of $${numbers.amount.toLocaleString('en-US')} makes no sense for a mortgage (I compute payments for $1 to $${MAX_AMOUNT.toLocaleString('en-US')})`,
      blocking: true,
    });
  // "the payment on banana at 6%": no amount read, and none to take from a limit named.
  const sized = frame.measures.some((measure) => measure.family.startsWith('loan-limits'));
  if (operation.kind === 'payment' && numbers.amount === undefined && !sized) {
    const unread = frame.unread.length > 0 ? ` (I could not read ${frame.unread.map((word) => `“${word}”`).join(', ')} as one)` : '';
    refusals.push({
      part: 'a payment without a loan amount',
      why: `a monthly payment needs a loan amount in dollars, such as $400,000${unread}`,
      blocking: true,
    });
  }
  if (numbers.topN !== undefined && frame.placeSet?.among === 'states' && numbers.topN > STATES_AND_DC)
    refusals.push({
      part: `the top ${numbers.topN.toLocaleString('en-US')} states`,
      why: `there are only ${STATES_AND_DC} (the 50 states and DC), so I list all of them`,
      blocking: false,
    });
  if (numbers.topN !== undefined && numbers.topN <= 0)
    refusals.push({ part: `the top ${numbers.topN}`, why: 'a list of no places makes no sense', blocking: true });
  return refusals;
}

function measureRefusals(frame: Frame): Refusal[] {
  const { topic, qualifiers, places } = frame;
  const refusals: Refusal[] = [];
  // "the highest FHA limit for a duplex anywhere": the national ceiling is published for one unit only.
  const units = (qualifiers.unitsAll ?? (qualifiers.units === undefined ? [] : [qualifiers.units])).filter((count) => count !== 1);
  const measured = frame.measures.filter((measure) => typeof measure.qualifiers.units === 'number');
  if (units.length > 0 && measured.length > 0 && measured.every((measure) => !units.includes(measure.qualifiers.units as number)))
    refusals.push({
      part: `a ${units.join('- or ')}-unit figure for ${measured[0]?.title ?? 'that measure'}`,
      why: `${measured[0]?.title ?? 'That measure'} is published for one unit only, so I won't give the one-unit figure in its place`,
      blocking: true,
    });
  // "the FHA limit for a duplex" with no county: a figure set county by county, with no national one to give instead.
  const unitsLimit = frame.measures.find((measure) => measure.template.includes('{county}') && measure.qualifiers.units !== 1);
  if (unitsLimit && !places.some((place) => place.kind !== 'nation') && !['rank', 'count', 'extremes'].includes(frame.operation.kind))
    refusals.push({
      part: `the ${unitsLimit.title} without a county`,
      why: `that limit is set county by county and no national figure is published for it: name a county, or ask for the highest or lowest`,
      blocking: true,
    });
  const term = qualifiers.termYears;
  if (topic === 'rate' && term !== undefined && !SURVEY_TERMS.includes(term) && frame.operation.kind !== 'payment')
    refusals.push({
      part: `a ${term}-year fixed rate`,
      why: `no source loaded here publishes a ${term}-year fixed rate (Freddie Mac's survey gives the 30- and 15-year fixed rates, Optimal Blue's indices are 30-year, with a 15-year conforming one)`,
      blocking: true,
    });
  const county = places.find((place) => place.kind === 'county');
  if ((topic === 'rate' || topic === 'outstanding') && county && county.kind === 'county')
    refusals.push({
      part: `a mortgage rate for ${county.name}`,
      why: "no source this service uses publishes rates by county (Freddie Mac's survey and the Optimal Blue indices are national, and FHFA's rates on outstanding mortgages are by state)",
      blocking: false,
    });
  return refusals;
}

/**
 * "the denial rate for FHA loans", "approval rates of Black and White applicants": the HMDA
 * aggregates held give each rate for all applications together and counts by each field, never a
 * rate within a field's code; said first, and neither the overall rate nor the count given as that.
 */
function splitRateRefusal(frame: Frame): Refusal[] {
  const rate = frame.measures.find((measure) => measure.family === 'hmda' && measure.kind === 'rate');
  if (!rate || frame.operation.kind === 'share') return [];
  const within = frame.measures
    .filter((measure) => measure.family === 'hmda' && measure.kind !== 'rate' && measure.kind !== 'share')
    .filter((measure) => Object.keys(measure.qualifiers).some((key) => key !== 'action'))
    .map((measure) => measure.title.replace(/ records$/i, '').replace(/^Records with (an? )?/, ''));
  const { program, purpose } = frame.qualifiers;
  const asked = within.length > 0 ? within : [program?.toUpperCase(), purpose].filter((part): part is string => Boolean(part));
  if (asked.length === 0) return [];
  const name = rate.title.toLowerCase();
  return [
    {
      part: `the ${name} for ${asked.join(' and ')}`,
      why: `the HMDA aggregates held give the ${name} for all applications of a place together, and record counts by loan type, purpose, race, sex, ethnicity and age, never ${/^[aeiou]/.test(name) ? 'an' : 'a'} ${name} within one of them`,
      blocking: true,
    },
  ];
}

/** A measure no source here publishes ("median loan amount", "income limits"): said first, and nothing else given for it. */
function unheldRefusal(frame: Frame): Refusal[] {
  if (frame.unheld.length === 0) return [];
  const named = frame.unheld.map((phrase) => `“${phrase}”`).join(' and ');
  return [{ part: named, why: `I don't have ${named} figures: no source this service holds publishes them`, blocking: true }];
}

/** A place the gazetteer does not know ("Toronto", "Mars"): said first; it blocks when no other place was read. */
function unknownPlaceRefusal(frame: Frame): Refusal[] {
  return (frame.unknownPlaces ?? []).map((name) => ({
    part: `figures for ${name}`,
    why: `${name} is not a place I hold figures for: the data here covers the United States, its states, DC and their counties, and I won't guess`,
    blocking: frame.places.length === 0,
  }));
}

/** "When the Fed raised rates in 2020": the calendar holds the Fed's dates, not what it decided; said first, never confirmed. */
function actorRefusal(frame: Frame): Refusal[] {
  const claimed = frame.operation.claimedActor;
  // A calendar question's decisions are the calendar planner's to say.
  if (!claimed || frame.topic === 'calendar') return [];
  return [
    {
      part: `whether ${/^the /i.test(claimed) ? '' : 'the '}${claimed}, as the question says`,
      why: `the data held has the dates of the Fed's meetings and decisions, not what was decided, so I can't confirm or correct that premise`,
      blocking: false,
    },
  ];
}

export function refusalsOf(frame: Frame): Refusal[] {
  return [
    ...actorRefusal(frame),
    ...unknownPlaceRefusal(frame),
    ...qualifierRefusals(frame),
    ...numberRefusals(frame),
    ...measureRefusals(frame),
    ...splitRateRefusal(frame),
    ...unheldRefusal(frame),
  ];
}

/** The first sentence: every part that cannot be answered, named; then why, one sentence each. */
export function refusalText(refusals: readonly Refusal[]): string | undefined {
  if (refusals.length === 0) return undefined;
  const parts = refusals.map((refusal) => refusal.part);
  const list = parts.length === 1 ? parts[0] : `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}`;
  const whys = refusals.map((refusal) => `${refusal.why.charAt(0).toUpperCase()}${refusal.why.slice(1)}.`);
  return `I can't give ${list} from the data held. ${whys.join(' ')}`;
}

/**
 * A county named without its state where several states have one of that name ("Orange County",
 * "Cook County vs Harris County"): the answer's first sentence says which states have one and which
 * was used (the most populous), so none is picked in silence.
 */
export function sameNameText(frame: Pick<Frame, 'places'>): string | undefined {
  const said = frame.places.flatMap((place) =>
    place.kind === 'county' && place.sameNameStates
      ? [
          `${place.name.replace(/, [A-Z]{2}$/, '')} is the name of counties in ${place.sameNameStates.length} states (${place.sameNameStates.join(', ')}); with no state given I used ${place.name}, the most populous`,
        ]
      : [],
  );
  if (said.length === 0) return undefined;
  return `${said.join('; ')}. Name the state for another.`;
}
