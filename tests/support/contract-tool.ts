// Calling a contract tool without a server: the handler and schemas a tool registers, captured from
// registerTool and called the way the MCP SDK calls them (arguments parsed with the listed input
// schema, structuredContent checked against the output schema), with a context that holds the
// services the tool declares (`uses`) and no others.
import { expect } from 'vitest';
import type { z } from 'zod';
import type { McpServer } from '@modelcontextprotocol/server';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { DomainServices } from '../../api/domain-services.ts';
import type { ContractTool, McpCaller, ToolContext, ToolServiceName, ToolSettings } from '../../api/mcp/tool-kit.ts';
import { createLogger } from '../../api/platform/logger.ts';
import { checkToolResultBudget } from './mcp-client.ts';

/** A tool, whatever its schemas, by the services it declares. */
export type ToolUsing<Uses extends ToolServiceName> = ContractTool<z.ZodRawShape, z.ZodObject, Uses>;

const SETTINGS: ToolSettings = { baseUrl: 'http://localhost:3000', OIDC_ISSUER: undefined, SUPPORT_CONTACT: undefined };

/**
 * The context a tool runs with: exactly the services its `uses` names (the compiler refuses a missing
 * one and, in an object literal, one more), silent logging and the default settings.
 */
export function toolContext<Uses extends ToolServiceName>(
  _tool: ToolUsing<Uses>,
  services: Pick<DomainServices, NoInfer<Uses>>,
  { caller = { kind: 'anonymous' }, config = SETTINGS }: { caller?: McpCaller; config?: ToolSettings } = {},
): ToolContext<Uses> {
  return { deps: { config, logger: createLogger('silent'), services }, caller };
}

/**
 * A service that has only the methods a test gives it: the others throw when called, naming the
 * method, so a fixture need not write out what its tool never calls and cannot silently pass by it.
 */
export function serviceStub<Name extends ToolServiceName>(name: Name, methods: Partial<DomainServices[Name]>): DomainServices[Name] {
  return new Proxy(methods, {
    get(target, property, receiver) {
      if (property in target || typeof property === 'symbol' || property === 'then') return Reflect.get(target, property, receiver);
      return () => {
        throw new Error(`the ${name} service stub has no ${property}()`);
      };
    },
  }) as DomainServices[Name];
}

/** A service method that answers `answer` to every call and keeps what it was asked, in order. */
export function answering<Query, Answer>(answer: Answer): { method: (query: Query) => Promise<Answer>; asked: Query[] } {
  const asked: Query[] = [];
  return {
    method: async (query) => {
      asked.push(query);
      return answer;
    },
    asked,
  };
}

interface Captured {
  config: { inputSchema: z.ZodType; outputSchema: z.ZodType };
  handler: (args: unknown, extra: unknown) => Promise<CallToolResult>;
}

function captured<Uses extends ToolServiceName>(tool: ToolUsing<Uses>, context: ToolContext<Uses>): Captured {
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

/** What the SDK does with a call: validate the arguments with the input schema, run, check the output (and the result budget). */
export async function callLikeTheSdk<Uses extends ToolServiceName>(
  tool: ToolUsing<Uses>,
  context: ToolContext<NoInfer<Uses>>,
  args: unknown,
): Promise<CallToolResult> {
  const { config, handler } = captured(tool, context);
  const result = await handler(config.inputSchema.parse(args), {});
  if (!result.isError) config.outputSchema.parse(result.structuredContent);
  checkToolResultBudget(tool.name, result);
  return result;
}

/** Parsing drops unknown keys, so a parse equal to the input proves none were there (at any depth). */
export function expectExactly<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const parsed = schema.parse(value);
  expect(parsed).toEqual(value);
  return parsed;
}

export const resultText = (result: CallToolResult) => result.content.map((block) => (block.type === 'text' ? block.text : '')).join('\n');
