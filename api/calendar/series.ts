// The calendar's series: what each release is, its impact on mortgage rates and its category.
// Impact rule: FOMC decisions, CPI and the Employment Situation are high; PPI, JOLTS, housing starts
// and new/existing home sales are medium; every other series (house price indexes, the weekly
// mortgage rate survey, the smaller BLS releases) is low.

export const IMPACTS = ['high', 'medium', 'low'] as const;
export const CATEGORIES = ['fed', 'inflation', 'employment', 'housing'] as const;
export type Impact = (typeof IMPACTS)[number];
export type Category = (typeof CATEGORIES)[number];

export interface SeriesRule {
  /** Event name shown to users; the reference period is appended where there is one. */
  name: string;
  impact: Impact;
  category: Category;
  publisher: string;
  description: string;
  sourceUrl: string;
}

export const SERIES = {
  fomc: {
    name: 'FOMC rate decision',
    impact: 'high',
    category: 'fed',
    publisher: 'Federal Reserve',
    description:
      'Federal Open Market Committee policy statement (2:00 p.m. ET) and press conference (2:30 p.m. ET): sets the federal funds target range.',
    sourceUrl: 'https://www.federalreserve.gov/monetarypolicy/fomccalendars.htm',
  },
  cpi: {
    name: 'Consumer Price Index',
    impact: 'high',
    category: 'inflation',
    publisher: 'Bureau of Labor Statistics',
    description: 'Monthly consumer inflation (8:30 a.m. ET); the release that moves rate expectations most.',
    sourceUrl: 'https://www.bls.gov/schedule/news_release/cpi.htm',
  },
  employment_situation: {
    name: 'Employment Situation',
    impact: 'high',
    category: 'employment',
    publisher: 'Bureau of Labor Statistics',
    description: 'Monthly jobs report: nonfarm payrolls and the unemployment rate (8:30 a.m. ET).',
    sourceUrl: 'https://www.bls.gov/schedule/news_release/empsit.htm',
  },
  ppi: {
    name: 'Producer Price Index',
    impact: 'medium',
    category: 'inflation',
    publisher: 'Bureau of Labor Statistics',
    description: 'Monthly producer (wholesale) prices (8:30 a.m. ET).',
    sourceUrl: 'https://www.bls.gov/schedule/news_release/ppi.htm',
  },
  jolts: {
    name: 'Job Openings and Labor Turnover Survey',
    impact: 'medium',
    category: 'employment',
    publisher: 'Bureau of Labor Statistics',
    description: 'Monthly job openings, hires and separations (JOLTS, 10:00 a.m. ET).',
    sourceUrl: 'https://www.bls.gov/schedule/news_release/jolts.htm',
  },
  eci: {
    name: 'Employment Cost Index',
    impact: 'low',
    category: 'employment',
    publisher: 'Bureau of Labor Statistics',
    description: 'Quarterly compensation costs (8:30 a.m. ET).',
    sourceUrl: 'https://www.bls.gov/schedule/news_release/eci.htm',
  },
  import_export_prices: {
    name: 'U.S. Import and Export Price Indexes',
    impact: 'low',
    category: 'inflation',
    publisher: 'Bureau of Labor Statistics',
    description: 'Monthly import and export prices (8:30 a.m. ET).',
    sourceUrl: 'https://www.bls.gov/schedule/news_release/ximpim.htm',
  },
  real_earnings: {
    name: 'Real Earnings',
    impact: 'low',
    category: 'inflation',
    publisher: 'Bureau of Labor Statistics',
    description: 'Monthly inflation-adjusted earnings, released with the CPI.',
    sourceUrl: 'https://www.bls.gov/schedule/news_release/realer.htm',
  },
  productivity: {
    name: 'Productivity and Costs',
    impact: 'low',
    category: 'employment',
    publisher: 'Bureau of Labor Statistics',
    description: 'Quarterly labor productivity and unit labor costs (8:30 a.m. ET).',
    sourceUrl: 'https://www.bls.gov/schedule/news_release/prod2.htm',
  },
  state_employment: {
    name: 'State Employment and Unemployment',
    impact: 'low',
    category: 'employment',
    publisher: 'Bureau of Labor Statistics',
    description: 'Monthly payrolls and unemployment rates by state.',
    sourceUrl: 'https://www.bls.gov/schedule/news_release/laus.htm',
  },
  housing_starts: {
    name: 'New Residential Construction (housing starts and permits)',
    impact: 'medium',
    category: 'housing',
    publisher: 'U.S. Census Bureau',
    description: 'Monthly building permits, housing starts and completions (8:30 a.m. ET).',
    sourceUrl: 'https://www.census.gov/construction/nrc/schedule.html',
  },
  new_home_sales: {
    name: 'New Residential Sales (new home sales)',
    impact: 'medium',
    category: 'housing',
    publisher: 'U.S. Census Bureau',
    description: 'Monthly sales of new single-family houses (10:00 a.m. ET).',
    sourceUrl: 'https://www.census.gov/construction/nrc/schedule.html',
  },
  existing_home_sales: {
    name: 'Existing-Home Sales',
    impact: 'medium',
    category: 'housing',
    publisher: 'National Association of Realtors',
    description: 'Monthly sales and median price of existing homes (10:00 a.m. ET).',
    sourceUrl: 'https://www.nar.realtor/newsroom/nar-statistical-news-release-schedule',
  },
  pending_home_sales: {
    name: 'Pending Home Sales Index',
    impact: 'low',
    category: 'housing',
    publisher: 'National Association of Realtors',
    description: 'Monthly index of signed contracts on existing homes, a lead on existing-home sales (10:00 a.m. ET).',
    sourceUrl: 'https://www.nar.realtor/newsroom/nar-statistical-news-release-schedule',
  },
  fhfa_hpi: {
    name: 'FHFA House Price Index',
    impact: 'low',
    category: 'housing',
    publisher: 'Federal Housing Finance Agency',
    description: 'Monthly purchase-only house price index (9:00 a.m. ET); quarterly figures in February, May, August and November.',
    sourceUrl: 'https://www.fhfa.gov/data/hpi',
  },
  case_shiller: {
    name: 'S&P Case-Shiller Home Price Indices',
    impact: 'low',
    category: 'housing',
    publisher: 'S&P Dow Jones Indices',
    description: 'Monthly repeat-sales home price indices, national and 20-city (9:00 a.m. ET).',
    sourceUrl: 'https://www.spglobal.com/spdji/en/index-family/indicators/sp-corelogic-case-shiller/',
  },
  pmms: {
    name: 'Freddie Mac mortgage rate survey (PMMS)',
    impact: 'low',
    category: 'housing',
    publisher: 'Freddie Mac',
    description: 'Weekly average 30- and 15-year fixed mortgage rates, published at noon ET.',
    sourceUrl: 'https://www.freddiemac.com/pmms',
  },
} as const satisfies Record<string, SeriesRule>;

export type SeriesId = keyof typeof SERIES;

/** One calendar event as stored (the answer's event fields plus the series key and source). */
export interface CalendarEventRecord {
  series: SeriesId;
  date: string;
  name: string;
  impact: Impact;
  category: Category;
  description: string;
  sourceUrl: string;
}

/** Builds an event from its series rule; `period` ("October 2026") is appended to the name. */
export function seriesEvent(
  series: SeriesId,
  date: string,
  period: string | undefined,
  extra?: string,
  sourceUrl?: string,
): CalendarEventRecord {
  const rule: SeriesRule = SERIES[series];
  return {
    series,
    date,
    name: period ? `${rule.name} (${period})` : rule.name,
    impact: rule.impact,
    category: rule.category,
    description: extra ? `${rule.description} ${extra}` : rule.description,
    sourceUrl: sourceUrl ?? rule.sourceUrl,
  };
}
