// The 99 columns of the FFIEC public LAR (snapshot, one-year and Data Browser CSV files), in file
// order, with the header name the FFIEC files use and the DuckDB type each is stored as in Parquet.
// `NA`, `Exempt` and empty cells become NULL; binned fields (DTI, age, total units) stay text.

export type LarType = 'INTEGER' | 'SMALLINT' | 'DOUBLE' | 'VARCHAR';

export interface LarColumn {
  /** Column name in the warehouse (`lar` view): the dictionary's underscore spelling. */
  name: string;
  /** Header name in the FFIEC CSV files (hyphens as published, e.g. `derived_msa-md`). */
  header: string;
  type: LarType;
}

const column = (name: string, type: LarType, header = name): LarColumn => ({ name, header, type });
const numbered = (prefix: string, headerPrefix: string, count: number, type: LarType): LarColumn[] =>
  Array.from({ length: count }, (_, index) => column(`${prefix}_${index + 1}`, type, `${headerPrefix}-${index + 1}`));

export const LAR_COLUMNS: readonly LarColumn[] = [
  column('activity_year', 'INTEGER'),
  column('lei', 'VARCHAR'),
  column('derived_msa_md', 'VARCHAR', 'derived_msa-md'),
  column('state_code', 'VARCHAR'),
  column('county_code', 'VARCHAR'),
  column('census_tract', 'VARCHAR'),
  column('conforming_loan_limit', 'VARCHAR'),
  column('derived_loan_product_type', 'VARCHAR'),
  column('derived_dwelling_category', 'VARCHAR'),
  column('derived_ethnicity', 'VARCHAR'),
  column('derived_race', 'VARCHAR'),
  column('derived_sex', 'VARCHAR'),
  column('action_taken', 'SMALLINT'),
  column('purchaser_type', 'SMALLINT'),
  column('preapproval', 'SMALLINT'),
  column('loan_type', 'SMALLINT'),
  column('loan_purpose', 'SMALLINT'),
  column('lien_status', 'SMALLINT'),
  column('reverse_mortgage', 'SMALLINT'),
  column('open_end_line_of_credit', 'SMALLINT', 'open-end_line_of_credit'),
  column('business_or_commercial_purpose', 'SMALLINT'),
  column('loan_amount', 'DOUBLE'),
  column('combined_loan_to_value_ratio', 'DOUBLE'),
  column('interest_rate', 'DOUBLE'),
  column('rate_spread', 'DOUBLE'),
  column('hoepa_status', 'SMALLINT'),
  column('total_loan_costs', 'DOUBLE'),
  column('total_points_and_fees', 'DOUBLE'),
  column('origination_charges', 'DOUBLE'),
  column('discount_points', 'DOUBLE'),
  column('lender_credits', 'DOUBLE'),
  column('loan_term', 'INTEGER'),
  column('prepayment_penalty_term', 'INTEGER'),
  column('intro_rate_period', 'INTEGER'),
  column('negative_amortization', 'SMALLINT'),
  column('interest_only_payment', 'SMALLINT'),
  column('balloon_payment', 'SMALLINT'),
  column('other_nonamortizing_features', 'SMALLINT'),
  column('property_value', 'DOUBLE'),
  column('construction_method', 'SMALLINT'),
  column('occupancy_type', 'SMALLINT'),
  column('manufactured_home_secured_property_type', 'SMALLINT'),
  column('manufactured_home_land_property_interest', 'SMALLINT'),
  column('total_units', 'VARCHAR'),
  column('multifamily_affordable_units', 'INTEGER'),
  column('income', 'DOUBLE'),
  column('debt_to_income_ratio', 'VARCHAR'),
  column('applicant_credit_score_type', 'SMALLINT'),
  column('co_applicant_credit_score_type', 'SMALLINT', 'co-applicant_credit_score_type'),
  ...numbered('applicant_ethnicity', 'applicant_ethnicity', 5, 'SMALLINT'),
  ...numbered('co_applicant_ethnicity', 'co-applicant_ethnicity', 5, 'SMALLINT'),
  column('applicant_ethnicity_observed', 'SMALLINT'),
  column('co_applicant_ethnicity_observed', 'SMALLINT', 'co-applicant_ethnicity_observed'),
  ...numbered('applicant_race', 'applicant_race', 5, 'SMALLINT'),
  ...numbered('co_applicant_race', 'co-applicant_race', 5, 'SMALLINT'),
  column('applicant_race_observed', 'SMALLINT'),
  column('co_applicant_race_observed', 'SMALLINT', 'co-applicant_race_observed'),
  column('applicant_sex', 'SMALLINT'),
  column('co_applicant_sex', 'SMALLINT', 'co-applicant_sex'),
  column('applicant_sex_observed', 'SMALLINT'),
  column('co_applicant_sex_observed', 'SMALLINT', 'co-applicant_sex_observed'),
  column('applicant_age', 'VARCHAR'),
  column('co_applicant_age', 'VARCHAR', 'co-applicant_age'),
  column('applicant_age_above_62', 'VARCHAR'),
  column('co_applicant_age_above_62', 'VARCHAR', 'co-applicant_age_above_62'),
  column('submission_of_application', 'SMALLINT'),
  column('initially_payable_to_institution', 'SMALLINT'),
  ...numbered('aus', 'aus', 5, 'SMALLINT'),
  ...numbered('denial_reason', 'denial_reason', 4, 'SMALLINT'),
  column('tract_population', 'INTEGER'),
  column('tract_minority_population_percent', 'DOUBLE'),
  column('ffiec_msa_md_median_family_income', 'INTEGER'),
  column('tract_to_msa_income_percentage', 'DOUBLE'),
  column('tract_owner_occupied_units', 'INTEGER'),
  column('tract_one_to_four_family_homes', 'INTEGER'),
  column('tract_median_age_of_housing_units', 'INTEGER'),
];

