// The hand-maintained property-tax disbursement schedules (data/escrow/state-tax-schedules.json):
// the zod schema that guards the file, the loader that indexes it by state, and the rule that turns
// a county's dated tax years into the months the engine pays in.
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { PROJECT_ROOT } from '../config.ts';
import { STATE_CODES } from '../geo/states.ts';
import { MONTH_NAMES } from '../platform/contract/months.ts';
import { TaxYearSchema, VerificationSchema, verificationIssues, type Verification } from './verification.ts';

export const SCHEDULES_FILE = path.join(PROJECT_ROOT, 'data', 'escrow', 'state-tax-schedules.json');

const InstallmentSchema = z.object({
  month: z.int().min(1).max(12),
  units: z.number().positive().max(12),
});

/** "2025-12-15", or "2026-07" where the collector has named only the month so far. */
const DueDateSchema = z.string().regex(/^\d{4}-(0[1-9]|1[0-2])(-(0[1-9]|[12]\d|3[01]))?$/, 'a due date is YYYY-MM-DD or YYYY-MM');

const DatedInstallmentSchema = z.object({
  /** null: the collector has not published this installment's date yet. */
  due: DueDateSchema.nullable(),
  units: z.number().positive().max(12),
  /** Why the date is what it is (a one-time extension, a month named without a day). */
  note: z.string().min(5).optional(),
});

const TaxYearScheduleSchema = z.object({
  taxYear: TaxYearSchema,
  installments: z.array(DatedInstallmentSchema).min(1).max(12),
});

const SourceSchema = z.object({ citation: z.string().min(5), url: z.url().optional() });

const ScheduleFields = {
  frequency: z.enum(['annual', 'semi-annual', 'quarterly']),
  notes: z.string().min(20),
  source: SourceSchema,
};

const expectedCount = { annual: 1, 'semi-annual': 2, quarterly: 4 } as const;
type Frequency = keyof typeof expectedCount;

function scheduleIssues(frequency: Frequency, installments: readonly { month: number; units: number }[]): string[] {
  const issues: string[] = [];
  const total = installments.reduce((sum, installment) => sum + installment.units, 0);
  if (Math.abs(total - 12) > 1e-6) issues.push(`installments total ${total} units, not 12`);
  if (installments.length !== expectedCount[frequency]) issues.push(`${frequency} needs ${expectedCount[frequency]} installments`);
  if (new Set(installments.map((installment) => installment.month)).size !== installments.length) {
    issues.push('two installments in the same month');
  }
  return issues;
}

const addIssues = (ctx: z.RefinementCtx, messages: string[]): void => {
  for (const message of messages) ctx.addIssue({ code: 'custom', message });
};

export const StateScheduleSchema = z
  .object({
    code: z.enum(STATE_CODES),
    name: z.string().min(4),
    installments: z.array(InstallmentSchema).min(1).max(12),
    ...ScheduleFields,
  })
  .superRefine((value, ctx) => addIssues(ctx, scheduleIssues(value.frequency, value.installments)));

/** Month (1-12) of a due date. */
export const dueMonth = (due: string): number => Number(due.slice(5, 7));

const isComplete = (year: z.infer<typeof TaxYearScheduleSchema>): boolean =>
  year.installments.every((installment) => installment.due !== null);

/**
 * A county whose collector differs from the state. Either `installments` (the same months every
 * year) or `taxYears` (dates that move from year to year, each year as the collector published it),
 * and always a `verification` saying which page was read for which tax year.
 */
export const CountyOverrideSchema = z
  .object({
    state: z.enum(STATE_CODES),
    county: z.string().min(3),
    fips: z.string().regex(/^\d{5}$/),
    installments: z.array(InstallmentSchema).min(1).max(12).optional(),
    taxYears: z.array(TaxYearScheduleSchema).min(1).optional(),
    ...ScheduleFields,
    verification: VerificationSchema,
  })
  .superRefine((value, ctx) => {
    if ((value.installments === undefined) === (value.taxYears === undefined)) {
      addIssues(ctx, ['give either installments (fixed months) or taxYears (dated by tax year), not both or neither']);
    }
    if (value.installments) addIssues(ctx, scheduleIssues(value.frequency, value.installments));
    if (value.taxYears) {
      const years = value.taxYears.map((year) => year.taxYear);
      if (years.join() !== [...years].sort().join() || new Set(years).size !== years.length) {
        addIssues(ctx, ['taxYears must be listed once each, oldest first']);
      }
      for (const year of value.taxYears) {
        const units = year.installments.reduce((sum, installment) => sum + installment.units, 0);
        if (Math.abs(units - 12) > 1e-6) addIssues(ctx, [`tax year ${year.taxYear}: installments total ${units} units, not 12`]);
        if (isComplete(year)) {
          const months = year.installments.map((installment) => ({ month: dueMonth(installment.due as string), units: installment.units }));
          addIssues(
            ctx,
            scheduleIssues(value.frequency, months).map((issue) => `tax year ${year.taxYear}: ${issue}`),
          );
        }
      }
      const served = value.taxYears.filter(isComplete).at(-1);
      if (!served) addIssues(ctx, ['at least one tax year needs every due date published']);
      else if (value.verification.status === 'checked' && value.verification.taxYear !== served.taxYear) {
        addIssues(ctx, [
          `verification checks tax year ${value.verification.taxYear}, but the months are served from tax year ${served.taxYear}`,
        ]);
      }
    }
    addIssues(ctx, verificationIssues(value.verification));
  });

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

