// The hand-maintained property-tax disbursement schedules (data/escrow/state-tax-schedules.json):
// the zod schema that guards the file and the loader that indexes it by state and county FIPS.
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { PROJECT_ROOT } from '../config.ts';
import { STATE_CODES } from '../geo/states.ts';

export const SCHEDULES_FILE = path.join(PROJECT_ROOT, 'data', 'escrow', 'state-tax-schedules.json');

const InstallmentSchema = z.object({
  month: z.int().min(1).max(12),
  units: z.number().positive().max(12),
});

const SourceSchema = z.object({ citation: z.string().min(5), url: z.url().optional() });

const ScheduleFields = {
  frequency: z.enum(['annual', 'semi-annual', 'quarterly']),
  installments: z.array(InstallmentSchema).min(1).max(12),
  notes: z.string().min(20),
  source: SourceSchema,
};

const expectedCount = { annual: 1, 'semi-annual': 2, quarterly: 4 } as const;

function checkSchedule(value: { frequency: keyof typeof expectedCount; installments: { month: number; units: number }[] }, ctx: z.RefinementCtx): void {
  const total = value.installments.reduce((sum, installment) => sum + installment.units, 0);
  if (Math.abs(total - 12) > 1e-6) ctx.addIssue({ code: 'custom', message: `installments total ${total} units, not 12` });
  if (value.installments.length !== expectedCount[value.frequency]) {
    ctx.addIssue({ code: 'custom', message: `${value.frequency} needs ${expectedCount[value.frequency]} installments` });
  }
  if (new Set(value.installments.map((installment) => installment.month)).size !== value.installments.length) {
    ctx.addIssue({ code: 'custom', message: 'two installments in the same month' });
  }
}

export const StateScheduleSchema = z
  .object({ code: z.enum(STATE_CODES), name: z.string().min(4), ...ScheduleFields })
  .superRefine(checkSchedule);

export const CountyOverrideSchema = z
  .object({
    state: z.enum(STATE_CODES),
    county: z.string().min(3),
    fips: z.string().regex(/^\d{5}$/),
    ...ScheduleFields,
  })
  .superRefine(checkSchedule);

export const ScheduleFileSchema = z
  .object({
    description: z.string(),
    convention: z.string(),
    asOf: z.iso.date(),
    states: z.array(StateScheduleSchema),
    countyOverrides: z.array(CountyOverrideSchema),
  })
  .superRefine((file, ctx) => {
    const codes = new Set(file.states.map((state) => state.code));
    if (codes.size !== 51 || file.states.length !== 51) {
      ctx.addIssue({ code: 'custom', message: `expected the 50 states + DC once each, got ${codes.size}` });
    }
    const fips = new Set(file.countyOverrides.map((override) => override.fips));
    if (fips.size !== file.countyOverrides.length) ctx.addIssue({ code: 'custom', message: 'duplicate county FIPS' });
  });

export type StateSchedule = z.infer<typeof StateScheduleSchema>;
export type CountyOverride = z.infer<typeof CountyOverrideSchema>;
export type ScheduleFile = z.infer<typeof ScheduleFileSchema>;

export interface ScheduleIndex {
  asOf: string;
  byState: Map<string, StateSchedule>;
  overridesByState: Map<string, CountyOverride[]>;
}

/** Reads and validates the schedule file; throws with the zod issues when the file is broken. */
export function loadSchedules(file: string = SCHEDULES_FILE): ScheduleIndex {
  const parsed = ScheduleFileSchema.parse(JSON.parse(fs.readFileSync(file, 'utf8')));
  const overridesByState = new Map<string, CountyOverride[]>();
  for (const override of parsed.countyOverrides) {
    overridesByState.set(override.state, [...(overridesByState.get(override.state) ?? []), override]);
  }
  return {
    asOf: parsed.asOf,
    byState: new Map(parsed.states.map((state) => [state.code, state])),
    overridesByState,
  };
}
