// The tools /ask's model may call: the MCP tools that need no key, and escrow. Same definitions,
// same services, so both faces give the same figures. The model is shown each tool's input as JSON
// Schema (the strict contract input, exactly what MCP clients are shown), and its arguments are
// parsed with the tool's own zod schema, so the lenient forms and the messages are the MCP ones.
import { z } from 'zod';
import { tools as mcpTools, type McpTool } from '../mcp/tools/index.ts';
import { getEscrowMonthsTool } from '../escrow/ask-tool.ts';
import { analyzeDataTool } from '../analysis/ask-tool.ts';
import type { ToolContext } from '../mcp/tool-kit.ts';

export interface AskTool {
  name: string;
  description: string;
  /** The arguments as JSON Schema (draft-07, the dialect model function calling uses). */
  parameters: Record<string, unknown>;
  /** Validates the model's arguments like the MCP server does, then runs the tool. */
  run(args: unknown, context: ToolContext): Promise<{ structured: Record<string, unknown>; text: string }>;
}

function jsonSchemaOf(schema: z.ZodType): Record<string, unknown> {
  // The input side: a lenient parameter shows the values it stands for (an enum, an integer).
  const { $schema: _dialect, ...json } = z.toJSONSchema(schema, { io: 'input', target: 'draft-07', unrepresentable: 'any' }) as Record<
    string,
    unknown
  >;
  return json;
}

function askTool(tool: McpTool): AskTool {
  return {
    name: tool.name,
    description: tool.description,
    parameters: jsonSchemaOf(tool.strictInput),
    run: (args, context) => tool.invoke(args, context),
  };
}

/** Tools only /ask offers: escrow and the analysis layer are REST resources, not among the MCP server's eight tools. */
const ASK_ONLY_TOOLS: McpTool[] = [getEscrowMonthsTool, analyzeDataTool];

export function askTools(): AskTool[] {
  return [...mcpTools.filter((tool) => tool.requiresKey !== true), ...ASK_ONLY_TOOLS].map(askTool);
}
