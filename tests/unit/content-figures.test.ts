// Checks a sample of the figures quoted in content/articles against the official publisher files,
// read by small readers written for this test (tests/support/content-figure-readers.ts), so an
// article cannot silently drift from the data it cites. Each case recomputes a figure from the
// file, pins it, and checks the article still prints it.
import { beforeAll, describe, expect, it } from 'vitest';
import { hasSourceData } from '../support/source-data.ts';
import {
  article,
  count,
  type CountyLimit,
  denialRate,
  fhfa2026,
  fhfaPipe,
  firstColumn,
  headerlessSeries,
  hmda,
  type HmdaGeo,
  hudForward,
  money,
  nmdbStates,
  pct1,
  population,
  series,
  stateCodes,
  thousands,
  total,
} from '../support/content-figure-readers.ts';

const says = (slug: string, ...texts: string[]) => {
  const text = article(slug);
  for (const t of texts) expect(text, `${slug} should say "${t}"`).toContain(t);
};

describe.skipIf(!hasSourceData)('loan-limit figures in the articles (FHFA and HUD files)', () => {
  let limits2026: Map<string, CountyLimit>;
  const pipe = new Map<number, Map<string, CountyLimit>>();
  const year = (y: number) => (y === 2026 ? limits2026 : (pipe.get(y) ?? pipe.set(y, fhfaPipe(y)).get(y)!));
  const oneUnit = (y: number, fips: string) => year(y).get(fips)?.oneUnit;
  const baseline = (y: number) => Math.min(...[...year(y).values()].map((c) => c.oneUnit));

  beforeAll(async () => {
    limits2026 = await fhfa2026();
  });

  it('Los Angeles County is at $1,249,125 in 2026 and Napa held $1,017,750 from 2023 to 2026', () => {
    expect(oneUnit(2026, '06037')).toBe(1_249_125);
    expect([2023, 2024, 2025, 2026].map((y) => oneUnit(y, '06055'))).toEqual([1_017_750, 1_017_750, 1_017_750, 1_017_750]);
    says(
      'california-conforming-loan-limits-by-county-2018-2026',
      'Los Angeles',
      money(oneUnit(2026, '06037')!),
      `Napa County has been at ${money(1_017_750)} in every file from 2023 to 2026`,
    );
  });

  it('160 of 3,235 counties are above the 2026 baseline, against 220 in 2018', () => {
    const above = (y: number) => [...year(y).values()].filter((c) => c.oneUnit > baseline(y)).length;
    expect([limits2026.size, baseline(2026), above(2026), baseline(2018), above(2018)]).toEqual([3235, 832_750, 160, 453_100, 220]);
    says(
      'high-cost-loan-limit-counties-by-state-2026',
      "FHFA's 2026 file lists 3,235 counties",
      '160 have a one-unit limit above the $832,750 baseline',
      '| 2018 | $453,100 | 220 |',
    );
  });

  it('Nashville (Davidson County) went from $494,500 to $1,029,250, and HUD used a $860,000 median for 2025', () => {
    expect([oneUnit(2018, '47037'), oneUnit(2026, '47037')]).toEqual([494_500, 1_029_250]);
    const davidson = hudForward(2025).find((c) => c.state === 'TN' && c.county === '037');
    expect([davidson?.median, davidson?.oneUnit]).toEqual([860_000, 989_000]);
    says('nashville-high-cost-loan-limits-2018-2026', '| 2018 | $494,500 |', '| 2026 | $1,029,250 |', '$860,000 for 2025');
  });

  it("Maui is above the ceiling at $1,299,500; Honolulu's 2025 FHA limit was $779,700; 24 of 30 Alaska areas at the FHA floor", () => {
    expect(oneUnit(2026, '15009')).toBe(1_299_500);
    const fha = hudForward(2025);
    expect(fha.find((c) => c.state === 'HI' && c.county === '003')?.oneUnit).toBe(779_700);
    const alaska = fha.filter((c) => c.state === 'AK');
    expect([alaska.length, alaska.filter((c) => c.oneUnit === 524_225).length]).toEqual([30, 24]);
    says(
      'alaska-hawaii-territories-loan-limits',
      '| Maui and Kalawao counties | $1,299,500 |',
      '| Honolulu County, HI | $779,700 |',
      '24 of its 30 areas',
    );
  });

  it('31 counties kept their 2025 limit in 2026; Dutchess County sat at $726,525 from 2019 to 2023', () => {
    const unchanged = [...limits2026].filter(([fips, c]) => c.oneUnit === oneUnit(2025, fips)).length;
    expect(unchanged).toBe(31);
    expect([2019, 2020, 2021, 2022, 2023].map((y) => oneUnit(y, '36027'))).toEqual(Array(5).fill(726_525));
    says(
      'loan-limits-that-did-not-rise-in-2026',
      '3,204 have a higher one-unit limit than in 2025 and 31 have the same one',
      'their limit stayed at $726,525 through 2023',
    );
  });

  it('Moffat County, Colorado rose from $806,500 to $1,089,050 when it joined the Steamboat Springs area', () => {
    expect([oneUnit(2025, '08081'), oneUnit(2026, '08081'), limits2026.get('08081')?.cbsa]).toEqual([806_500, 1_089_050, '44460']);
    says('mountain-resort-county-loan-limits-2018-2026', 'baseline of $806,500 in 2025', 'rose 35% to $1,089,050');
  });

  it('Connecticut: the 2025 file gives old Fairfield $851,000 but its regions $806,500; Western CT is $977,500 in 2026', () => {
    expect([oneUnit(2025, '09001'), oneUnit(2025, '09120'), oneUnit(2025, '09190'), oneUnit(2026, '09190')]).toEqual([
      851_000, 806_500, 806_500, 977_500,
    ]);
    says(
      'connecticut-planning-region-loan-limits-and-lending',
      'The Fairfield entry carries $851,000',
      '| Western Connecticut (09190) | $766,550 | $806,500 | $977,500 |',
    );
  });

  it('Madison County, Virginia jumped from $484,350 to $765,600 when it joined the Washington metro in 2020', () => {
    expect([oneUnit(2019, '51113'), oneUnit(2020, '51113'), year(2020).get('51113')?.cbsa]).toEqual([484_350, 765_600, '47900']);
    says('washington-dc-region-loan-limits-and-va-lending', '($484,350 in 2019)', 'its limit jumped to $765,600');
  });

  it('HUD lists 577 FHA high-cost counties in 2018 and 440 in 2025; Cook County fell to the floor', () => {
    const highCost = (y: number) => hudForward(y).filter((c) => c.type === 'H').length;
    expect([highCost(2018), highCost(2025)]).toEqual([577, 440]);
    const cook = hudForward(2025).find((c) => c.state === 'IL' && c.county === '031');
    expect([cook?.oneUnit, cook?.median, cook?.type]).toEqual([524_225, 441_000, 'S']);
    says(
      'fha-high-cost-counties-2018-2025',
      '| 2018 | $294,515 | $679,650 | 577 |',
      '| 2025 | $524,225 | $1,209,750 | 440 |',
      '| Cook, IL (Chicago) | $365,700 | $379,500 | $524,225 (floor) | $441,000 |',
    );
  });
});

