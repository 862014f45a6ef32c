// What every MCP tool shares: the annotations (all 8 tools are read-only lookups over our own data),
// the `sources` list every result carries, and one error path — a service error becomes an
// `isError` result with the service's client-safe message; a fault never leaks internals.
import { z } from 'zod';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { AppDeps } from '../deps.ts';
import { toErrorResponse } from '../platform/http/errors.ts';
import { refuseNul } from '../platform/http/validation.ts';

/** Who is calling: tools that need a key (query_hmda) check it. */
export type McpCaller = { kind: 'anonymous' } | { kind: 'key'; keyId: string; accountId: string };

export interface ToolContext {
  deps: AppDeps;
  caller: McpCaller;
}

export const sourceSchema = z.object({
  url: z.string().describe('Where the data comes from (publisher page or our page).'),
  as_of: z.string().nullable().describe('YYYY-MM-DD the data is current as of, when known.'),
  name: z.string().optional().describe('Publisher or document name.'),
});
export type Source = z.infer<typeof sourceSchema>;

export const READ_ONLY_ANNOTATIONS = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
} as const;

export interface ToolDefinition<Input extends z.ZodRawShape, Output extends z.ZodRawShape> {
  name: string;
  title: string;
  description: string;
  /** True for tools that answer only callers with an API key (spec 4.6: query_hmda). */
  requiresKey?: boolean;
  input: Input;
  /** The structured result; must include `sources`. */
  output: Output;
  /** Returns the structured result and a short human-readable text rendering of it. */
  run(args: z.infer<z.ZodObject<Input>>, context: ToolContext): Promise<{ structured: z.infer<z.ZodObject<Output>>; text: string }>;
}

/** Turns any thrown value into an `isError` result a model can act on. */
export function toolError(error: unknown, context: ToolContext, toolName: string): CallToolResult {
  const { body, expected } = toErrorResponse(error);
  if (!expected) context.deps.logger.error({ err: error, tool: toolName }, 'mcp tool failed');
  return { isError: true, content: [{ type: 'text', text: body.error }] };
}

export function registerToolDefinition<Input extends z.ZodRawShape, Output extends z.ZodRawShape>(
  server: McpServer,
  definition: ToolDefinition<Input, Output>,
  context: ToolContext,
): void {
  server.registerTool(
    definition.name,
    {
      title: definition.title,
      description: definition.description,
      inputSchema: definition.input,
      outputSchema: definition.output,
      annotations: { title: definition.title, ...READ_ONLY_ANNOTATIONS },
    },
    (async (args: z.infer<z.ZodObject<Input>>) => {
      try {
        // PostgreSQL text cannot hold NUL: refused here, as the REST routes refuse it, not as a fault.
        refuseNul(args, 'arguments');
        const { structured, text } = await definition.run(args, context);
        return {
          structuredContent: structured as Record<string, unknown>,
          content: [{ type: 'text', text }],
        } satisfies CallToolResult;
      } catch (error) {
        return toolError(error, context, definition.name);
      }
    }) as never,
  );
}

/** Formats sources as text lines for the human-readable block. */
export function sourcesText(sources: Source[]): string {
  return sources.map((source) => `Source: ${source.name ? `${source.name}, ` : ''}${source.url}${source.as_of ? ` (as of ${source.as_of})` : ''}`).join('\n');
}