/** What the engine pays from for one county: months, and for dated counties the tax year they come from. */
export interface ServedSchedule {
  frequency: Frequency;
  installments: { month: number; units: number }[];
  /** The override's notes, plus, for dated counties, which tax year the months come from. */
  notes: string;
  source: z.infer<typeof SourceSchema>;
  verification: Verification;
  /** Dated counties: the tax year the months come from. */
  taxYear?: string;
}

/** "2025-12-15" → "December 15, 2025"; "2026-07" → "July 2026". */
export function formatDue(due: string): string {
  const month = MONTH_NAMES[dueMonth(due) - 1];
  const year = due.slice(0, 4);
  return due.length === 7 ? `${month} ${year}` : `${month} ${Number(due.slice(8, 10))}, ${year}`;
}

const listDates = (installments: readonly { due: string | null }[]): string =>
  installments
    .map((installment, index) => `installment ${index + 1} ${installment.due ? formatDue(installment.due) : 'not yet published'}`)
    .join(', ');

/**
 * Dated counties answer from the latest tax year whose every due date is published, and project
 * later years with its months: a tax year still being billed never gets a guessed date.
 */
export function servedSchedule(override: CountyOverride): ServedSchedule {
  const base = { frequency: override.frequency, source: override.source, verification: override.verification };
  if (!override.taxYears) {
    return { ...base, installments: override.installments ?? [], notes: override.notes };
  }
  const complete = override.taxYears.filter(isComplete);
  const latest = complete.at(-1) as z.infer<typeof TaxYearScheduleSchema>;
  const newer = override.taxYears.filter((year) => year.taxYear > latest.taxYear);
  const yearNotes = [
    `Months from tax year ${latest.taxYear}, the latest with every due date published (${listDates(latest.installments)}); later tax years are projected with the same months.`,
    ...newer.map((year) => `Tax year ${year.taxYear} so far: ${listDates(year.installments)}.`),
    ...[latest, ...newer].flatMap((year) => year.installments.flatMap((installment) => (installment.note ? [installment.note] : []))),
  ];
  return {
    ...base,
    installments: latest.installments.map((installment) => ({ month: dueMonth(installment.due as string), units: installment.units })),
    notes: `${override.notes} ${yearNotes.join(' ')}`,
    taxYear: latest.taxYear,
  };
}

export interface ScheduleIndex {
  asOf: string;
  byState: Map<string, StateSchedule>;
  overridesByState: Map<string, CountyOverride[]>;
}

/** zod issues with the county (or state) they belong to, so a bad entry names itself. */
export function describeIssues(error: z.ZodError, file: unknown, fileName: string): string {
  const entries = file as {
    states?: { code?: string }[];
    countyOverrides?: { county?: string; fips?: string }[];
    checks?: { county?: string; fips?: string }[];
  };
  const lines = error.issues.map((issue) => {
    const [list, index] = issue.path;
    const entry =
      typeof index === 'number'
        ? (entries[list as 'states' | 'countyOverrides' | 'checks'] as Record<string, unknown>[] | undefined)?.[index]
        : undefined;
    if (!entry) return `${issue.path.join('.') || '(file)'}: ${issue.message}`;
    const who = `${String(entry.county ?? entry.code)}${entry.fips ? ` (${String(entry.fips)})` : ''}`;
    const field = issue.path.slice(2).join('.');
    return `${who}: ${field ? `${field}: ` : ''}${issue.message}`;
  });
  return `${fileName} is invalid:\n  ${lines.join('\n  ')}`;
}

/** Reads and validates the schedule file; throws naming each broken entry when the file is invalid. */
export function loadSchedules(file: string = SCHEDULES_FILE): ScheduleIndex {
  const raw: unknown = JSON.parse(fs.readFileSync(file, 'utf8'));
  const result = ScheduleFileSchema.safeParse(raw);
  if (!result.success) throw new Error(describeIssues(result.error, raw, path.basename(file)));
  const overridesByState = new Map<string, CountyOverride[]>();
  for (const override of result.data.countyOverrides) {
    overridesByState.set(override.state, [...(overridesByState.get(override.state) ?? []), override]);
  }
  return {
    asOf: result.data.asOf,
    byState: new Map(result.data.states.map((state) => [state.code, state])),
    overridesByState,
  };
}