describe.skipIf(!hasSourceData)('rate figures in the articles (Freddie Mac PMMS and Optimal Blue via FRED)', () => {
  const pmms30 = () => series('rates', 'MORTGAGE30US_weekly_1971_2026.csv');
  const moves = () => {
    const weeks = pmms30();
    return weeks.slice(1).map(([date, v], i) => ({ date, from: weeks[i]![1], to: v, change: Math.round((v - weeks[i]![1]) * 100) / 100 }));
  };

  it('the 30-year rate averaged 0.57 point above the 15-year over 1,779 weeks, widest 1.00 on November 14, 2013', () => {
    const by30 = new Map(pmms30());
    const gaps = series('rates', 'MORTGAGE15US_weekly_1991_2025.csv').map(
      ([d, v]) => [d, Math.round((by30.get(d)! - v) * 100) / 100] as const,
    );
    const mean = gaps.reduce((a, [, g]) => a + g, 0) / gaps.length;
    const widest = gaps.reduce((a, b) => (b[1] > a[1] ? b : a));
    expect([gaps.length, mean.toFixed(2), widest]).toEqual([1779, '0.57', ['2013-11-14', 1]]);
    says(
      'pmms-30-year-vs-15-year-spread-1991-2025',
      'Across all 1,779 weeks, the 30-year rate was on average 0.57 point above',
      '1.00 point, reached twice: on November 14, 2013',
    );
  });

  it('the largest weekly rise was +1.40 in the week of March 14, 1980; the largest since 2000 +0.55 on June 16, 2022', () => {
    const all = moves();
    const top = all.reduce((a, b) => (b.change > a.change ? b : a));
    const top2000 = all.filter((m) => m.date >= '2000').reduce((a, b) => (b.change > a.change ? b : a));
    expect([top.date, top.change, top2000.date, top2000.change]).toEqual(['1980-03-14', 1.4, '2022-06-16', 0.55]);
    says(
      'pmms-biggest-weekly-moves-1971-2026',
      '| March 14, 1980 | 14.00% | 15.40% | +1.40 |',
      '| June 16, 2022 | 5.23% | 5.78% | +0.55 |',
    );
  });

  it('the longest falling streak was 21 weeks, from 16.93% to 13.66% in 1982', () => {
    let best = { length: 0, from: 0, to: 0 };
    let run = 0;
    const all = moves();
    all.forEach((m, i) => {
      run = m.change < 0 ? run + 1 : 0;
      if (run > best.length) best = { length: run, from: all[i - run + 1]!.from, to: m.to };
    });
    expect(best).toEqual({ length: 21, from: 16.93, to: 13.66 });
    says('pmms-rate-streaks-and-calm-decades', '| Falling | 21 | 16.93% (July 9, 1982) | 13.66% (December 3, 1982) | −3.27 |');
  });

  it('the 5/1 ARM was above the 30-year fixed rate in 48 weeks, and furthest below it (1.51) on December 19, 2013', () => {
    const by30 = new Map(pmms30());
    const gaps = headerlessSeries('rates', 'history_to_2022', 'MORTGAGE5US_noheader.csv').map(
      ([d, v]) => [d, Math.round((by30.get(d)! - v) * 100) / 100] as const,
    );
    const widest = gaps.reduce((a, b) => (b[1] > a[1] ? b : a));
    expect([gaps.length, gaps.filter(([, g]) => g < 0).length, widest]).toEqual([929, 48, ['2013-12-19', 1.51]]);
    says(
      'arm-vs-fixed-rate-spread-2005-2022',
      "In 48 weeks the ARM's starting rate was higher than the fixed rate",
      'The widest gap was 1.51 points on December 19, 2013',
    );
  });

  it('FOMC weeks and other weeks, 2000–2025, both averaged a 0.068-point move (215 against 1,142 weeks)', () => {
    const weeks = pmms30();
    const decisions = firstColumn('calendar', 'fomc_decision_dates_2000_2026.csv');
    const event: number[] = [];
    const other: number[] = [];
    for (let i = 1; i < weeks.length; i += 1) {
      const [d0, v0] = weeks[i - 1]!;
      const [d1, v1] = weeks[i]!;
      if (d1 < '2000-01-06' || d1 > '2025-12-31') continue;
      // A decision belongs to the survey week from the previous Thursday up to the day before the reading.
      (decisions.some((e) => e >= d0 && e < d1) ? event : other).push(Math.abs(Math.round((v1 - v0) * 100) / 100));
    }
    const mean = (xs: number[]) => (xs.reduce((a, b) => a + b, 0) / xs.length).toFixed(3);
    expect([event.length, other.length, mean(event), mean(other)]).toEqual([215, 1142, '0.068', '0.068']);
    says(
      'fomc-and-cpi-weeks-in-the-weekly-mortgage-survey',
      '| Number of weeks | 215 | 1,142 |',
      '| Average move (points, either direction) | 0.068 | 0.068 |',
    );
  });

  it('jumbo was 0.65 point below conforming on June 13, 2022 and 0.68 above on January 19, 2024', () => {
    const dir = ['rates', 'recent_2020_2025'] as const;
    const conforming = new Map(series(...dir, 'OBMMIC30YF.csv'));
    const gaps = series(...dir, 'OBMMIJUMBO30YF.csv')
      .filter(([d]) => conforming.has(d))
      .map(([d, j]) => [d, j - conforming.get(d)!] as const);
    const low = gaps.reduce((a, b) => (b[1] < a[1] ? b : a));
    const high = gaps.reduce((a, b) => (b[1] > a[1] ? b : a));
    expect([low[0], low[1].toFixed(2), high[0], high[1].toFixed(2)]).toEqual(['2022-06-13', '-0.65', '2024-01-19', '0.68']);
    const sign = (s: number) => gaps.filter(([, g]) => Math.sign(Math.round(g * 1000)) === s).length;
    expect([gaps.length, sign(-1), sign(1), sign(0)]).toEqual([1245, 437, 805, 3]);
    says(
      'jumbo-vs-conforming-rates-timeline-2020-2025',
      'the jumbo index stood at 5.297% and the conforming index at 5.943%',
      'the jumbo index was 7.408% against 6.725% for conforming',
      'jumbo was below conforming on 437, above on 805 and equal on 3',
    );
  });

  it('daily moves averaged 0.034 point on Tuesdays and 0.038 on Thursdays', () => {
    const daily = series('rates', 'recent_2020_2025', 'OBMMIC30YF.csv');
    const byDay = new Map<number, number[]>();
    for (let i = 1; i < daily.length; i += 1) {
      const day = new Date(`${daily[i]![0]}T12:00:00Z`).getUTCDay();
      byDay.set(day, [...(byDay.get(day) ?? []), Math.abs(daily[i]![1] - daily[i - 1]![1])]);
    }
    const mean = (xs: number[]) => (xs.reduce((a, b) => a + b, 0) / xs.length).toFixed(3);
    expect([byDay.get(2)!.length, mean(byDay.get(2)!), byDay.get(4)!.length, mean(byDay.get(4)!)]).toEqual([259, '0.034', 253, '0.038']);
    says('mortgage-rates-by-day-of-the-week', '| Tuesday | 259 | 0.034 |', '| Thursday | 253 | 0.038 |');
  });
});

