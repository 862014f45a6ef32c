// The tools /ask's model may call: the MCP tools that need no key, plus escrow (an /ask-only
// question type). Same definitions, same services, so both faces give the same figures.
import type { AppDeps } from '../deps.ts';
import { tools as mcpTools } from '../mcp/tools/index.ts';
import type { ToolDefinition } from '../mcp/tool-kit.ts';
import type { z } from 'zod';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyToolDefinition = ToolDefinition<any, z.ZodRawShape>;

export function askTools(_deps: AppDeps): AnyToolDefinition[] {
  return mcpTools.filter((definition) => definition.name !== 'query_hmda') as AnyToolDefinition[];
}
