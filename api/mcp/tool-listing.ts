// `tools/list` as this server publishes it: each tool's input and output as JSON Schema 2020-12
// (./tool-schemas.ts) instead of the SDK's draft-07 rendering of the zod schemas. The tools and their
// schemas do not change while the process runs, so the listing is built once; the SDK still
// validates every call's arguments and result with the zod schemas themselves.
import type { ListToolsResult, McpServer } from '@modelcontextprotocol/server';
import { LISTED_ANNOTATIONS } from './tool-kit.ts';
import { tools } from './tools/index.ts';
import { publishedInputSchema, publishedOutputSchema } from './tool-schemas.ts';

let listing: ListToolsResult | undefined;

/** Every tool, as `tools/list` answers. */
export function toolListing(): ListToolsResult {
  listing ??= {
    tools: tools.map((tool) => ({
      name: tool.name,
      title: tool.title,
      description: tool.description,
      inputSchema: publishedInputSchema(tool.strictInput) as ListToolsResult['tools'][number]['inputSchema'],
      outputSchema: publishedOutputSchema(tool.outputSchema) as ListToolsResult['tools'][number]['outputSchema'],
      annotations: { ...LISTED_ANNOTATIONS },
    })),
  };
  return listing;
}

/** Answers `tools/list` with `toolListing()`; call after the tools are registered (registering sets the SDK's own handler). */
export function publishToolListing(server: McpServer): void {
  server.server.setRequestHandler('tools/list', () => toolListing());
}
