// County-name normalisation lives in api/geo/county-names.ts, shared with the contract vocabulary;
// re-exported here for the loan-limits modules that import it by this path.
export { baseKey, editDistance, matchKey, titleCase } from '../geo/county-names.ts';
