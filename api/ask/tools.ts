// The tools /ask's model may call: the MCP server's tools, from the one registry (api/mcp/tools/),
// so both faces list the same tools and give the same figures. /ask calls them as an anonymous
// caller: query_hmda answers it as it answers an MCP client without a key. The model is shown each tool's input as JSON
// Schema (the strict contract input, exactly what MCP clients are shown), and its arguments are
// parsed with the tool's own zod schema, so the lenient forms and the messages are the MCP ones.
import { z } from 'zod';
import { tools as mcpTools, type McpTool } from '../mcp/tools/index.ts';
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

export function askTools(): AskTool[] {
  return mcpTools.map(askTool);
}
