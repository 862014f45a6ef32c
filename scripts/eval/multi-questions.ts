// The multi-step /ask evaluation: questions that combine figures (a change, a spread, a count over
// weeks, a ranking, a share, a per-resident figure, a payment) or that name a place or period the
// answer must not swap for another. Facts are computed by scripts/eval/multi-facts.ts straight from
// the official files, never through the service.
// Written before the question reader was built. `heldOut` questions were never looked at while the
// reader was tuned: their score is reported apart. Change a question only when it is wrong, not
// when the answerer gets it wrong.
import type { Fact } from './ask-questions.ts';

export type MultiKind =
  | 'change'
  | 'compare'
  | 'count'
  | 'crossing'
  | 'extremes'
  | 'rank'
  | 'share'
  | 'per_resident'
  | 'payment'
  | 'value'
  | 'calendar'
  | 'cannot';

export interface MultiQuestion {
  id: string;
  kind: MultiKind;
  question: string;
  facts: Fact[];
  heldOut?: true;
}

const c = (compute: string, args: Record<string, string | number> = {}): Fact => ({ compute, args });
const P30 = 'MORTGAGE30US';
const P15 = 'MORTGAGE15US';
/** The first sentence says the thing asked for cannot be answered (county rates are not held). */
const SAYS_CANNOT_FIRST = { regex: "^[^.!?\\n]*\\b(don't|do not|cannot|can't|no|not)\\b" };

