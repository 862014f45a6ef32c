// The analysis on each research page: sentences written from its figures that compare the place with
// the nation (or its state), rank it, and describe the change since the first year held. Every
// sentence names the place, so no two pages share one; the wording varies with the place's code so
// pages do not read as one template. Only figures present in the profile are used.
import type { CountyFigures, StateFigures } from './figures.ts';

const money = (value: number) => `$${Math.round(value).toLocaleString('en-US')}`;
const count = (value: number) => value.toLocaleString('en-US');
const pct = (value: number, digits = 1) => `${value.toFixed(digits)}%`;
const points = (value: number) => `${Math.abs(value).toFixed(1)} percentage point${Math.abs(value).toFixed(1) === '1.0' ? '' : 's'}`;

const HOW_OFTEN: Record<string, string> = { annual: 'once a year', 'semi-annual': 'twice a year', quarterly: 'four times a year' };
const SMALL_NUMBERS = ['None', 'One', 'Two', 'Three', 'Four', 'Five', 'Six', 'Seven', 'Eight', 'Nine'];

export function ordinal(rank: number): string {
  const tens = rank % 100;
  const suffix = tens >= 11 && tens <= 13 ? 'th' : (({ 1: 'st', 2: 'nd', 3: 'rd' } as Record<number, string>)[rank % 10] ?? 'th');
  return `${rank}${suffix}`;
}

/** "the most", "the 2nd most", …: a rank among `among` places. */
const rankWords = (rank: number, word: string) => (rank === 1 ? `the ${word}` : `the ${ordinal(rank)} ${word}`);

/** A stable choice among wordings for one place (its code or FIPS). */
function pick<T>(key: string, options: readonly T[]): T {
  let hash = 0;
  for (const char of key) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  return options[hash % options.length] as T;
}

const change = (from: number, to: number) => ((to - from) / from) * 100;

/** The share in a list by label, or undefined. */
const shareOf = (list: { label: string; percent: number; compare_percent: number | null }[], label: string) =>
  list.find((entry) => entry.label === label);

/** The loan type or purpose furthest from the comparison place's share, as a sentence part. */
function widestGap(list: { label: string; percent: number; compare_percent: number | null }[]) {
  return list
    .filter((entry) => entry.compare_percent !== null)
    .map((entry) => ({ ...entry, gap: entry.percent - (entry.compare_percent as number) }))
    .sort((a, b) => Math.abs(b.gap) - Math.abs(a.gap))[0];
}

