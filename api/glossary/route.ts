// GET /glossary?term=…: one glossary entry, the REST face of the MCP tool lookup_glossary_term.
import type { AppDeps } from '../deps.ts';
import { apiRoutes } from '../platform/http/api-registry.ts';
import { routeContract } from '../platform/http/route-contract.ts';
import { errorResponses } from '../platform/http/error-responses.ts';
import { GlossaryAnswerSchema, GlossaryQuerySchema } from './contract.ts';

const routes = {
  lookupGlossaryTerm: routeContract({
    method: 'get',
    path: '/glossary',
    operationId: 'lookupGlossaryTerm',
    example: { query: { term: 'APR' } },
    summary: 'Plain-language definition of a mortgage term, with FAQs, related terms and official sources',
    description:
      'Matches the term, an alias or abbreviation, the words of any of them in any order or form, or a close spelling; ' +
      '`match` says whether the match was exact.',
    tags: ['Content'],
    query: GlossaryQuerySchema,
    responses: {
      200: { description: 'The entry that matches', schema: GlossaryAnswerSchema },
      ...errorResponses({ 404: 'No term matches; the message suggests close ones.' }),
    },
  }),
};

export const glossaryRoutes = apiRoutes(routes, (deps: AppDeps) => ({
  lookupGlossaryTerm: ({ query }) => deps.services.glossary.answer(query.term),
}));