describe.skipIf(!hasSourceData)('outstanding-mortgage figures in the articles (FHFA NMDB state file)', () => {
  const SERIES = new Set(['AVE_INTRATE', 'PCT_INTRATE_LT_3', 'PCT_INTRATE_3_4', 'PCT_INTRATE_GE_6']);
  let nmdb: ReturnType<typeof nmdbStates>;
  const value = (state: string, period: string, id: string, market = 'All Mortgages', which: 0 | 1 = 0) => {
    const v = nmdb.get(`${state}|${market}|${period}|${id}`);
    if (!v) throw new Error(`no NMDB value for ${state} ${market} ${period} ${id}`);
    return v[which];
  };
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

  let states: string[];
  beforeAll(() => {
    nmdb = nmdbStates(SERIES);
    states = stateCodes();
  });

  it("Mississippi's outstanding mortgages averaged 4.8% in 2025Q3, California's and Hawaii's 4.0%", () => {
    const rates = states.map((s) => [s, value(s, '2025Q3', 'AVE_INTRATE')] as const);
    const max = Math.max(...rates.map(([, r]) => r));
    const min = Math.min(...rates.map(([, r]) => r));
    expect([rates.filter(([, r]) => r === max).map(([s]) => s), max, rates.filter(([, r]) => r === min).map(([s]) => s), min]).toEqual([
      ['MS'],
      4.8,
      ['CA', 'HI'],
      4,
    ]);
    says('average-rate-on-outstanding-mortgages-by-state-2025', '| 4.8% | Mississippi |', '| 4.0% | California, Hawaii |');
  });

  it("62.1% of California's outstanding mortgages were below 4% in 2025Q3, against 40.8% in West Virginia", () => {
    const below4 = (s: string) => Math.round((value(s, '2025Q3', 'PCT_INTRATE_LT_3') + value(s, '2025Q3', 'PCT_INTRATE_3_4')) * 10) / 10;
    expect([below4('CA'), below4('WV')]).toEqual([62.1, 40.8]);
    expect(Math.max(...states.map(below4))).toBe(62.1);
    expect(Math.min(...states.map(below4))).toBe(40.8);
    says('outstanding-mortgages-below-4-percent-by-state', '| California | 62.1% | West Virginia | 40.8% |');
  });

  it("27.7% of Mississippi's mortgages were at 6% or more in 2025Q3; the median state was at 20.8%", () => {
    const ge6 = states.map((s) => value(s, '2025Q3', 'PCT_INTRATE_GE_6'));
    expect([value('MS', '2025Q3', 'PCT_INTRATE_GE_6'), Math.max(...ge6), median(ge6)]).toEqual([27.7, 27.7, 20.8]);
    says('mortgages-at-6-percent-or-more-by-state', '| Mississippi | 27.7% | Hawaii | 14.3% |', '| 2025Q3 | 20.8% |');
  });

  it('in 34 states the dollar-weighted average rate was above the loan-weighted one in 2025Q3', () => {
    const gaps = states.map(
      (s) =>
        Math.round((value(s, '2025Q3', 'AVE_INTRATE', 'All Mortgages', 0) - value(s, '2025Q3', 'AVE_INTRATE', 'All Mortgages', 1)) * 10) /
        10,
    );
    expect([gaps.filter((g) => g < 0).length, gaps.filter((g) => g === 0).length, gaps.filter((g) => g > 0).length]).toEqual([34, 15, 2]);
    says('loan-vs-dollar-weighted-outstanding-mortgage-rates', '| 2025Q3 | −0.1 | 34 | 15 | 2 |');
  });

  it("Mississippi's other conventional loans averaged 5.9% in 2025Q3, the highest of any state", () => {
    const other = states.map((s) => value(s, '2025Q3', 'AVE_INTRATE', 'Other Conventional Market'));
    expect([value('MS', '2025Q3', 'AVE_INTRATE', 'Other Conventional Market'), Math.max(...other)]).toEqual([5.9, 5.9]);
    says('outstanding-mortgage-rates-by-market-gse-government-other', '| Highest: Mississippi | 5.9% |');
  });

  it("in 2023Q4 the survey averaged 7.30% while the median state's outstanding loans averaged 4.1%", () => {
    const q4 = series('rates', 'MORTGAGE30US_weekly_1971_2026.csv')
      .filter(([d]) => d >= '2023-10-01' && d <= '2023-12-31')
      .map(([, v]) => v);
    const surveyAverage = (q4.reduce((a, b) => a + b, 0) / q4.length).toFixed(2);
    expect([surveyAverage, median(states.map((s) => value(s, '2023Q4', 'AVE_INTRATE')))]).toEqual(['7.30', 4.1]);
    says('lock-in-gap-new-rates-vs-outstanding-mortgages-2013-2025', '| 2023Q4 | 7.30% | 4.1% |');
  });
});

