-- Every statistic states the year its data describes: data_year is an integer, as the interface
-- says. The 50,000-record HMDA loan sample is retired with the statistics drawn from it: no official
-- publisher issues it, and its publisher stated neither the year nor the state of its records.
-- As in 0402, the catalogue and its dataset record go together, so the service answers 503 ("not
-- computed yet") until the next precompute, which every default sync (start-up included) runs.
DELETE FROM statistics;
DELETE FROM datasets WHERE name = 'statistics';
ALTER TABLE statistics DROP CONSTRAINT IF EXISTS statistics_year_or_note;
ALTER TABLE statistics DROP COLUMN IF EXISTS data_year_note;
ALTER TABLE statistics ALTER COLUMN data_year SET NOT NULL;

DROP TABLE IF EXISTS hmda_loan_sample;
DELETE FROM datasets WHERE name = 'hmda_loan_sample';
DELETE FROM dataset_versions WHERE dataset = 'hmda_loan_sample';
DELETE FROM sync_runs WHERE dataset = 'hmda_loan_sample';
