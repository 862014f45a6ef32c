// GET /escrow: escrow months to collect at closing (spec 2.5, contract "Escrow"), a thin face over
// the escrow service. The zod schemas here validate requests and write the OpenAPI document.
import { z } from 'zod';
import type { AppDeps } from '../deps.ts';
import type { ApiRegistry } from '../platform/http/api-registry.ts';
import { MONTH_NAMES } from './engine.ts';
import { VALID_STATES_TEXT } from './service.ts';
import { findState } from '../geo/states.ts';

const monthByName = new Map<string, number>();
MONTH_NAMES.forEach((name, index) => {
  monthByName.set(name.toLowerCase(), index + 1);
  monthByName.set(name.slice(0, 3).toLowerCase(), index + 1);
});

/** "3", "03", "March", "mar" → 3; anything else → undefined. */
export function parseMonth(value: string): number | undefined {
  const trimmed = value.trim().toLowerCase();
  if (/^\d{1,2}$/.test(trimmed)) {
    const month = Number(trimmed);
    return month >= 1 && month <= 12 ? month : undefined;
  }
  return monthByName.get(trimmed);
}

export const EscrowQuerySchema = z.object({
  state: z
    .string()
    .superRefine((value, ctx) => {
      if (!findState(value)) ctx.addIssue({ code: 'custom', message: VALID_STATES_TEXT });
    })
    .describe('Required. 2-letter code or full name of one of the 50 states + DC, case-insensitive (e.g. `CA`, `new york`).'),
  closing_month: z
    .string()
    .transform((value, ctx) => {
      const month = parseMonth(value);
      if (month === undefined) {
        ctx.addIssue({ code: 'custom', message: 'Valid values: 1-12 or a month name (January ... December, or Jan ... Dec).' });
        return z.NEVER;
      }
      return month;
    })
    .optional()
    .describe('Closing month: 1-12 or a month name. Default: the current month.'),
  county: z
    .string()
    .max(100)
    .optional()
    .describe('Optional county: name (e.g. `Cook County`, `Brooklyn`) or 5-digit FIPS (`17031`). Applies a county schedule where counties differ from the state.'),
});

const MonthMap = z.object(Object.fromEntries(MONTH_NAMES.map((name) => [name, z.int()])) as Record<(typeof MONTH_NAMES)[number], z.ZodInt>);

export const EscrowResultSchema = z.object({
  state: z.string().describe('State name'),
  stateCode: z.string().describe('2-letter code'),
  closingMonth: z.int().min(1).max(12),
  closingMonthName: z.enum(MONTH_NAMES),
  escrowMonths: z.int().min(0).describe('Months of property tax to collect into escrow at closing'),
  taxSchedule: z.object({
    frequency: z.string().describe('annual, semi-annual or quarterly'),
    disbursementMonths: z.array(z.enum(MONTH_NAMES)).describe('Months in which the servicer pays the tax'),
    notes: z.string().describe('What the months represent, with the statute or collecting office'),
  }),
  allMonths: MonthMap.describe('escrowMonths for every closing month'),
  isCountySpecific: z.boolean().describe('true when a county schedule applies instead of the state one'),
  cushionMonths: z.int().describe('RESPA cushion: 2 months (1/6 of annual disbursements)'),
  firstPaymentMonth: z.enum(MONTH_NAMES).describe('First mortgage payment: closing month + 2'),
  projection: z
    .array(
      z.object({
        month: z.int(),
        monthName: z.enum(MONTH_NAMES),
        deposit: z.number(),
        disbursement: z.number(),
        balance: z.number().describe('Running balance starting from 0'),
        balanceWithInitialDeposit: z.number().describe('Running balance including the escrow collected at closing'),
      }),
    )
    .describe('The 12 months from the first payment, in units of one month of tax'),
  sources: z.array(z.object({ title: z.string(), url: z.string().nullable() })),
});

export function registerEscrowRoutes(registry: ApiRegistry, deps: AppDeps): void {
  registry.add({
    method: 'get',
    path: '/escrow',
    operationId: 'getEscrow',
    summary: 'Escrow months to collect at closing',
    description:
      'RESPA aggregate analysis (12 CFR 1024.17) in units of one month of property tax: the first payment is due in closing month + 2; ' +
      'the 12 months from it each deposit 1 unit and then pay that month\'s installments; the cushion is 2 units; ' +
      'escrowMonths = cushion − lowest running balance (from 0), never below 0. Example: taxes paid once a year in January, closing in March → 5. ' +
      'Covers the 50 states + DC with county schedules where counties differ.',
    tags: ['Escrow'],
    query: EscrowQuerySchema,
    responses: {
      200: { description: 'Escrow result (spec 2.5) with the projection to check the arithmetic', schema: EscrowResultSchema },
      400: { description: 'Invalid state (the message lists all 51 codes), closing month or county' },
    },
    handler: ({ query }) =>
      deps.services.escrow.calculate({ state: query.state, closingMonth: query.closing_month, county: query.county }),
  });
}
