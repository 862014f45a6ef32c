// analyze_data: the analysis layer as a tool for /ask's model, from the analysis contract (the same
// operations, parameters and answers as GET /analysis/<operation>). It is not one of the MCP
// server's eight tools (docs/mcp.md); MCP clients and analysts reach it through REST.
import { defineTool } from '../mcp/tool-kit.ts';
import { BadRequestError } from '../platform/errors.ts';
import { AnalysisToolAnswerSchema, AnalysisToolInputSchema, QUERY_SCHEMAS } from './contract.ts';

export const analyzeDataTool = defineTool({
  name: 'analyze_data',
  title: 'Compute over the data: changes, comparisons, ranks, counts, shares, payments',
  description:
    'One computation over the series this service holds (ids as GET /api/v1/series lists them: pmms/30-year, pmms/15-year, optimal-blue/jumbo-30-year, ' +
    'nmdb/TX/ave_intrate for rates on outstanding mortgages, loan-limits/conforming/06037, loan-limits/conforming/baseline, hmda/TX/originations, ' +
    'hmda/17031/fha_records, population/FL). Moments are `latest`, a year, quarter (2025Q3), month (2024-05) or day. Examples: ' +
    '{operation:"count", series:"pmms/30-year", from:"2023", to:"2023", above:"7"}; {operation:"rank", series:"hmda/*/originations", at:"2022", limit:3}; ' +
    '{operation:"count", series:"loan-limits/conforming/*", state:"CO", at:"2026", above:"loan-limits/conforming/baseline"}; ' +
    '{operation:"share", part:"hmda/17031/fha_records", whole:"hmda/17031/records", at:"2023"}; {operation:"payment", amount:400000, series:"pmms/30-year"}. ' +
    'The answer states each figure with its date, the inputs with sources and as-of dates, and the method.',
  inputSchema: AnalysisToolInputSchema,
  outputSchema: AnalysisToolAnswerSchema,
  async run(args, { deps }) {
    const { operation, ...rest } = args;
    const schema = QUERY_SCHEMAS[operation];
    const given = Object.fromEntries(Object.entries(rest).filter(([, value]) => value !== undefined));
    const unused = Object.keys(given).filter((name) => !(name in schema.shape));
    if (unused.length > 0)
      throw new BadRequestError(`'${operation}' does not take ${unused.join(', ')}; it takes ${Object.keys(schema.shape).join(', ')}.`);
    const answer = await deps.services.analysis.run(operation, given);
    const text = [
      answer.answer,
      `Method: ${answer.method}`,
      ...answer.notes.slice(0, 2),
      ...answer.sources.map((source) => `Source: ${source.name ?? source.url} (${source.url}), as of ${source.as_of ?? 'n/a'}`),
    ].join('\n');
    return { structured: answer as never, text };
  },
});