describe.skipIf(!hasSourceData)('HMDA figures in the articles (FFIEC HMDA aggregates)', () => {
  const states = new Map<number, Record<string, HmdaGeo>>();
  const st = (y: number) => states.get(y) ?? states.set(y, hmda('state', y)).get(y)!;
  const share = (geo: HmdaGeo | undefined, field: string, code: string) => (100 * count(geo?.[field], code)) / total(geo?.[field]);
  const national = (y: number, field: string): Record<string, number> => {
    const out: Record<string, number> = {};
    for (const geo of Object.values(st(y))) for (const [code, n] of Object.entries(geo[field] ?? {})) out[code] = (out[code] ?? 0) + n;
    return out;
  };

  it("FHA's share of New Jersey's records fell from 17.4% in 2018 to 12.6% in 2025", () => {
    expect([pct1(share(st(2018).NJ, 'loanType', '2')), pct1(share(st(2025).NJ, 'loanType', '2'))]).toEqual(['17.4%', '12.6%']);
    says('fha-share-shift-by-state-2018-2025', '| New Jersey | 17.4% | 12.6% | −4.8 |');
  });

  it("Hawaii's denial rate rose from 23.7% in 2018 to 27.3% in 2025", () => {
    expect([pct1(denialRate(st(2018).HI?.actionTaken)), pct1(denialRate(st(2025).HI?.actionTaken))]).toEqual(['23.7%', '27.3%']);
    says('denial-rate-change-by-state-2018-2025', '| Hawaii | 23.7% | 27.3% | +3.6 |');
  });

  it("California's refinance records fell from 2,413,180 in 2021 to 237,435 in 2023", () => {
    const refis = (y: number) => count(st(y).CA?.loanPurpose, '31') + count(st(y).CA?.loanPurpose, '32');
    expect([refis(2021), refis(2023)]).toEqual([2_413_180, 237_435]);
    says(
      'refinance-collapse-by-state-2021-2023',
      `${thousands(refis(2021))} refinance records were filed. In 2023 there were ${thousands(refis(2023))}`,
    );
  });

  it('2025 applications: 14.3% withdrawn and 5.8% closed as incomplete, of 11,965,542', () => {
    const actions = national(2025, 'actionTaken');
    const applications = total(actions) - count(actions, '6');
    expect([applications, pct1((100 * count(actions, '4')) / applications), pct1((100 * count(actions, '5')) / applications)]).toEqual([
      11_965_542,
      '14.3%',
      '5.8%',
    ]);
    says(
      'withdrawn-and-incomplete-mortgage-applications-by-state',
      'Of 11,965,542 applications reported for 2025',
      `| Withdrawn by the applicant | ${thousands(count(actions, '4'))} | 14.3% |`,
      `| Closed as incomplete | ${thousands(count(actions, '5'))} | 5.8% |`,
    );
  });

  it('joint male-female applications fell from 40.7% to 37.3% of records with sex reported', () => {
    const joint = (y: number) => {
      const sex = national(y, 'sex');
      return pct1((100 * count(sex, 'Joint')) / (total(sex) - count(sex, 'Sex Not Available')));
    };
    expect([joint(2018), joint(2025)]).toEqual(['40.7%', '37.3%']);
    says('couples-and-single-mortgage-applicants-by-state-2018-2025', '| 2018 | 40.7% |', '| 2025 | 37.3% |');
  });

  it("New Mexico's Hispanic or Latino share (ethnicity reported) rose from 38.2% to 45.4%", () => {
    const hispanic = (y: number) => {
      const e = st(y).NM?.ethnicity;
      return pct1((100 * count(e, 'Hispanic or Latino')) / (total(e) - count(e, 'Ethnicity Not Available')));
    };
    expect([hispanic(2018), hispanic(2025)]).toEqual(['38.2%', '45.4%']);
    says('hispanic-mortgage-applicants-by-state-2018-2025', '| New Mexico | 38.2% | 45.4% | +7.2 |');
  });

  it('Horry County, SC had 80.4 HMDA records per 1,000 residents in 2024, the most of any county over 250,000', () => {
    const counties = hmda('county', 2024);
    const people = population();
    const rate = (fips: string) => (1000 * total(counties[fips]?.actionTaken)) / people[fips]!;
    const large = Object.keys(people).filter((f) => counties[f] && people[f]! >= 250_000 && !f.startsWith('72'));
    const best = Math.max(...large.map(rate));
    expect([total(counties['45051']?.actionTaken), people['45051'], rate('45051').toFixed(1), best.toFixed(1)]).toEqual([
      28_232,
      351_029,
      '80.4',
      '80.4',
    ]);
    says('hmda-records-per-1000-residents-by-county-2024', '| Horry County, SC (Myrtle Beach) | 28,232 | 351,029 | 80.4 |');
  });

  it('St. Lucie County, FL went from 24,675 records in 2024 to 23,402 in 2025; Stafford County, VA loans were 30.9% VA', () => {
    const [c24, c25] = [hmda('county', 2024), hmda('county', 2025)];
    expect([total(c24['12111']?.actionTaken), total(c25['12111']?.actionTaken)]).toEqual([24_675, 23_402]);
    expect(pct1(share(c25['51179'], 'loanType', '3'))).toBe('30.9%');
    expect(pct1(share(c25['09190'], 'loanType', '2'))).toBe('5.5%');
    says('florida-counties-miss-2025-mortgage-rebound', '| St. Lucie | 24,675 | 23,402 | −5.2% |');
    says('washington-dc-region-loan-limits-and-va-lending', '| Stafford County, VA | 9,425 | 30.9% |');
    says('connecticut-planning-region-loan-limits-and-lending', '| Western Connecticut | 21,516 | +17.3% | 5.5% |');
  });
});
