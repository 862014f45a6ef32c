// Where each loan-limit file is published and where a mirror (MDS_SOURCE_DIR) keeps it. FHFA
// publishes one xlsx per year; for 2018–2025 the download is CFPB's pipe-delimited conversion
// (the HMDA platform's copy, same values), for 2026 on FHFA's own xlsx. HUD's CHUMS limits are read
// in CFPB's CSV conversion. The parsers sniff the format, so either kind of file loads.
import type { SourceEntry } from '../sync/types.ts';

export const FHFA_PAGE = 'https://www.fhfa.gov/data/conforming-loan-limit';
export const HUD_PAGE = 'https://www.hud.gov/program_offices/housing/sfh/lender/origination/mortgage_limits';
export const CENSUS_CODES_PAGE = 'https://www.census.gov/library/reference/code-lists/ansi.html';

/** First year of county files; earlier years exist only as national figures (history file). */
export const FIRST_COUNTY_YEAR = 2018;
/** Years FHFA has published by now (its limits for year Y appear in late November of Y-1). */
export const CONFORMING_YEARS = [2018, 2019, 2020, 2021, 2022, 2023, 2024, 2025, 2026] as const;
/** HUD FHA forward-limit years available as CHUMS conversions (2020 and 2026 are not). */
export const FHA_YEARS = [2018, 2019, 2021, 2022, 2023, 2024, 2025] as const;
/** Years beyond the published set are tried too, and skipped when absent. */
export const LOOKAHEAD_YEARS = 1;

const CFPB_HMDA = 'https://raw.githubusercontent.com/cfpb/hmda-platform/master/common/src/main/resources';
const CFPB_OAH = 'https://raw.githubusercontent.com/cfpb/owning-a-home-api/main/countylimits/data/base_data';

export function fhfaFileUrl(year: number): string {
  return `https://www.fhfa.gov/document/fullcountyloanlimitlist${year}_hera-based_final_flat.xlsx`;
}

export function conformingSource(year: number): SourceEntry {
  const xlsx = year >= 2026;
  return {
    id: `fhfa-conforming-${year}`,
    publisherUrl: fhfaFileUrl(year),
    downloadUrl: xlsx ? undefined : `${CFPB_HMDA}/FullCountyLoanLimitList${year}.txt`,
    format: xlsx ? 'xlsx' : 'pipe-delimited',
    mirrorPath: xlsx
      ? `loan_limits/fhfa_conforming/fullcountyloanlimitlist${year}_hera-based_final_flat.xlsx`
      : `loan_limits/fhfa_conforming/FullCountyLoanLimitList${year}.txt`,
    year,
  };
}

export function fhaSource(year: number): SourceEntry {
  return {
    id: `hud-fha-forward-${year}`,
    publisherUrl: HUD_PAGE,
    downloadUrl: `${CFPB_OAH}/forward_limits_${year}.csv`,
    format: 'csv (HUD CHUMS forward limits)',
    mirrorPath: `loan_limits/hud_fha/forward_limits_${year}.csv`,
    year,
  };
}

export const countiesSource: SourceEntry = {
  id: 'census-county-fips',
  publisherUrl: CENSUS_CODES_PAGE,
  downloadUrl: `${CFPB_OAH}/county_FIPS.csv`,
  format: 'csv',
  mirrorPath: 'geo/county_FIPS.csv',
};
