// The MCP tools as documentation files list them (brand-facts.json, llms.txt, /ai-info-page): read
// from the tool registry itself, so the files cannot drift from what /api/mcp serves.
import { toolCatalog } from './tools/index.ts';

export interface McpToolName {
  name: string;
  description: string;
  requiresKey: boolean;
}

export const MCP_TOOL_NAMES: readonly McpToolName[] = toolCatalog.map(({ name, description, requiresKey }) => ({
  name,
  description,
  requiresKey,
}));
