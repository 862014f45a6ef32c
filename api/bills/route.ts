// GET /bills: the tracked housing and mortgage bills, the REST face of the MCP tool
// get_congress_bills. The schemas are the bills contract's.
import type { AppDeps } from '../deps.ts';
import { apiRoutes } from '../platform/http/api-registry.ts';
import { routeContract } from '../platform/http/route-contract.ts';
import { errorResponses } from '../platform/http/error-responses.ts';
import { BillsAnswerSchema, BillsQuerySchema } from './contract.ts';

const routes = {
  getCongressBills: routeContract({
    method: 'get',
    path: '/bills',
    operationId: 'getCongressBills',
    example: { query: { query: 'FHA' } },
    summary: 'Tracked congressional housing and mortgage bills: search by keyword or status, or one bill in full',
    description:
      'Synced from GovInfo BILLSTATUS and congress.gov. `bill_id` alone answers that bill with its sponsors, cosponsors, ' +
      'committees, actions, official summary and our analysis; otherwise the bills matching `query` and `status`, best first.',
    tags: ['Content'],
    query: BillsQuerySchema,
    responses: {
      200: { description: 'The matching bills', schema: BillsAnswerSchema },
      ...errorResponses({ 404: 'The bill_id is well formed but not one of the tracked bills.' }),
    },
  }),
};

export const billsRoutes = apiRoutes(routes, (deps: AppDeps) => ({
  getCongressBills: ({ query }) => deps.services.bills.answer(query),
}));
