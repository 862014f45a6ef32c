// Calling a contract tool without a server: the handler and schemas a tool registers, captured from
// registerTool and called the way the MCP SDK calls them (arguments parsed with the listed input
// schema, structuredContent checked against the output schema).
import { expect } from 'vitest';
import type { z } from 'zod';
import type { McpServer } from '@modelcontextprotocol/server';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ContractTool, ToolContext } from '../../api/mcp/tool-kit.ts';

interface Captured {
  config: { inputSchema: z.ZodType; outputSchema: z.ZodType };
  handler: (args: unknown, extra: unknown) => Promise<CallToolResult>;
}

function captured(tool: ContractTool, context: ToolContext): Captured {
  let found: Captured | undefined;
  const server = {
    registerTool: (_name: string, config: Captured['config'], handler: Captured['handler']) => {
      found = { config, handler };
    },
  };
  tool.register(server as unknown as McpServer, context);
  if (!found) throw new Error(`${tool.name} registered nothing`);
  return found;
}

/** What the SDK does with a call: validate the arguments with the input schema, run, check the output. */
export async function callLikeTheSdk(tool: ContractTool, context: ToolContext, args: unknown): Promise<CallToolResult> {
  const { config, handler } = captured(tool, context);
  const result = await handler(config.inputSchema.parse(args), {});
  if (!result.isError) config.outputSchema.parse(result.structuredContent);
  return result;
}

/** Parsing drops unknown keys, so a parse equal to the input proves none were there (at any depth). */
export function expectExactly<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const parsed = schema.parse(value);
  expect(parsed).toEqual(value);
  return parsed;
}

export const resultText = (result: CallToolResult) => result.content.map((block) => (block.type === 'text' ? block.text : '')).join('\n');