export function stateAnalysis(
  figures: StateFigures,
  extras: { escrow: { monthsAtClosing: Record<string, number>; frequency: string; disbursementMonths: string[] }; bills: number | null },
): string[] {
  const { state_name: name, state: code, limits, hmda, rates } = figures;
  const sentences: string[] = [];
  const baseline = limits.national_baseline;
  const highest = [...figures.counties].sort((a, b) => (b.conforming_one_unit ?? 0) - (a.conforming_one_unit ?? 0))[0];

  const special = code === 'AK' || code === 'HI';
  const baselineWords = (value: number) =>
    special ? `${name}'s baseline of ${money(value)} (150% of the national one)` : `the national baseline of ${money(value)}`;
  if (baseline !== null && highest?.conforming_one_unit != null) {
    if (figures.counties.length === 1) {
      // DC: one county-equivalent, nothing to rank within.
      sentences.push(
        highest.conforming_tier === 'high_cost'
          ? `All of ${name} is one high-cost area: its ${limits.year} one-unit conforming limit of ${money(highest.conforming_one_unit)} is ${pct(change(baseline, highest.conforming_one_unit))} over ${baselineWords(baseline)}.`
          : `${name} has one conforming limit, ${baselineWords(highest.conforming_one_unit)}, for a one-unit home in ${limits.year}.`,
      );
    } else if (limits.high_cost_counties === 0) {
      sentences.push(
        pick(code, [
          `All ${count(limits.counties)} of ${name}'s counties sit at ${baselineWords(highest.conforming_one_unit)} for a one-unit home in ${limits.year}: no part of ${name} is a high-cost area for conforming loans.`,
          `${name} has no high-cost county in ${limits.year}: every one of its ${count(limits.counties)} counties has the ${money(highest.conforming_one_unit)} one-unit conforming limit${special ? ' that applies statewide (150% of the national baseline)' : ''}.`,
        ]),
      );
    } else {
      const above = change(baseline, highest.conforming_one_unit);
      const tied = figures.counties.filter((county) => county.conforming_one_unit === highest.conforming_one_unit).length;
      const where = tied === 1 ? highest.county : `${count(tied)} counties including ${highest.county}`;
      sentences.push(
        pick(code, [
          `In ${limits.year}, ${count(limits.high_cost_counties)} of ${name}'s ${count(limits.counties)} counties have a conforming limit above ${baselineWords(baseline)}; the highest, ${money(highest.conforming_one_unit)} in ${where}, is ${pct(above)} above the national figure.`,
          `${tied === 1 ? `${highest.county} has` : `${where} share`} ${name}'s highest ${limits.year} one-unit conforming limit, ${money(highest.conforming_one_unit)} (${pct(above)} over the ${money(baseline)} national baseline), and ${count(limits.high_cost_counties)} of the state's ${count(limits.counties)} counties are high-cost areas.`,
        ]),
      );
    }
  }
  const first = limits.history[0];
  const last = limits.history.at(-1);
  if (first && last && first.year !== last.year && first.highest_conforming > 0) {
    const counties = (value: number) => (value === 0 ? 'none' : `${count(value)} high-cost ${value === 1 ? 'county' : 'counties'}`);
    const moved = limits.history.every((entry) => entry.high_cost_counties === 0)
      ? `the ${special ? 'state' : 'national'} baseline having applied statewide in every one of those years`
      : first.high_cost_counties === last.high_cost_counties
        ? `${count(last.high_cost_counties)} high-cost ${last.high_cost_counties === 1 ? 'county' : 'counties'} at both ends`
        : `${counties(first.high_cost_counties)} then against ${counties(last.high_cost_counties).replace(/ high-cost count(y|ies)$/, '')} now`;
    sentences.push(
      `${name}'s highest one-unit conforming limit went from ${money(first.highest_conforming)} in ${first.year} to ${money(last.highest_conforming)} in ${last.year}, ${change(first.highest_conforming, last.highest_conforming) >= 0 ? 'up' : 'down'} ${pct(Math.abs(change(first.highest_conforming, last.highest_conforming)))}, with ${moved}.`,
    );
  }
  if (limits.fha_high_cost_counties !== null && limits.fha_year !== null) {
    sentences.push(
      figures.counties.length === 1
        ? `HUD sets ${name}'s ${limits.fha_year} FHA limit ${limits.fha_high_cost_counties === 0 ? 'at the national floor' : 'above the national floor, as a high-cost area'}.`
        : limits.fha_high_cost_counties === 0
          ? `HUD places every ${name} county at the FHA floor in ${limits.fha_year}.`
          : limits.fha_high_cost_counties === figures.counties.length
            ? `HUD lists every one of ${name}'s ${count(figures.counties.length)} counties as high-cost for FHA loans in ${limits.fha_year}: none is at the national floor.`
            : `HUD lists ${count(limits.fha_high_cost_counties)} ${name} ${limits.fha_high_cost_counties === 1 ? 'county' : 'counties'} as high-cost for FHA loans in ${limits.fha_year}; the rest are at the national floor.`,
    );
  }

  if (hmda) {
    sentences.push(
      pick(`${code}h`, [
        `Lenders reported ${count(hmda.records)} HMDA records for ${name} properties in ${hmda.year}, ${rankWords(hmda.rank_by_records, 'most')} of the ${hmda.ranked_among} states and DC, and originated ${count(hmda.originations)} loans.`,
        `With ${count(hmda.records)} HMDA records in ${hmda.year} (${count(hmda.originations)} of them loans originated), ${name} ranks ${ordinal(hmda.rank_by_records)} of ${hmda.ranked_among} by mortgage activity.`,
      ]),
    );
    if (hmda.denial_rate_percent !== null && hmda.compare_denial_rate_percent !== null) {
      const gap = hmda.denial_rate_percent - hmda.compare_denial_rate_percent;
      sentences.push(
        Math.abs(gap) < 0.05
          ? `${name}'s ${hmda.year} denial rate, ${pct(hmda.denial_rate_percent)}, matches the nation's.`
          : `${name}'s denial rate was ${pct(hmda.denial_rate_percent)} in ${hmda.year}, ${points(gap)} ${gap > 0 ? 'above' : 'below'} the national ${pct(hmda.compare_denial_rate_percent)}.`,
      );
    }
    const gapType = widestGap(hmda.loan_types);
    if (gapType && gapType.compare_percent !== null && Math.abs(gapType.gap) >= 0.5) {
      sentences.push(
        `${gapType.label} loans are where ${name} differs most from the nation by loan type: ${pct(gapType.percent)} of its records against ${pct(gapType.compare_percent)} nationally.`,
      );
    }
    const refinance = shareOf(hmda.purposes, 'Refinancing');
    const purchase = shareOf(hmda.purposes, 'Home purchase');
    if (purchase && purchase.compare_percent !== null) {
      sentences.push(
        `Home purchases made up ${pct(purchase.percent)} of ${name}'s records (nation: ${pct(purchase.compare_percent)})${refinance ? ` and refinancings ${pct(refinance.percent)}` : ''}.`,
      );
    }
    if (hmda.records_first_year !== null && hmda.first_year !== hmda.year) {
      const moved = change(hmda.records_first_year, hmda.records);
      sentences.push(
        `${name}'s HMDA record count is ${pct(Math.abs(moved))} ${moved >= 0 ? 'above' : 'below'} its ${hmda.first_year} level of ${count(hmda.records_first_year)}.`,
      );
    }
    const biggest = [...figures.counties].sort((a, b) => (b.hmda_records ?? 0) - (a.hmda_records ?? 0))[0];
    if (biggest?.hmda_records && hmda.records > 0 && figures.counties.length > 1) {
      sentences.push(
        `${biggest.county} alone accounts for ${pct((biggest.hmda_records / hmda.records) * 100)} of ${name}'s ${hmda.year} HMDA records, more than any other county in the state.`,
      );
    }
  }

  if (rates?.latest.state_outstanding_percent != null) {
    const own = rates.latest.state_outstanding_percent;
    const survey = rates.latest.survey_percent;
    sentences.push(
      `Borrowers in ${name} held outstanding mortgages at an average rate of ${pct(own, 2)} at the end of ${rates.latest.period}, ${rankWords(rates.rank_highest, 'highest')} of ${rates.ranked_among}` +
        (survey !== null
          ? `, while new 30-year loans averaged ${pct(survey, 2)} in Freddie Mac's survey that quarter, ${points(survey - own)} ${survey >= own ? 'higher' : 'lower'}.`
          : '.'),
    );
    const low = rates.quarters
      .filter((quarter) => quarter.state_outstanding_percent !== null)
      .sort((a, b) => (a.state_outstanding_percent as number) - (b.state_outstanding_percent as number))[0];
    if (low && low.period !== rates.latest.period && low.state_outstanding_percent !== null && low.state_outstanding_percent < own) {
      sentences.push(
        `The ${name} average has climbed from its low of ${pct(low.state_outstanding_percent, 2)} in ${low.period} as loans made at higher rates replaced older ones.`,
      );
    }
  }

  const months = Object.entries(extras.escrow.monthsAtClosing);
  if (months.length > 0) {
    const most = months.reduce((best, entry) => (entry[1] > best[1] ? entry : best));
    const fewest = months.reduce((best, entry) => (entry[1] < best[1] ? entry : best));
    sentences.push(
      `${name} property taxes are paid ${HOW_OFTEN[extras.escrow.frequency] ?? extras.escrow.frequency} (${extras.escrow.disbursementMonths.join(', ')}), so a loan closing in ${most[0]} collects ${most[1]} months of tax into escrow and one closing in ${fewest[0]} collects ${fewest[1]}.`,
    );
  }
  if (extras.bills !== null) {
    sentences.push(
      extras.bills === 0
        ? `None of the housing bills we track has a sponsor from ${name}.`
        : `${extras.bills < SMALL_NUMBERS.length ? SMALL_NUMBERS[extras.bills] : count(extras.bills)} of the housing bills we track ${extras.bills === 1 ? 'has a sponsor' : 'have sponsors'} from ${name}.`,
    );
  }
  return sentences;
}

