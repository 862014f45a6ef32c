// GET /escrow: escrow months to collect at closing (docs/escrow.md), a thin face over
// the escrow service. The schemas are the escrow contract's.
import type { AppDeps } from '../deps.ts';
import { apiRoutes } from '../platform/http/api-registry.ts';
import { routeContract } from '../platform/http/route-contract.ts';
import { errorResponses } from '../platform/http/error-responses.ts';
import { EscrowAnswerSchema, EscrowQuerySchema } from './contract.ts';

const routes = {
  getEscrow: routeContract({
    method: 'get',
    path: '/escrow',
    operationId: 'getEscrow',
    example: { query: { state: 'IL', county: 'Cook', closing_month: 'January', annual_tax: '6000' } },
    summary: 'Escrow months to collect at closing',
    description:
      'RESPA aggregate analysis (12 CFR 1024.17) in units of one month of property tax: the first payment is due in closing month + 2; ' +
      "the 12 months from it each deposit 1 unit and then pay that month's installments; the cushion is 2 units; " +
      'escrowMonths = cushion − lowest running balance (from 0), never below 0. Example: taxes paid once a year in January, closing in March → 5. ' +
      'Covers the 50 states + DC with county schedules where counties differ. Unknown parameters are refused (400).',
    tags: ['Escrow'],
    query: EscrowQuerySchema,
    responses: {
      200: { description: 'Escrow result with the projection to check the arithmetic', schema: EscrowAnswerSchema },
      ...errorResponses({
        400: 'Missing or invalid state (the message lists all 51 codes), an invalid closing month, a county the state does not have, or an unknown parameter.',
      }),
    },
  }),
};

export const escrowRoutes = apiRoutes(routes, (deps: AppDeps) => ({
  getEscrow: ({ query }) => deps.services.escrow.answerJson(query),
}));
