// The contract vocabulary: what a capability's contract.ts builds its input and output schemas
// from. Every face (REST route, MCP tool, /ask, pages) derives from those schemas.
export {
  choice,
  choiceKey,
  integer,
  decimal,
  text,
  calendarDate,
  list,
  hintOf,
  lenient,
  acceptedInputOf,
  type AcceptedInput,
  type ChoiceOptions,
  type RangeOptions,
  type TextOptions,
  type ListOptions,
} from './lenient.ts';
export { stateCode, stateOrTerritoryCode, countyName } from './places.ts';
export { monthNumber, monthOf, MONTH_NAMES, type MonthName } from './months.ts';
export { flag } from './flags.ts';
export {
  ficoTier,
  ficoTierOrBelow,
  ltvTier,
  downPaymentLtvTier,
  ficoTierOfScore,
  FICO_TIERS,
  FICO_RANGES,
  LTV_TIERS,
  LOWEST_TIERED_SCORE,
  type FicoTier,
  type LtvTier,
  type TierReading,
} from './credit-tiers.ts';
export { significantWords, matchByWords, type WordCandidate, type WordMatch } from './words.ts';
export { strictArguments, type StrictOptions } from './strict.ts';
export { SourceSchema, type Source } from './sources.ts';
export { DatasetVersionSchema, DatasetVersionsSchema, datasetAsOf, KEPT_DATASET_VERSIONS, type DatasetVersion } from './versions.ts';
export { describeIssue, describeIssues, type InputPlace } from './issues.ts';
export { invalidValue, missingValue, unknownNamesMessage, repeatedParameterMessage, type ArgumentNoun } from './messages.ts';