export const MULTI_QUESTIONS: MultiQuestion[] = [
  // Rates over time.
  {
    id: 'm-weeks-above-7-2023',
    kind: 'count',
    question: 'How many weeks was the 30-year fixed rate above 7% in 2023?',
    facts: [c('countWeeks', { series: P30, from: '2023-01-01', to: '2023-12-31', op: 'gt', threshold: 7 })],
  },
  {
    id: 'm-last-below-6',
    kind: 'crossing',
    question: 'When was the 30-year mortgage rate last below 6%?',
    facts: [c('lastWhere', { series: P30, op: 'lt', threshold: 6 }), c('lastWhereValue', { series: P30, op: 'lt', threshold: 6 })],
  },
  {
    id: 'm-high-2022',
    kind: 'extremes',
    question: 'What was the highest 30-year fixed rate in 2022, and when was it?',
    facts: [
      c('extremeValue', { series: P30, from: '2022-01-01', to: '2022-12-31', which: 'max' }),
      c('extremeDate', { series: P30, from: '2022-01-01', to: '2022-12-31', which: 'max' }),
    ],
  },
  {
    id: 'm-low-since-2020',
    kind: 'extremes',
    question: 'What was the lowest 30-year mortgage rate since 2020?',
    facts: [
      c('extremeValue', { series: P30, from: '2020-01-01', to: '2099-12-31', which: 'min' }),
      c('extremeDate', { series: P30, from: '2020-01-01', to: '2099-12-31', which: 'min' }),
    ],
  },
  {
    id: 'm-avg-2021-2023',
    kind: 'change',
    question: 'How much did the average 30-year rate rise from 2021 to 2023?',
    facts: [
      c('mean', { series: P30, from: '2021-01-01', to: '2021-12-31' }),
      c('mean', { series: P30, from: '2023-01-01', to: '2023-12-31' }),
      c('meanChange', { series: P30, a: '2021', b: '2023' }),
    ],
  },
  {
    id: 'm-spread-30-15',
    kind: 'compare',
    question: 'What was the spread between the 30-year and 15-year fixed rates on September 25, 2025?',
    facts: [
      c('valueOn', { series: P30, date: '2025-09-25' }),
      c('valueOn', { series: P15, date: '2025-09-25' }),
      c('spreadOn', { a: P30, b: P15, date: '2025-09-25' }),
    ],
  },
  {
    id: 'm-avg-30-15-2024',
    kind: 'compare',
    question: "Compare the 30-year and 15-year fixed rates in 2024: what was each one's average, and the gap between them?",
    facts: [
      c('mean', { series: P30, from: '2024-01-01', to: '2024-12-31' }),
      c('mean', { series: P15, from: '2024-01-01', to: '2024-12-31' }),
      c('meanSpread', { a: P30, b: P15, year: 2024 }),
    ],
  },
  {
    id: 'm-payment-latest',
    kind: 'payment',
    question: 'What is the monthly principal and interest payment on a $400,000 30-year loan at the latest Freddie Mac 30-year rate?',
    facts: [c('latest', { series: P30 }), c('paymentAtLatest', { series: P30, amount: 400000, years: 30 })],
  },
  {
    id: 'm-payment-15-dec-2024',
    kind: 'payment',
    question: 'What would the monthly payment be on a $300,000 15-year mortgage at the 15-year fixed rate of December 26, 2024?',
    facts: [
      c('valueOn', { series: P15, date: '2024-12-26' }),
      c('paymentAt', { series: P15, date: '2024-12-26', amount: 300000, years: 15 }),
    ],
  },
  {
    id: 'm-weeks-below-6.5-2024',
    kind: 'count',
    question: 'How many weeks in 2024 was the 30-year rate below 6.5%?',
    facts: [c('countWeeks', { series: P30, from: '2024-01-01', to: '2024-12-31', op: 'lt', threshold: 6.5 })],
  },
  {
    id: 'm-low2021-high2023',
    kind: 'change',
    question: 'By what percent did the 30-year rate rise from its 2021 low to its 2023 high?',
    facts: [
      c('extremeValue', { series: P30, from: '2021-01-01', to: '2021-12-31', which: 'min' }),
      c('extremeValue', { series: P30, from: '2023-01-01', to: '2023-12-31', which: 'max' }),
      c('lowToHighPercent', { series: P30, lowYear: 2021, highYear: 2023 }),
    ],
  },
  {
    id: 'm-fed-dec-2024-week',
    kind: 'value',
    question: 'What was the 30-year rate in the week of the December 2024 Fed meeting?',
    facts: [c('fomcDecision', { year: 2024, month: 12 }), c('weekOfFomc', { series: P30, year: 2024, month: 12 })],
  },
  {
    id: 'm-fed-sep-dec-2024',
    kind: 'change',
    question: 'How did the 30-year rate move from the week of the September 2024 Fed meeting to the week of the December 2024 Fed meeting?',
    facts: [
      c('weekOfFomc', { series: P30, year: 2024, month: 9 }),
      c('weekOfFomc', { series: P30, year: 2024, month: 12 }),
      c('fomcWeekChange', { series: P30, year: 2024, a: 9, b: 12 }),
    ],
  },
  {
    id: 'm-ob-jumbo-conforming',
    kind: 'compare',
    question: 'What was the gap between the Optimal Blue jumbo and conforming 30-year rates on December 31, 2024?',
    facts: [
      c('valueOn', { series: 'OBMMIJUMBO30YF', date: '2024-12-31' }),
      c('valueOn', { series: 'OBMMIC30YF', date: '2024-12-31' }),
      c('spreadOn', { a: 'OBMMIJUMBO30YF', b: 'OBMMIC30YF', date: '2024-12-31' }),
    ],
  },
  {
    id: 'm-ob-fha-va-2023',
    kind: 'compare',
    question: 'How much higher was the FHA 30-year rate than the VA rate on average in 2023, on the Optimal Blue indices?',
    facts: [
      c('mean', { series: 'OBMMIFHA30YF', from: '2023-01-01', to: '2023-12-31' }),
      c('mean', { series: 'OBMMIVA30YF', from: '2023-01-01', to: '2023-12-31' }),
      c('meanSpread', { a: 'OBMMIFHA30YF', b: 'OBMMIVA30YF', year: 2023 }),
    ],
  },
  {
    id: 'm-ob-fha-high-2023',
    kind: 'extremes',
    question: 'What was the highest Optimal Blue FHA 30-year rate in 2023, and on what day?',
    facts: [
      c('extremeValue', { series: 'OBMMIFHA30YF', from: '2023-01-01', to: '2023-12-31', which: 'max' }),
      c('extremeDate', { series: 'OBMMIFHA30YF', from: '2023-01-01', to: '2023-12-31', which: 'max' }),
    ],
  },

  // Loan limits across counties and years.
  {
    id: 'm-co-above-baseline',
    kind: 'count',
    question: 'How many Colorado counties have a 2026 conforming loan limit above the baseline?',
    facts: [c('countCountiesAboveBaseline', { state: 'CO', year: 2026 })],
  },
  {
    id: 'm-ca-fha-top',
    kind: 'rank',
    question: 'Which California counties have the highest FHA loan limit in 2025?',
    facts: [
      c('topFhaValue', { state: 'CA', year: 2025 }),
      c('topFhaCount', { state: 'CA', year: 2025 }),
      { regex: 'Los Angeles' },
      { regex: 'San Francisco' },
    ],
  },
  {
    id: 'm-baseline-2018-2026',
    kind: 'change',
    question: 'How much did the baseline conforming loan limit change from 2018 to 2026, in dollars and percent?',
    facts: [c('baselineChange', { from: 2018, to: 2026, as: 'dollars' }), c('baselineChange', { from: 2018, to: 2026, as: 'percent' })],
  },
  {
    id: 'm-baseline-biggest-jump',
    kind: 'extremes',
    question: 'Which year had the biggest jump in the baseline conforming loan limit since 2018?',
    facts: [c('biggestBaselineJump', { from: 2018, as: 'year' }), c('biggestBaselineJump', { from: 2018, as: 'dollars' })],
  },
  {
    id: 'm-cook-fha-share',
    kind: 'share',
    question: "What is Cook County, Illinois' 2025 FHA loan limit as a share of its conforming limit?",
    facts: [
      c('fhaLimit', { fips: '17031', year: 2025 }),
      c('conformingLimit', { fips: '17031', year: 2025 }),
      c('fhaShareOfConforming', { fips: '17031', year: 2025 }),
    ],
  },
  {
    id: 'm-sf-denver-2025',
    kind: 'compare',
    question: "What's the difference between the 2025 conforming loan limits in San Francisco and Denver?",
    facts: [
      c('conformingLimit', { fips: '06075', year: 2025 }),
      c('conformingLimit', { fips: '08031', year: 2025 }),
      c('conformingDifference', { a: '06075', b: '08031', year: 2025 }),
    ],
  },
  {
    id: 'm-king-2020-2025',
    kind: 'change',
    question: 'How much did the conforming loan limit in King County, Washington change from 2020 to 2025?',
    facts: [
      c('conformingLimit', { fips: '53033', year: 2020 }),
      c('conformingLimit', { fips: '53033', year: 2025 }),
      c('conformingChange', { fips: '53033', from: 2020, to: 2025 }),
    ],
  },
  {
    id: 'm-tx-fha-above-floor',
    kind: 'count',
    question: 'How many Texas counties have a 2025 FHA limit above the FHA floor?',
    facts: [c('countFhaAboveFloor', { state: 'TX', year: 2025 })],
  },
  {
    id: 'm-harris-jumbo',
    kind: 'value',
    question: 'What is the jumbo threshold in Harris County (Houston) for 2026?',
    facts: [c('conformingLimit', { fips: '48201', year: 2026 })],
  },
  {
    id: 'm-la-4unit',
    kind: 'compare',
    question: 'What is the 2026 conforming limit for a 4-unit home in LA county, and how much more is it than for a one-unit home?',
    facts: [
      c('conformingLimit', { fips: '06037', year: 2026, units: 4 }),
      c('conformingLimit', { fips: '06037', year: 2026, units: 1 }),
      c('unitDifference', { fips: '06037', year: 2026, a: 4, b: 1 }),
    ],
  },

  // HMDA across states, counties and years.
  {
    id: 'm-top3-originations-2022',
    kind: 'rank',
    question: 'What were the top 3 states by mortgage originations in 2022?',
    facts: [
      c('topStateName', { year: 2022, measure: 'originations', rank: 1 }),
      c('topStateName', { year: 2022, measure: 'originations', rank: 2 }),
      c('topStateName', { year: 2022, measure: 'originations', rank: 3 }),
      c('topStateValue', { year: 2022, measure: 'originations', rank: 1 }),
    ],
  },
  {
    id: 'm-highest-denial-2024',
    kind: 'rank',
    question: 'Which state had the highest mortgage denial rate in 2024?',
    facts: [
      c('topStateName', { year: 2024, measure: 'denial_rate', rank: 1 }),
      c('topStateValue', { year: 2024, measure: 'denial_rate', rank: 1 }),
    ],
  },
  {
    id: 'm-maricopa-originations',
    kind: 'value',
    question: 'How many mortgages were originated in Maricopa County, Arizona in 2024?',
    facts: [c('countyMeasure', { fips: '04013', year: 2024, measure: 'originations' })],
  },
  {
    id: 'm-cook-fha-records-2023',
    kind: 'share',
    question: 'What share of HMDA records in Cook County, Illinois were FHA loans in 2023?',
    facts: [c('countyLoanTypeShare', { fips: '17031', year: 2023, loanType: 2 })],
  },
  {
    id: 'm-tx-originations-2021-2023',
    kind: 'change',
    question: 'By what percent did mortgage originations in Texas fall from 2021 to 2023?',
    facts: [
      c('stateMeasure', { state: 'TX', year: 2021, measure: 'originations' }),
      c('stateMeasure', { state: 'TX', year: 2023, measure: 'originations' }),
      c('stateMeasureChangePercent', { state: 'TX', from: 2021, to: 2023, measure: 'originations' }),
    ],
  },
  {
    id: 'm-fl-per-1000',
    kind: 'per_resident',
    question: 'How many mortgages were originated per 1,000 residents in Florida in 2024?',
    facts: [c('perThousand', { place: 'FL', year: 2024, measure: 'originations' })],
  },
  {
    id: 'm-ca-share-us-2024',
    kind: 'share',
    question: 'What share of all US mortgage originations in 2024 were in California?',
    facts: [c('stateShareOfNation', { state: 'CA', year: 2024, measure: 'originations' })],
  },
  {
    id: 'm-harris-vs-tx-denial',
    kind: 'compare',
    question: 'What was the denial rate in Harris County, Texas in 2024, compared with Texas as a whole?',
    facts: [
      c('countyMeasure', { fips: '48201', year: 2024, measure: 'denial_rate' }),
      c('stateMeasure', { state: 'TX', year: 2024, measure: 'denial_rate' }),
    ],
  },
  {
    id: 'm-peak-year-us',
    kind: 'extremes',
    question: 'Which year since 2018 had the most mortgage originations nationwide?',
    facts: [
      c('peakNationalYear', { measure: 'originations', as: 'year' }),
      c('peakNationalYear', { measure: 'originations', as: 'value' }),
    ],
  },
  {
    id: 'm-lowest5-denial-2023',
    kind: 'rank',
    question: 'Rank the five states with the lowest mortgage denial rates in 2023.',
    facts: [1, 2, 3, 4, 5].map((rank) => c('bottomStateName', { year: 2023, measure: 'denial_rate', rank })),
  },

  // Rates on outstanding mortgages (FHFA NMDB) against new-loan rates.
  {
    id: 'm-tx-existing',
    kind: 'value',
    question: 'What is the average interest rate on existing mortgages in Texas?',
    facts: [c('nmdbLatest', { state: 'TX' }), { regex: 'outstanding|existing' }],
  },
  {
    id: 'm-ca-outstanding-since-2022',
    kind: 'change',
    question: 'How much has the average rate on outstanding mortgages in California risen since the start of 2022?',
    facts: [
      c('nmdbAt', { state: 'CA', period: '2022Q1' }),
      c('nmdbLatest', { state: 'CA' }),
      c('nmdbChangeSince', { state: 'CA', period: '2022Q1' }),
    ],
  },
  {
    id: 'm-nmdb-highest-state',
    kind: 'rank',
    question: 'Which state has the highest average rate on outstanding mortgages?',
    facts: [c('nmdbTopName', {}), c('nmdbTopValue', {})],
  },
  {
    id: 'm-fl-existing-vs-new',
    kind: 'compare',
    question: "How does the average rate Florida homeowners pay on their existing mortgages compare with today's 30-year rate?",
    facts: [c('nmdbLatest', { state: 'FL' }), c('latest', { series: P30 }), c('nmdbVsLatest', { state: 'FL', series: P30 })],
  },

  // The calendar, for the period asked.
  {
    id: 'm-may-2026-releases',
    kind: 'calendar',
    question: 'What economic data releases are scheduled in May 2026?',
    facts: [
      c('blsRelease', { month: '2026-05', summary: 'Consumer Price Index' }),
      c('blsRelease', { month: '2026-05', summary: 'Employment Situation' }),
    ],
  },
  {
    id: 'm-fomc-count-2023',
    kind: 'calendar',
    question: 'How many FOMC rate decisions were there in 2023?',
    facts: [c('fomcCount', { year: 2023 })],
  },

  // The substitutions the service must not make in silence.
  {
    id: 'm-maricopa-denial',
    kind: 'value',
    question: 'What was the mortgage denial rate in Maricopa County, Arizona in 2024?',
    facts: [c('countyMeasure', { fips: '04013', year: 2024, measure: 'denial_rate' })],
  },
  {
    id: 'm-cook-originations-2023',
    kind: 'value',
    question: 'How many home loans were originated in Cook County, Illinois in 2023?',
    facts: [c('countyMeasure', { fips: '17031', year: 2023, measure: 'originations' })],
  },
  {
    id: 'm-maricopa-rate',
    kind: 'cannot',
    question: 'What is the average 30-year mortgage rate in Maricopa County?',
    facts: [SAYS_CANNOT_FIRST, { regex: 'county' }],
  },
  {
    id: 'm-la-denial-2017',
    kind: 'cannot',
    question: 'What was the mortgage denial rate in Los Angeles County in 2017?',
    facts: [SAYS_CANNOT_FIRST, { regex: '2017' }, { regex: '2018' }],
  },

  // Held out: never looked at while the reader was tuned.
  {
    id: 'h-weeks-above-6-2022',
    kind: 'count',
    heldOut: true,
    question: 'How many weeks in 2022 was the 30-year rate above 6%?',
    facts: [c('countWeeks', { series: P30, from: '2022-01-01', to: '2022-12-31', op: 'gt', threshold: 6 })],
  },
  {
    id: 'h-last-above-7.5',
    kind: 'crossing',
    heldOut: true,
    question: 'When was the 30-year fixed rate last above 7.5%?',
    facts: [c('lastWhere', { series: P30, op: 'gt', threshold: 7.5 })],
  },
  {
    id: 'h-low-15-2021',
    kind: 'extremes',
    heldOut: true,
    question: 'What was the lowest 15-year fixed rate in 2021 and when was it?',
    facts: [
      c('extremeValue', { series: P15, from: '2021-01-01', to: '2021-12-31', which: 'min' }),
      c('extremeDate', { series: P15, from: '2021-01-01', to: '2021-12-31', which: 'min' }),
    ],
  },
  {
    id: 'h-payment-550k',
    kind: 'payment',
    heldOut: true,
    question: "What's the monthly payment on a $550,000 30-year mortgage at 6.5%?",
    facts: [c('payment', { amount: 550000, rate: 6.5, years: 30 })],
  },
  {
    id: 'h-fl-above-baseline',
    kind: 'count',
    heldOut: true,
    question: 'How many Florida counties had a 2025 conforming limit above the baseline?',
    facts: [c('countCountiesAboveBaseline', { state: 'FL', year: 2025 })],
  },
  {
    id: 'h-co-highest-limit',
    kind: 'rank',
    heldOut: true,
    question: 'Which Colorado county has the highest 2026 conforming loan limit?',
    facts: [c('topConformingValue', { state: 'CO', year: 2026 }), c('topConformingNames', { state: 'CO', year: 2026 })],
  },
  {
    id: 'h-top5-records-2024',
    kind: 'rank',
    heldOut: true,
    question: 'What were the top 5 states by HMDA records in 2024?',
    facts: [1, 2, 3, 4, 5].map((rank) => c('topStateName', { year: 2024, measure: 'records', rank })),
  },
  {
    id: 'h-harris-va-share',
    kind: 'share',
    heldOut: true,
    question: 'What share of mortgage applications in Harris County, Texas were VA loans in 2024?',
    facts: [c('countyLoanTypeShare', { fips: '48201', year: 2024, loanType: 3 })],
  },
  {
    id: 'h-cook-per-1000',
    kind: 'per_resident',
    heldOut: true,
    question: 'How many mortgages were originated per 1,000 residents in Cook County, Illinois in 2024?',
    facts: [c('perThousand', { place: '17031', year: 2024, measure: 'originations' })],
  },
  {
    id: 'h-ny-vs-ca-outstanding',
    kind: 'compare',
    heldOut: true,
    question: 'What is the average rate on outstanding mortgages in New York, and how does it compare to California?',
    facts: [c('nmdbLatest', { state: 'NY' }), c('nmdbLatest', { state: 'CA' })],
  },
  {
    id: 'h-sf-fha-2021-2025',
    kind: 'change',
    heldOut: true,
    question: 'How much did the FHA loan limit in san fransisco change from 2021 to 2025?',
    facts: [
      c('fhaLimit', { fips: '06075', year: 2021 }),
      c('fhaLimit', { fips: '06075', year: 2025 }),
      c('fhaChange', { fips: '06075', from: 2021, to: 2025 }),
    ],
  },
  {
    id: 'h-brooklyn-2026',
    kind: 'compare',
    heldOut: true,
    question: "What's the conforming loan limit in Brooklyn for 2026 and how far above the baseline is it?",
    facts: [c('conformingLimit', { fips: '36047', year: 2026 }), c('aboveBaseline', { fips: '36047', year: 2026 })],
  },
  {
    id: 'h-ohio-2021-2024',
    kind: 'change',
    heldOut: true,
    question: 'Compare mortgage originations in 2021 and 2024 in Ohio: what was the percent change?',
    facts: [
      c('stateMeasure', { state: 'OH', year: 2021, measure: 'originations' }),
      c('stateMeasure', { state: 'OH', year: 2024, measure: 'originations' }),
      c('stateMeasureChangePercent', { state: 'OH', from: 2021, to: 2024, measure: 'originations' }),
    ],
  },
  {
    id: 'h-fed-mar-2025-week',
    kind: 'value',
    heldOut: true,
    question: 'What was the average 30-year mortgage rate in the week of the March 2025 Fed meeting?',
    facts: [c('weekOfFomc', { series: P30, year: 2025, month: 3 })],
  },
  {
    id: 'h-mar-2026-releases',
    kind: 'calendar',
    heldOut: true,
    question: 'What economic data releases are scheduled for March 2026?',
    facts: [
      c('blsRelease', { month: '2026-03', summary: 'Consumer Price Index' }),
      c('blsRelease', { month: '2026-03', summary: 'Employment Situation' }),
    ],
  },
  {
    id: 'h-miami-rate',
    kind: 'cannot',
    heldOut: true,
    question: "What's the mortgage rate in Miami-Dade County?",
    facts: [SAYS_CANNOT_FIRST, { regex: 'county' }],
  },
  {
    id: 'h-per-resident-top-2024',
    kind: 'rank',
    heldOut: true,
    question: 'Which state had the most mortgage originations per resident in 2024?',
    facts: [c('topPerResidentName', { year: 2024, measure: 'originations' })],
  },
  {
    id: 'h-weeks-above-7-2026',
    kind: 'count',
    heldOut: true,
    question: 'How many weeks has the 30-year rate been above 7% since the start of 2026?',
    facts: [c('countWeeks', { series: P30, from: '2026-01-01', to: '2099-12-31', op: 'gt', threshold: 7 })],
  },
];
