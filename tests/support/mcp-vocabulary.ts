// The natural calls of each MCP tool (state names, lower-case codes, "FHA", "90%", "15", aliases…)
// and a few invalid ones, as tables: the unit test checks them against the published input schemas
// and the tools' own argument parsing, the integration test through a real MCP client. Each
// natural call is accepted by both; each invalid one refused by both.
//
// Where the published schema is knowingly wider than the server (it cannot list every place name in
// every case), `WIDER` says so, and the tests check only that nothing the server takes is refused.

export type Args = Record<string, unknown>;

export interface Vocabulary {
  /** Arguments every call of the table adds (a required one), unless the call sets them. */
  base: Args;
  natural: Args[];
  invalid: Args[];
}

export const VOCABULARY: Record<string, Vocabulary> = {
  get_mortgage_rates: {
    base: {},
    natural: [
      { state: 'Texas' },
      { state: 'wa' },
      { state: 'new york' },
      { state: ' TX ' },
      { state: 'District of Columbia' },
      { state: 'NORTH  CAROLINA' },
      { fico: 745 },
      { fico: '745' },
      { fico: 2 },
      { fico: '2' },
      { fico: '760.0' },
      { ltv: '90%' },
      { ltv: 80 },
      { ltv: '80' },
      { ltv: 1 },
      { ltv: '95.5 %' },
      { ltv: 62.5 },
      { down_payment: 10 },
      { down_payment: '3.5%' },
      { down_payment: '20' },
      { down_payment: 0 },
      { product_type: 'FHA' },
      { product_type: 'Conventional' },
      { product_type: 'conforming' },
      { product_type: ' va ' },
      { occupancy: 'Second Home' },
      { occupancy: 'primary residence' },
      { occupancy: 'INVESTMENT' },
      { property_type: 'single family' },
      { property_type: 'Condo' },
      { property_type: 'multi-family' },
      { property_type: 'Single_Family' },
      { loan_term: '15' },
      { loan_term: 15 },
      { loan_term: '15-year' },
      { loan_term: '30 years' },
      { loan_term: '20yr' },
      { loan_purpose: 'Cash-Out Refinance' },
      { loan_purpose: 'refi' },
      { loan_purpose: 'Purchase' },
      { date: '2024-01-05' },
      { date: ' 2024-01-05 ' },
      { from: '2020' },
      { from: 2020 },
      { from: '2024-01' },
      { from: '2024-02-29', to: '2024-12-31' },
      { state: 'Texas', fico: 745, down_payment: 10, product_type: 'FHA', loan_term: '15' },
    ],
    invalid: [
      { state: 'T3xas' },
      { state: 42 },
      { fico: 9 },
      { fico: '9' },
      { fico: 745.5 },
      { loan_term: 25 },
      { loan_term: '25' },
      { product_type: 'FHA loan' },
      { ltv: 30 },
      { ltv: '101%' },
      { down_payment: '98%' },
      { date: '2025-02-29' },
      { from: '2023-02-29' },
      { credit_score: 700 },
    ],
  },
  get_loan_limits: {
    base: { state: 'CA' },
    natural: [
      { state: 'California' },
      { state: 'ca' },
      { state: 'Puerto Rico' },
      { state: 'u.s. virgin islands' },
      { state: ' tx ' },
      { county: 'Los Angeles' },
      { county: 'los angeles county' },
      { county: '06037' },
      { state: 'NY', county: 'Brooklyn' },
      { state: 'LA', county: 'Orleans Parish' },
      { year: '2025' },
      { year: 2026 },
      { loan_type: 'FHA' },
      { loan_type: 'Conventional' },
      { loan_type: 'ALL' },
      { units: '2' },
      { units: 2 },
      { county: '06037', from_year: '2018' },
      { from_year: 2020, to_year: '2026' },
      { offset: '15' },
      { offset: 15 },
    ],
    invalid: [
      { state: undefined },
      { units: 5 },
      { units: '1.5' },
      { loan_type: 'jumbo' },
      { year: '20x6' },
      { state: 42 },
      { offset: -1 },
      { zip: '90012' },
    ],
  },
  lookup_glossary_term: {
    base: {},
    natural: [{ term: 'DTI' }, { term: ' debt to income ' }, { term: 'escrow cushion' }, { term: 'Loan-to-value ratio' }],
    invalid: [{}, { term: '' }, { term: '   ' }, { term: 5 }, { term: 'x'.repeat(101) }],
  },
  get_statistics: {
    base: {},
    natural: [
      {},
      { category: 'Loan Types' },
      { category: 'loan-types' },
      { category: 'RATES' },
      { year: '2025' },
      { year: 2025 },
      { all: 'false' },
      { all: 'yes' },
      { all: 0 },
      { all: false, category: 'rates' },
      { id: 'PMMS 30yr latest' },
      { id: 'pmms_30yr_latest' },
      { offset: '20' },
    ],
    invalid: [{ category: 'foo' }, { all: 'maybe' }, { all: 2 }, { year: 1900 }, { id: '' }, { state: 'CA' }],
  },
  get_economic_calendar: {
    base: {},
    natural: [
      {},
      { category: 'FOMC' },
      { category: 'CPI' },
      { category: 'cpi' },
      { category: 'jobs' },
      { category: ['CPI', 'jobs'] },
      { category: 'fed, housing' },
      { category: 'Federal Reserve' },
      { impact: 'HIGH' },
      { impact: 'high,medium' },
      { impact: ['High', 'Low'] },
      { from: '2026-12-01', to: '2026-12-31' },
      { limit: '5' },
      { limit: 5 },
    ],
    invalid: [
      { category: 'weather' },
      { impact: 'extreme' },
      { impact: [] },
      { from: '2026-13-01' },
      { limit: 0 },
      { limit: '501' },
      { country: 'US' },
    ],
  },
  search_content: {
    base: { query: 'escrow' },
    natural: [
      { query: 'escrow cushion' },
      { query: '"FHA mortgage insurance" -VA' },
      { type: 'Glossary' },
      { type: 'market updates' },
      { type: 'bills' },
      { limit: '5' },
    ],
    invalid: [{ query: '' }, { query: '   ' }, { type: 'video' }, { limit: 51 }, { q: 'escrow' }],
  },
  get_congress_bills: {
    base: {},
    natural: [
      {},
      { query: 'FHA' },
      { keyword: 'FHA' },
      { keyword: 'housing supply' },
      { query: 'FHA', keyword: 'FHA' },
      { status: 'In Committee' },
      { status: 'became-law' },
      { status: 'INTRODUCED' },
      { limit: '5' },
      { limit: 5 },
    ],
    invalid: [{ status: 'pending' }, { limit: 61 }, { limit: '0' }, { sponsor: 'Waters' }, { keyword: '' }],
  },
  query_hmda: {
    base: {},
    natural: [
      { preset: 'Lender-Rankings' },
      { preset: 'RATES', state: 'California' },
      { preset: 'rates', loan_type: 'FHA' },
      { preset: 'rates', loan_type: 2 },
      { preset: 'rates', loan_type: '2' },
      { preset: 'approvals', loan_purpose: 'Cash-Out Refinance' },
      { preset: 'approvals', loan_purpose: 31 },
      { preset: 'rates', lien: 1 },
      { preset: 'rates', lien: 'first lien' },
      { preset: 'denials', county: 6037 },
      { preset: 'denials', county: '06037' },
      { preset: 'approvals', msa: '19740' },
      { preset: 'lender_rankings', lei: ' 549300ul36ajz0wz4u93 ' },
      { preset: 'rates', year: '2020' },
      { preset: 'lender_rankings', limit: '5', sort: 'VOLUME' },
      { preset: 'demographics', by: 'Income' },
      { sql: 'SELECT 1 AS one' },
    ],
    invalid: [
      { preset: 'everything' },
      { preset: 'rates', loan_type: 7 },
      { preset: 'rates', county: '6037' },
      { preset: 'rates', lei: 'short' },
      { preset: 'rates', year: 2017 },
      { sql: '' },
    ],
  },
  find_series: {
    base: { query: 'VA share Hawaii' },
    natural: [{}, { query: 'denial rate Harris County' }, { query: 'outstanding mortgages above 6% Arizona', limit: '5' }, { offset: 10 }],
    invalid: [{ query: '' }, { limit: 0 }, { q: 'rates' }],
  },
  analyze_data: {
    base: { operation: 'value', series: 'pmms/30-year' },
    natural: [
      {},
      { at: 'Latest' },
      { at: 2023 },
      { at: '2025q3' },
      { at: '2024-12-18' },
      { operation: 'Rank', series: 'hmda/*/originations', state: 'Pennsylvania', at: '2025', limit: '2' },
      { operation: 'rank', series: 'hmda/*/originations', per: 1000, order: 'Lowest', places: 'TX, FL' },
      { operation: 'rank', series: 'hmda/*/originations', min_population: '1000000', among: 'States' },
      { operation: 'count', from: '2023', to: '2023', above: '7' },
      { operation: 'Per-Resident', series: 'hmda/FL/originations' },
      { operation: 'payment', amount: '400000', rate: '6.5', term_years: 15 },
      { operation: 'moves', direction: 'Down' },
      { operation: 'count', above: 7 },
      { operation: 'crossing', below: 3.5, equal: -1 },
      { operation: 'streak', below: 3, at: 2021, from_first: true },
      { operation: 'extremes', at: 2024 },
    ],
    invalid: [
      { operation: 'sum' },
      { at: 'yesterday' },
      { at: '2025-02-30' },
      { operation: 'rank', limit: 101 },
      { foo: 1 },
      { operation: 'rank', series: 'hmda/*/originations', places: [17031] },
      { operation: 'count', above: true },
    ],
  },
  get_escrow_months: {
    base: { state: 'Texas' },
    natural: [{}, { state: 'il', closing_month: 'March', county: 'cook county' }, { closing_month: '03' }, { annual_tax: '4800.50' }],
    invalid: [{ state: undefined }, { closing_month: 13 }, { annual_tax: 0 }, { loan_amount: 300000 }],
  },
};

/** Arguments whose published schema is knowingly wider than the server: any name-shaped text is a place. */
export const WIDER: Record<string, readonly string[]> = {
  get_mortgage_rates: ['state'],
  get_loan_limits: ['state'],
  query_hmda: ['state'],
  // A list's count (1 to the number of values) is the server's to check, after splitting texts.
  get_economic_calendar: ['impact', 'category'],
  get_escrow_months: ['state'],
  // A place list takes state names and county names: any text is a place, the server says which it does not know.
  analyze_data: ['state', 'places'],
};

/** A call of a table with its base: a key set to undefined leaves it out. */
export function callOf(vocabulary: Vocabulary, args: Args): Args {
  return Object.fromEntries(Object.entries({ ...vocabulary.base, ...args }).filter(([, value]) => value !== undefined));
}

/**
 * Whether an MCP result's text refuses the arguments (as opposed to an answer, or an error of the
 * data: not loaded, not found). The SDK may wrap the message ("MCP error -32602: Input validation error: …").
 */
export function refusesArguments(text: string): boolean {
  return /Invalid value for '|Unknown arguments? '|Missing '|Input validation error|Give the arguments as an object|Invalid range:/.test(
    text,
  );
}
