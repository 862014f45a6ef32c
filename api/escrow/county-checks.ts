// Recorded checks (data/escrow/county-checks.json): counties without an override whose collector's
// own calendar was compared with the state schedule. A check never changes the months the engine
// pays in; it tells the reader the state schedule was confirmed (or where it is only approximate).
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { PROJECT_ROOT } from '../config.ts';
import { STATE_CODES } from '../geo/states.ts';
import { normaliseCountyName } from './counties.ts';
import { describeIssues } from './schedules.ts';
import { VerificationSchema, verificationIssues } from './verification.ts';

export const COUNTY_CHECKS_FILE = path.join(PROJECT_ROOT, 'data', 'escrow', 'county-checks.json');

export const CountyCheckSchema = z
  .object({
    state: z.enum(STATE_CODES),
    county: z.string().min(3),
    fips: z.string().regex(/^\d{5}$/),
    /**
     * agrees: the collector's dates fall in the state schedule's months.
     * varies-locally: cities, towns or school districts bill on their own dates; the state schedule is an approximation.
     * unchecked: no collector's page could be read; `verification.reason` says why.
     */
    result: z.enum(['agrees', 'varies-locally', 'unchecked']),
    /** What the collector's calendar is, in a sentence a reader can use. */
    finding: z.string().min(20).optional(),
    verification: VerificationSchema,
  })
  .superRefine((check, ctx) => {
    const unchecked = check.result === 'unchecked';
    if (unchecked !== (check.verification.status === 'unchecked')) {
      ctx.addIssue({
        code: 'custom',
        message: `result "${check.result}" needs verification status "${unchecked ? 'unchecked' : 'checked'}"`,
      });
    }
    if (!unchecked && !check.finding) ctx.addIssue({ code: 'custom', message: 'a checked county needs a finding' });
    for (const message of verificationIssues(check.verification)) ctx.addIssue({ code: 'custom', message });
  });

export const CountyChecksFileSchema = z
  .object({
    description: z.string().min(20),
    /** How the counties were chosen: the population file and its vintage. */
    selection: z.object({ method: z.string().min(20), populationFile: z.string().min(5), vintage: z.string().min(10) }),
    checks: z.array(CountyCheckSchema),
  })
  .superRefine((file, ctx) => {
    const fips = file.checks.map((check) => check.fips);
    if (new Set(fips).size !== fips.length) ctx.addIssue({ code: 'custom', message: 'duplicate county FIPS' });
  });

export type CountyCheck = z.infer<typeof CountyCheckSchema>;
export type CountyChecksFile = z.infer<typeof CountyChecksFileSchema>;

export interface CountyCheckIndex {
  byFips: Map<string, CountyCheck>;
  byState: Map<string, CountyCheck[]>;
}

/** Reads and validates the checks file; throws naming each broken entry when the file is invalid. */
export function loadCountyChecks(file: string = COUNTY_CHECKS_FILE): CountyCheckIndex {
  const raw: unknown = JSON.parse(fs.readFileSync(file, 'utf8'));
  const result = CountyChecksFileSchema.safeParse(raw);
  if (!result.success) throw new Error(describeIssues(result.error, raw, path.basename(file)));
  const byState = new Map<string, CountyCheck[]>();
  for (const check of result.data.checks) byState.set(check.state, [...(byState.get(check.state) ?? []), check]);
  return { byFips: new Map(result.data.checks.map((check) => [check.fips, check])), byState };
}

/** The check for a county named by FIPS or by name (when no county list resolved it to a FIPS). */
export function findCountyCheck(
  index: CountyCheckIndex,
  stateCode: string,
  fips: string | undefined,
  query: string,
): CountyCheck | undefined {
  if (fips) return index.byFips.get(fips);
  const trimmed = query.trim();
  if (/^\d{5}$/.test(trimmed)) return index.byFips.get(trimmed);
  const key = normaliseCountyName(trimmed);
  return index.byState.get(stateCode)?.find((check) => normaliseCountyName(check.county) === key);
}
