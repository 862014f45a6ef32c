// analyze_data: the analysis layer as one tool, from the analysis contract (the same operations,
// parameters and answers as GET /api/v1/analysis/<operation>), for MCP clients and /ask's model
// alike. One tool with an `operation` keeps tools/list small; each operation's own schema then
// checks the arguments, so a call gets the REST answer and the REST messages.
import { defineTool, sourcesText } from '../tool-kit.ts';
import { BadRequestError } from '../../platform/errors.ts';
import {
  AnalysisToolAnswerSchema,
  AnalysisToolInputSchema,
  OPERATIONS,
  QUERY_SCHEMAS,
  type AnalysisAnswer,
  type Operation,
} from '../../analysis/contract.ts';

/** Which operations take a field: the fix for a field given to one that does not. */
const takers = (field: string) => OPERATIONS.filter((operation) => field in QUERY_SCHEMAS[operation].shape);

/** The refusal of fields the operation does not take: each with the operations that do, then what this one takes. */
export function unusedMessage(operation: Operation, unused: string[]): string {
  const fields = unused.map((field) => `'${field}' (taken by ${takers(field).join(', ')})`);
  return `'${operation}' does not take ${fields.join(', ')}: drop it, or use an operation that takes it. '${operation}' takes ${Object.keys(QUERY_SCHEMAS[operation].shape).join(', ')}.`;
}

/** Figures of each input that the answer sentence does not repeat: the dates and values used. */
function inputLines(answer: AnalysisAnswer): string[] {
  return answer.inputs
    .filter((input) => input.points.length > 0)
    .map((input) => {
      const points = input.points.map(
        (point) => `${point.value ?? 'n/a'} (${point.period ?? point.date}${point.count ? `, mean of ${point.count}` : ''})`,
      );
      return `Input ${input.id} (${input.units}): ${points.join(', ')}; read it: mds://series/${input.id}`;
    });
}

/** The answer as text a model can quote: the result with its figures, the method, the inputs, notes, sources. */
export function analysisText(answer: AnalysisAnswer): string {
  return [answer.answer, `Method: ${answer.method}`, ...inputLines(answer), ...answer.notes, sourcesText(answer.sources)].join('\n');
}

export const analyzeDataTool = defineTool({
  name: 'analyze_data',
  title: 'Analyze series',
  description:
    "Compute over series from find_series; rank and count take * for the place (all states, or `state`'s counties, " +
    'in one call). E.g. {operation:"rank",series:"hmda/*/originations",state:"PA",limit:2}.',
  inputSchema: AnalysisToolInputSchema,
  outputSchema: AnalysisToolAnswerSchema,
  uses: ['analysis'],
  async run(args, { deps }) {
    const { operation, ...rest } = args;
    const schema = QUERY_SCHEMAS[operation as Operation];
    const given = Object.fromEntries(Object.entries(rest).filter(([, value]) => value !== undefined));
    const unused = Object.keys(given).filter((name) => !(name in schema.shape));
    if (unused.length > 0) throw new BadRequestError(unusedMessage(operation as Operation, unused));
    const answer = await deps.services.analysis.run(operation, given);
    return { structured: answer as never, text: analysisText(answer) };
  },
});