/** Cell values the FFIEC files use for "no value"; all are stored as NULL. */
export const LAR_NULL_STRINGS = ['NA', 'Exempt', ''] as const;

/** Maps a header cell of any FFIEC/Data Browser CSV to the warehouse column name. */
/**
 * Names one publication uses for a column another names differently: the Data Browser CSV export
 * heads the combined loan-to-value ratio `loan_to_value_ratio` (as the real 2020 CA export in the
 * mirror shows), where the data dictionary and snapshot files say `combined_loan_to_value_ratio`.
 */
const HEADER_ALIASES: Readonly<Record<string, string>> = { loan_to_value_ratio: 'combined_loan_to_value_ratio' };

export function normaliseHeader(header: string): string {
  const name = header
    .replace(/^\uFEFF/, '')
    .trim()
    .replace(/^"|"$/g, '')
    .toLowerCase()
    .replace(/-/g, '_');
  return HEADER_ALIASES[name] ?? name;
}

const byName = new Map(LAR_COLUMNS.map((entry) => [entry.name, entry]));

export function larColumn(name: string): LarColumn | undefined {
  return byName.get(name);
}

/** Columns the warehouse adds from the partition folders. */
export const PARTITION_COLUMNS = [
  { name: 'year', type: 'INTEGER', meaning: 'activity year (partition; equals activity_year)' },
  { name: 'state', type: 'VARCHAR', meaning: "2-letter state (partition; state_code, or 'NA' when the record has none)" },
] as const;

/** The lenders table: one row per filer and activity year, from the transmittal sheet files. */
export const LENDER_COLUMNS = [
  { name: 'activity_year', type: 'INTEGER' },
  { name: 'lei', type: 'VARCHAR' },
  { name: 'respondent_name', type: 'VARCHAR' },
  { name: 'agency_code', type: 'SMALLINT' },
  { name: 'respondent_state', type: 'VARCHAR' },
  { name: 'respondent_city', type: 'VARCHAR' },
  { name: 'lar_count', type: 'BIGINT' },
] as const;
