// The tools /ask's model may call: the MCP tools that need no key. Same definitions, same services,
// so both faces give the same figures. The model is shown each tool's input schema (the strict
// contract input for contract tools), its arguments are parsed with it, and the tool runs on them.
import { z } from 'zod';
import type { AppDeps } from '../deps.ts';
import { isContractTool, tools as mcpTools, type McpTool } from '../mcp/tools/index.ts';
import type { ToolContext } from '../mcp/tool-kit.ts';
import { refuseNul } from '../platform/http/validation.ts';

export interface AskTool {
  name: string;
  description: string;
  /** The arguments, as the model is shown them and as they are parsed. */
  schema: z.ZodObject;
  /** Runs the tool on arguments already parsed with `schema`. */
  run(args: Record<string, unknown>, context: ToolContext): Promise<{ structured: Record<string, unknown>; text: string }>;
}

function askTool(tool: McpTool): AskTool {
  const schema = isContractTool(tool) ? tool.strictInput : z.object(tool.input);
  return {
    name: tool.name,
    description: tool.description,
    schema,
    run: async (args, context) => {
      refuseNul(args, 'arguments');
      return tool.run(args, context);
    },
  };
}

export function askTools(_deps: AppDeps): AskTool[] {
  return mcpTools.filter((tool) => tool.requiresKey !== true).map(askTool);
}
