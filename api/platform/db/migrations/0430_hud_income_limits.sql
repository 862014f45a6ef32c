-- HUD's Section 8 income limits beside each area's median family income: the extremely low (30%),
-- very low (50%) and low (80%) limits for households of 1 to 8 people, as the files give them
-- ({"extremely_low": [..8], "very_low": [..8], "low": [..8]}). Null until the next load.
ALTER TABLE hud_median_family_income ADD COLUMN IF NOT EXISTS limits jsonb;
