// A county's limit for two, three or four units: the one-unit series do not hold these, so the
// loan-limits service is asked for each year named, and a change between two years is computed by
// the analysis arithmetic. A year the publisher has not published is said first, never replaced.
import { change as changeOf } from '../../analysis/arithmetic.ts';
import { formatValue } from '../../analysis/points.ts';
import type { AnswerDraft, BuiltinDeps } from './draft.ts';
import type { Frame, Refusal } from './reader/frame.ts';
import { refusalText } from './reader/honour.ts';
import type { UnitsAsk } from './reader/plan-types.ts';

export function unitsAsk(frame: Frame): UnitsAsk | undefined {
  const units = frame.qualifiers.unitsAll ?? (frame.qualifiers.units === undefined ? [] : [frame.qualifiers.units]);
  const county = frame.places.find((place) => place.kind === 'county');
  if (frame.topic !== 'limit' || units.every((count) => count === 1) || !county || county.kind !== 'county') return undefined;
  const years = frame.times.filter((time) => time.grain !== 'latest').map((time) => Number(time.from.slice(0, 4)));
  return { fips: county.fips, state: county.state, program: frame.qualifiers.program === 'fha' ? 'fha' : 'conforming', units, years };
}

interface Found {
  year: number;
  units: number;
  value: number;
  county: string;
}

/** One year's limit for one number of units, or why it cannot be given. */
async function limitFor(ask: UnitsAsk, units: number, year: number | undefined, deps: BuiltinDeps): Promise<Found | Refusal> {
  const program = ask.program === 'fha' ? 'FHA' : 'conforming';
  const part = `the ${year ? `${year} ` : ''}${units}-unit ${program} limit`;
  try {
    const answer = await deps.services.loanLimits.getLoanLimits({
      state: ask.state,
      county: ask.fips,
      ...(year ? { year } : {}),
      loan_type: ask.program,
    });
    const county = answer.counties[0];
    const limit = county?.[ask.program];
    const value = limit?.limits?.[String(units) as '1'];
    if (!county || !limit?.available || value === undefined || (year !== undefined && limit.year !== year))
      return {
        part,
        why: `${year ?? 'that year'} has not been published${limit?.year ? `: the latest ${program} limits held are for ${limit.year}` : ''}`,
        blocking: false,
      };
    return { year: limit.year ?? year ?? 0, units, value, county: `${county.county}, ${county.state}` };
  } catch {
    return { part, why: `no ${program} limit for that year is held`, blocking: false };
  }
}

export async function answerUnits(ask: UnitsAsk, frame: Frame, deps: BuiltinDeps): Promise<AnswerDraft> {
  const refusals: Refusal[] = [...frame.refusals];
  const found: Found[] = [];
  const program = ask.program === 'fha' ? 'FHA' : 'conforming';
  for (const year of ask.years.length > 0 ? ask.years : [undefined])
    for (const units of ask.units) {
      const result = await limitFor(ask, units, year, deps);
      if ('why' in result) refusals.push(result);
      else found.push(result);
    }
  const lines = [
    refusalText(refusals),
    ...found.map(
      (entry) =>
        `The ${entry.year} ${program} limit for a ${entry.units}-unit home in ${entry.county} is **${formatValue(entry.value, 'US dollars')}**.`,
    ),
  ];
  const [first, last] = [found[0], found.at(-1)];
  if (first && last && found.length === 2) {
    const computed = changeOf(first.value, last.value);
    const amount = formatValue(Math.abs(computed.change ?? 0), 'US dollars');
    lines.push(
      first.units === last.units
        ? `From ${first.year} to ${last.year} it went ${(computed.change ?? 0) >= 0 ? 'up' : 'down'} **${amount}** (${computed.percent_change}%).`
        : `The ${first.units}-unit limit is **${amount}** ${(computed.change ?? 0) <= 0 ? 'more' : 'less'} than the ${last.units}-unit limit.`,
    );
  }
  const years = [...new Set(found.map((entry) => entry.year))];
  const sources = years.map((year) => `${deps.config.baseUrl}/api/v1/loan-limits?state=${ask.state}&county=${ask.fips}&year=${year}`);
  return {
    text: lines.filter(Boolean).join('\n\n'),
    sources: sources.length > 0 ? sources : [`${deps.config.baseUrl}/api/v1/loan-limits`],
  };
}
