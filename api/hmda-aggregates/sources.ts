// Where the official HMDA aggregate files live: the publisher's URL (cited) and the mirror path below
// MDS_SOURCE_DIR. The HMDA Maps files are served by ffiec.cfpb.gov; the Data Browser's record counts
// ship inside its front end (cfpb/hmda-frontend), which is where they are downloaded from.
import type { SourceEntry } from '../sync/types.ts';

export const AGGREGATE_YEARS = [2018, 2019, 2020, 2021, 2022, 2023, 2024, 2025] as const;

export const DATA_BROWSER_URL = 'https://ffiec.cfpb.gov/data-browser/';
export const HMDA_MAPS_URL = 'https://ffiec.cfpb.gov/data-browser/maps';
export const TS_FIELDS_URL = 'https://ffiec.cfpb.gov/documentation/publications/loan-level-datasets/ts-data-fields';
export const HUD_INCOME_LIMITS_URL = 'https://www.huduser.gov/portal/datasets/il.html';

export const FRONTEND_RAW = 'https://raw.githubusercontent.com/cfpb/hmda-frontend/master';

export const stateAggregatesEntry = (year: number): SourceEntry => ({
  id: `hmda-maps-state-${year}`,
  publisherUrl: `https://ffiec.cfpb.gov/${year}/state.json`,
  format: 'json',
  mirrorPath: `hmda/aggregates/by_state_${year}.json`,
  year,
});

export const countyAggregatesEntry = (year: number): SourceEntry => ({
  id: `hmda-maps-county-${year}`,
  publisherUrl: `https://ffiec.cfpb.gov/${year}/county.json`,
  format: 'json',
  mirrorPath: `hmda/aggregates/by_county_${year}.json`,
  year,
});

export const recordCountsEntry = (level: 'state' | 'county', year: number): SourceEntry => ({
  id: `hmda-record-counts-${level}-${year}`,
  publisherUrl: DATA_BROWSER_URL,
  downloadUrl: `${FRONTEND_RAW}/src/data-browser/constants/recordCountsByGeography/${level}Counts${year}.json`,
  format: 'json',
  mirrorPath: `hmda/aggregates/record_counts/${level}Counts${year}.json`,
  year,
});

/** The 2020 transmittal sheet (snapshot): the only year of filer records the mirror holds. */
export const LENDER_YEARS = [2020] as const;

export const transmittalSheetEntry = (year: number): SourceEntry => ({
  id: `hmda-ts-${year}`,
  publisherUrl: `https://s3.amazonaws.com/cfpb-hmda-public/prod/snapshot-data/${year}/${year}_public_ts_csv.zip`,
  format: 'csv',
  mirrorPath: `hmda/institutions/${year}_ts_csv.csv`,
  year,
});

export const agencyNamesEntry: SourceEntry = {
  id: 'hmda-agency-codes',
  publisherUrl: TS_FIELDS_URL,
  format: 'csv',
  mirrorPath: 'hmda/institutions/lei_agency_code_name.csv',
};

export const INCOME_YEARS = [2018, 2019, 2020, 2021, 2022] as const;

export const hudIncomeEntry = (fiscalYear: number): SourceEntry => {
  const short = String(fiscalYear).slice(2);
  return {
    id: `hud-section8-fy${short}`,
    publisherUrl: HUD_INCOME_LIMITS_URL,
    downloadUrl: `https://raw.githubusercontent.com/UI-Research/hmda-neighborhood/d4b5bc81050857aeb2d23a06c625840955cc9d6f/data-raw/income-limits/Section8-FY${short}.csv`,
    format: 'csv',
    mirrorPath: `income_limits/hud_section8/Section8-FY${short}.csv`,
    year: fiscalYear,
  };
};
