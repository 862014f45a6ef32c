// The escrow capability's contract: what an escrow request accepts and answers (the escrow
// months with their tax schedule, the projection and sources; docs/escrow.md), declared once.
// GET /escrow, the /ask tool, the /escrow page and the service's types derive from it.
import { z } from 'zod';
import { decimal } from '../platform/contract/lenient.ts';
import { stateCode, countyName } from '../platform/contract/places.ts';
import { monthNumber, MONTH_NAMES } from '../platform/contract/months.ts';
import { STATE_CODES } from '../geo/states.ts';

export const EscrowQuerySchema = z.object({
  state: stateCode().describe('A state or DC, code or name.'),
  closing_month: monthNumber().optional().describe('1-12 or a name. Default: this month (UTC).'),
  county: countyName().optional().describe('A county with its own tax calendar: name ("Cook"), borough ("Brooklyn") or FIPS ("17031").'),
  annual_tax: decimal({ min: 1, max: 10_000_000, hint: 'Give the yearly property tax in dollars, a number from 1 to 10000000, e.g. 4800.' })
    .optional()
    .describe('Yearly property tax in dollars: adds `atClosing`.'),
});
/** A parsed request: what every face hands the service. */
export type EscrowQuery = z.output<typeof EscrowQuerySchema>;

const MonthNameSchema = z.enum(MONTH_NAMES);

export const EscrowProjectionMonthSchema = z.object({
  month: z.int().min(1).max(12),
  monthName: MonthNameSchema,
  deposit: z.number().describe("Paid into escrow with this month's mortgage payment (1 unit: one month of tax)."),
  disbursement: z.number().describe('Tax paid out of escrow this month, in months of tax.'),
  balance: z.number().describe('Running balance starting from 0'),
  balanceWithInitialDeposit: z.number().describe('Running balance including the escrow collected at closing: never below the cushion'),
});
export type EscrowProjectionMonth = z.infer<typeof EscrowProjectionMonthSchema>;

export const EscrowSourceSchema = z.object({
  title: z.string().describe('The statute, collecting office or rule, as cited.'),
  url: z.string().nullable().describe('Its page, where it has one.'),
});
export type EscrowSource = z.infer<typeof EscrowSourceSchema>;

export const EscrowAtClosingSchema = z
  .object({
    annualTax: z.number().describe('The yearly property tax given (`annual_tax`), dollars.'),
    monthlyTax: z.number().describe('One month of tax: annualTax / 12, to the cent, half a cent rounded up.'),
    amount: z
      .number()
      .describe('Collected at closing: escrowMonths × annualTax / 12, to the cent, half a cent rounded up (from the exact product).'),
    exactAmount: z
      .number()
      .describe('escrowMonthsExact × annualTax / 12, to the cent, half a cent rounded up: the amount before months are rounded.'),
  })
  .describe('The escrow at closing in dollars, present only when `annual_tax` is given.');
export type EscrowAtClosing = z.infer<typeof EscrowAtClosingSchema>;

export const EscrowAnswerSchema = z.object({
  state: z.string().describe('State name'),
  stateCode: z.enum(STATE_CODES).describe('2-letter code'),
  closingMonth: z.int().min(1).max(12),
  closingMonthName: MonthNameSchema,
  escrowMonths: z.int().min(0).describe('Months of property tax to collect into escrow at closing'),
  escrowMonthsExact: z
    .number()
    .min(0)
    .describe(
      'The RESPA figure before rounding (cushion − lowest running balance), in months of tax: fractional where installments are not whole months (e.g. 4.6 for a 55%/45% split); escrowMonths is it rounded up.',
    ),
  escrowMonthsRounding: z.string().describe('How escrowMonthsExact became escrowMonths, in words.'),
  taxSchedule: z.object({
    frequency: z.string().describe('annual, semi-annual or quarterly'),
    disbursementMonths: z.array(MonthNameSchema).describe('Months in which the servicer pays the tax'),
    notes: z
      .string()
      .describe('What the months represent, with the statute or collecting office, and for a county the tax year and the page checked'),
  }),
  allMonths: z
    .object(Object.fromEntries(MONTH_NAMES.map((name) => [name, z.int()])) as Record<(typeof MONTH_NAMES)[number], z.ZodInt>)
    .describe('escrowMonths for every closing month'),
  isCountySpecific: z.boolean().describe('true when a county schedule applies instead of the state one'),
  cushionMonths: z.int().describe('RESPA cushion: 2 months (1/6 of annual disbursements)'),
  firstPaymentMonth: MonthNameSchema.describe('First mortgage payment: closing month + 2'),
  projection: z.array(EscrowProjectionMonthSchema).describe('The 12 months from the first payment, in units of one month of tax'),
  as_of: z.iso
    .date()
    .describe('YYYY-MM-DD: the day the tax schedules behind this answer were last checked against their sources (statutes, collectors).'),
  sources: z.array(EscrowSourceSchema),
  atClosing: EscrowAtClosingSchema.optional(),
});
export type EscrowAnswer = z.infer<typeof EscrowAnswerSchema>;