/** The national baseline's change between two years, percent, from the profile's own baseline history. */
function national_(figures: CountyFigures, from: number, to: number): number | null {
  const start = figures.limits.history.find((entry) => entry.year === from)?.national_baseline;
  const end = figures.limits.history.find((entry) => entry.year === to)?.national_baseline;
  return start && end ? change(start, end) : null;
}

export function countyAnalysis(figures: CountyFigures): string[] {
  const { county, state, state_name: stateName, limits, hmda, fips } = figures;
  const place = `${county}, ${state}`;
  const sentences: string[] = [];
  const one = limits.conforming.limits['1'] ?? 0;
  const baseline = limits.national.conforming_baseline;
  if (baseline !== null) {
    if (limits.conforming.tier === 'high_cost') {
      sentences.push(
        pick(fips, [
          `${place} is a high-cost area: its ${limits.conforming.year} one-unit conforming limit of ${money(one)} is ${pct(change(baseline, one))} above the national baseline of ${money(baseline)}.`,
          `At ${money(one)} for a one-unit home in ${limits.conforming.year}, the conforming limit in ${place} exceeds the ${money(baseline)} baseline by ${money(one - baseline)}, which makes it a high-cost county.`,
        ]),
      );
      if (limits.national.conforming_ceiling !== null && one >= limits.national.conforming_ceiling) {
        sentences.push(
          `${place} is at the national ceiling of ${money(limits.national.conforming_ceiling)}, the most FHFA allows outside Alaska, Hawaii, Guam and the Virgin Islands.`,
        );
      }
    } else {
      sentences.push(
        pick(fips, [
          `${place} has the national baseline conforming limit in ${limits.conforming.year}: ${money(one)} for a one-unit home; a larger loan there is a jumbo loan.`,
          `In ${limits.conforming.year} a conforming loan in ${place} can be up to ${money(one)} for one unit, the baseline that applies wherever home values do not raise it.`,
        ]),
      );
    }
  }
  const four = limits.conforming.limits['4'];
  if (four)
    sentences.push(
      `For a two- to four-unit property in ${place} the ${limits.conforming.year} conforming limits run from ${money(limits.conforming.limits['2'] ?? 0)} to ${money(four)}.`,
    );
  const history = limits.history.filter((entry) => entry.conforming_one_unit !== null);
  const first = history[0];
  const last = history.at(-1);
  if (first && last && first.year !== last.year && first.conforming_one_unit && last.conforming_one_unit) {
    const own = change(first.conforming_one_unit, last.conforming_one_unit);
    const national = national_(figures, first.year, last.year);
    const trackedBaseline = history.every((entry) => entry.conforming_one_unit === entry.national_baseline);
    sentences.push(
      trackedBaseline
        ? `${place} has had the national baseline limit in every year since ${first.year}, so its one-unit limit rose exactly as the baseline did, from ${money(first.conforming_one_unit)} to ${money(last.conforming_one_unit)}.`
        : `Since ${first.year} the one-unit conforming limit in ${place} has ${own >= 0 ? 'risen' : 'fallen'} from ${money(first.conforming_one_unit)} to ${money(last.conforming_one_unit)} (${own >= 0 ? '+' : '−'}${pct(Math.abs(own))}${national === null ? '' : `, against ${national >= 0 ? '+' : '−'}${pct(Math.abs(national))} for the national baseline`}).`,
    );
  }
  if (limits.fha) {
    const fha = limits.fha.limits['1'] ?? 0;
    const floor = limits.national.fha_floor;
    const ceiling = limits.national.fha_ceiling;
    const where =
      floor !== null && fha <= floor
        ? `the national floor`
        : ceiling !== null && fha >= ceiling
          ? `the national ceiling`
          : `${pct((fha / (one || fha)) * 100, 0)} of the county's conforming limit`;
    sentences.push(`The ${limits.fha.year} FHA limit for a one-unit home in ${place} is ${money(fha)}, ${where}.`);
  }
  if (hmda) {
    sentences.push(
      pick(`${fips}h`, [
        `${county} had ${count(hmda.records)} HMDA records in ${hmda.year}, ${rankWords(hmda.rank_by_records, 'most')} of ${hmda.ranked_among} counties in ${stateName}, and lenders originated ${count(hmda.originations)} loans there.`,
        `Lenders reported ${count(hmda.records)} applications and purchased loans for ${county} properties in ${hmda.year} (${count(hmda.originations)} originations), ranking it ${ordinal(hmda.rank_by_records)} of ${hmda.ranked_among} ${stateName} counties.`,
      ]),
    );
    if (hmda.denial_rate_percent !== null && hmda.compare_denial_rate_percent !== null) {
      const gap = hmda.denial_rate_percent - hmda.compare_denial_rate_percent;
      sentences.push(
        Math.abs(gap) < 0.05
          ? `The denial rate in ${county}, ${pct(hmda.denial_rate_percent)}, is the same as ${stateName}'s.`
          : `The denial rate in ${county} was ${pct(hmda.denial_rate_percent)}, ${points(gap)} ${gap > 0 ? 'above' : 'below'} ${stateName}'s ${pct(hmda.compare_denial_rate_percent)}.`,
      );
    }
    const fhaShare = shareOf(hmda.loan_types, 'FHA');
    if (fhaShare && fhaShare.compare_percent !== null) {
      sentences.push(
        `FHA loans were ${pct(fhaShare.percent)} of ${county}'s records, against ${pct(fhaShare.compare_percent)} across ${stateName}.`,
      );
    }
    if (hmda.records_first_year !== null && hmda.first_year !== hmda.year && hmda.records_first_year > 0) {
      const moved = change(hmda.records_first_year, hmda.records);
      sentences.push(
        `Mortgage activity in ${place} is ${pct(Math.abs(moved))} ${moved >= 0 ? 'above' : 'below'} ${hmda.first_year}, when ${count(hmda.records_first_year)} records were reported.`,
      );
    }
  } else {
    sentences.push(`No HMDA records were reported for properties in ${place} in the latest year the aggregates cover.`);
  }
  return sentences;
}
