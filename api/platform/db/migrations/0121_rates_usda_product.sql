-- Rates: lender and state observations may be for USDA guaranteed loans too (the rates API's
-- product_type `usda`, answered nationally from Optimal Blue's USDA index).
ALTER TABLE lender_rate_observations DROP CONSTRAINT IF EXISTS lender_rate_observations_product_type_check;
ALTER TABLE lender_rate_observations ADD CONSTRAINT lender_rate_observations_product_type_check
  CHECK (product_type IN ('conventional', 'fha', 'va', 'jumbo', 'usda'));
