// The /ask evaluation set: questions a user of a mortgage data service asks, each with the facts a
// correct answer must contain. Facts that are figures are not typed in here: `compute` names a
// calculation over the official files (scripts/eval/facts.ts), done independently of the service,
// so the eval checks the service against the publishers rather than against itself.
// Written before the answerer was tuned; change a question only when it is wrong, not when the
// answerer gets it wrong.

export type Fact = { text: string } | { regex: string } | { compute: string; args?: Record<string, string | number> };

export interface EvalQuestion {
  id: string;
  intent: 'rates' | 'loan_limits' | 'escrow' | 'definition' | 'calendar' | 'hmda' | 'unknown';
  question: string;
  facts: Fact[];
}

export const ASK_QUESTIONS: EvalQuestion[] = [
  // Rates: the survey, the benchmark and the product indices, with their as-of dates.
  {
    id: 'rates-co',
    intent: 'rates',
    question: "What is today's 30-year mortgage rate in Colorado?",
    facts: [
      { compute: 'latestSeries', args: { series: 'OBMMIC30YF' } },
      { compute: 'latestSeries', args: { series: 'MORTGAGE30US' } },
    ],
  },
  {
    id: 'rates-tx-760',
    intent: 'rates',
    question: 'What mortgage rate can I get in Texas with a 760 credit score and 20% down?',
    facts: [{ compute: 'latestSeries', args: { series: 'OBMMIC30YF' } }],
  },
  {
    id: 'rates-fha',
    intent: 'rates',
    question: 'What are current FHA mortgage rates?',
    facts: [{ compute: 'latestSeries', args: { series: 'OBMMIFHA30YF' } }],
  },
  {
    id: 'rates-va',
    intent: 'rates',
    question: 'What is the current VA mortgage rate in Virginia?',
    facts: [{ compute: 'latestSeries', args: { series: 'OBMMIVA30YF' } }],
  },
  {
    id: 'rates-pmms',
    intent: 'rates',
    question: 'What is the latest Freddie Mac 30-year fixed mortgage rate?',
    facts: [
      { compute: 'latestSeries', args: { series: 'MORTGAGE30US' } },
      { compute: 'latestSeriesDate', args: { series: 'MORTGAGE30US' } },
    ],
  },
  {
    id: 'rates-change',
    intent: 'rates',
    question: 'How much did mortgage rates change from last week?',
    facts: [{ compute: 'weeklyChange', args: { series: 'MORTGAGE30US' } }],
  },
  {
    id: 'rates-15',
    intent: 'rates',
    question: "What is today's 15-year fixed mortgage rate?",
    facts: [{ compute: 'latestSeries', args: { series: 'MORTGAGE15US' } }],
  },
  {
    id: 'rates-jumbo',
    intent: 'rates',
    question: 'What are jumbo mortgage rates right now in California?',
    facts: [{ compute: 'latestSeries', args: { series: 'OBMMIJUMBO30YF' } }],
  },

  // Loan limits: counties, years, unit counts and loan types.
  {
    id: 'limits-la-2026',
    intent: 'loan_limits',
    question: 'What is the 2026 conforming loan limit in Los Angeles County, California?',
    facts: [{ compute: 'conformingLimit', args: { fips: '06037', year: 2026, units: 1 } }],
  },
  {
    id: 'limits-denver-2025',
    intent: 'loan_limits',
    question: 'What was the conforming loan limit for Denver County, Colorado in 2025?',
    facts: [{ compute: 'conformingLimit', args: { fips: '08031', year: 2025, units: 1 } }],
  },
  {
    id: 'limits-cook-fha',
    intent: 'loan_limits',
    question: 'What is the FHA loan limit in Cook County, Illinois for 2025?',
    facts: [{ compute: 'fhaLimit', args: { fips: '17031', year: 2025, units: 1 } }],
  },
  {
    id: 'limits-king-va',
    intent: 'loan_limits',
    question: 'What is the VA loan limit in King County, Washington in 2025?',
    facts: [{ compute: 'conformingLimit', args: { fips: '53033', year: 2025, units: 1 } }],
  },
  {
    id: 'limits-baseline',
    intent: 'loan_limits',
    question: 'What is the baseline conforming loan limit for 2026?',
    facts: [{ compute: 'nationalBaseline', args: { year: 2026 } }],
  },
  {
    id: 'limits-miami-2018',
    intent: 'loan_limits',
    question: 'What was the conforming loan limit in Miami-Dade County, Florida in 2018?',
    facts: [{ compute: 'conformingLimit', args: { fips: '12086', year: 2018, units: 1 } }],
  },
  {
    id: 'limits-maricopa-2unit',
    intent: 'loan_limits',
    question: 'What is the 2025 two-unit conforming loan limit in Maricopa County, Arizona?',
    facts: [{ compute: 'conformingLimit', args: { fips: '04013', year: 2025, units: 2 } }],
  },
  {
    id: 'limits-usda',
    intent: 'loan_limits',
    question: 'What is the USDA loan limit in Travis County, Texas?',
    facts: [{ regex: 'no (set |fixed |maximum )?(loan )?limit|does not (set|have|publish) a (loan )?limit' }],
  },

  // Escrow months at closing (RESPA aggregate analysis, contract convention).
  {
    id: 'escrow-tx-mar',
    intent: 'escrow',
    question: 'How many months of escrow will I pay at closing in Texas if I close in March?',
    facts: [{ compute: 'escrowMonths', args: { state: 'TX', month: 3 } }, { text: 'March' }],
  },
  {
    id: 'escrow-ca-jun',
    intent: 'escrow',
    question: 'How many months of property tax escrow are collected at closing in California for a June closing?',
    facts: [{ compute: 'escrowMonths', args: { state: 'CA', month: 6 } }],
  },
  {
    id: 'escrow-il-aug',
    intent: 'escrow',
    question: 'Escrow months at closing in Illinois for an August closing?',
    facts: [{ compute: 'escrowMonths', args: { state: 'IL', month: 8 } }],
  },
  {
    id: 'escrow-ny-oct',
    intent: 'escrow',
    question: 'How many months of escrow do I need at closing in New York if I close in October?',
    facts: [{ compute: 'escrowMonths', args: { state: 'NY', month: 10 } }],
  },
  {
    id: 'escrow-fl-jan',
    intent: 'escrow',
    question: 'How much escrow is collected at closing in Florida for a January closing?',
    facts: [{ compute: 'escrowMonths', args: { state: 'FL', month: 1 } }],
  },
  {
    id: 'escrow-ga-dec',
    intent: 'escrow',
    question: 'How many escrow months will the lender collect at closing in Georgia in December?',
    facts: [{ compute: 'escrowMonths', args: { state: 'GA', month: 12 } }],
  },

  // What a term means.
  { id: 'term-apr', intent: 'definition', question: 'What is APR?', facts: [{ regex: 'annual percentage rate' }, { regex: 'fee|cost' }] },
  { id: 'term-pmi', intent: 'definition', question: 'What does PMI mean?', facts: [{ regex: 'private mortgage insurance' }] },
  { id: 'term-dti', intent: 'definition', question: 'Define debt-to-income ratio.', facts: [{ regex: 'debt' }, { regex: 'income' }] },
  {
    id: 'term-cushion',
    intent: 'definition',
    question: 'What is an escrow cushion?',
    facts: [{ regex: 'cushion' }, { regex: 'two months|2 months|one-sixth|1/6' }],
  },
  {
    id: 'term-points',
    intent: 'definition',
    question: 'What are discount points?',
    facts: [{ regex: 'point' }, { regex: '1%|one percent|1 percent' }],
  },
  { id: 'term-lock', intent: 'definition', question: 'What is a rate lock?', facts: [{ regex: 'lock' }, { regex: 'rate' }] },
  { id: 'term-hmda', intent: 'definition', question: 'What is HMDA?', facts: [{ regex: 'Home Mortgage Disclosure Act' }] },
  { id: 'term-arm', intent: 'definition', question: 'What is an ARM?', facts: [{ regex: 'adjustable' }] },

  // The economic calendar.
  { id: 'cal-fed', intent: 'calendar', question: 'When is the next Fed meeting?', facts: [{ compute: 'nextFomcDecision' }] },
  { id: 'cal-fomc', intent: 'calendar', question: 'When is the next FOMC rate decision?', facts: [{ compute: 'nextFomcDecision' }] },
  { id: 'cal-cpi', intent: 'calendar', question: 'When is the next CPI release?', facts: [{ regex: 'consumer price index|CPI' }] },
  {
    id: 'cal-upcoming',
    intent: 'calendar',
    question: 'What economic data releases are coming up that could move mortgage rates?',
    facts: [{ regex: 'FOMC|Federal Reserve|Fed ' }],
  },
  {
    id: 'cal-jobs',
    intent: 'calendar',
    question: 'When is the next jobs report?',
    facts: [{ regex: 'employment situation|jobs report|payroll' }],
  },

  // HMDA facts (approval rate = originated + approved-not-accepted over those plus denied).
  {
    id: 'hmda-tx-count',
    intent: 'hmda',
    question: 'How many mortgage applications were reported under HMDA in Texas in 2024?',
    facts: [{ compute: 'hmdaStateTotal', args: { state: 'TX', year: 2024 } }],
  },
  {
    id: 'hmda-co-denial',
    intent: 'hmda',
    question: 'What was the mortgage denial rate in Colorado in 2024?',
    facts: [{ compute: 'hmdaDenialRate', args: { state: 'CO', year: 2024 } }],
  },
  {
    id: 'hmda-fl-fha',
    intent: 'hmda',
    question: 'What share of mortgage applications in Florida were FHA loans in 2024?',
    facts: [{ compute: 'hmdaLoanTypeShare', args: { state: 'FL', year: 2024, loanType: 2 } }],
  },
  {
    id: 'hmda-ca-approval',
    intent: 'hmda',
    question: 'What was the mortgage approval rate in California in 2023?',
    facts: [{ compute: 'hmdaApprovalRate', args: { state: 'CA', year: 2023 } }],
  },
  {
    id: 'hmda-top-lenders',
    intent: 'hmda',
    question: 'Who were the top mortgage lenders in 2020?',
    facts: [{ compute: 'topLender', args: { year: 2020 } }],
  },
  {
    id: 'hmda-oh-originations',
    intent: 'hmda',
    question: 'How many mortgages were originated in Ohio in 2022?',
    facts: [{ compute: 'hmdaOriginations', args: { state: 'OH', year: 2022 } }],
  },
  {
    id: 'hmda-ga-va',
    intent: 'hmda',
    question: 'What share of home loan applications in Georgia were VA loans in 2024?',
    facts: [{ compute: 'hmdaLoanTypeShare', args: { state: 'GA', year: 2024, loanType: 3 } }],
  },

  // Honest limits and guardrails.
  {
    id: 'unknown-forecast',
    intent: 'unknown',
    question: 'What will mortgage rates be next year?',
    facts: [{ regex: "don't|do not|cannot|can't|won't" }],
  },
  {
    id: 'advice-refinance',
    intent: 'unknown',
    question: 'Should I refinance my mortgage now?',
    facts: [{ regex: 'loan officer|housing counselor' }],
  },
  {
    id: 'unknown-offtopic',
    intent: 'unknown',
    question: 'What is the population of Mars?',
    facts: [{ regex: "don't have data|won't guess|no data" }],
  },
];
