// What every MCP tool shares: the annotations (every tool is a read-only lookup over our own data),
// the `sources` list every result carries, and one error path — a service error becomes an
// `isError` result with the service's client-safe message; a fault never leaks internals.
// `defineTool` declares a tool from its capability's contract.ts (unknown arguments refused) and the
// services it calls (`uses`): its run is handed those and no others, so a test builds it with them alone.
import { z } from 'zod';
import type { McpServer } from '@modelcontextprotocol/server';
import type { CallToolResult, ResourceLink } from '@modelcontextprotocol/sdk/types.js';
import type { Config } from '../config.ts';
import type { Logger } from '../platform/logger.ts';
import type { DomainServices } from '../domain-services.ts';
import { BadRequestError, toErrorResponse } from '../platform/errors.ts';
import { refuseNul } from '../platform/validation.ts';
import { strictArguments } from '../platform/contract/strict.ts';
import { describeIssues } from '../platform/contract/issues.ts';
import { withinTextBudget } from './result-budget.ts';
import { callerOf, type McpCaller } from './request-caller.ts';

export type { McpCaller } from './request-caller.ts';
/** Every tool's text ends with its sources; the resources' too (./answer-text.ts). */
export { sourcesText } from './answer-text.ts';

/** The services the tools call (the MCP tools and /ask's own), and nothing else. */
export type ToolServiceName =
  | 'analysis'
  | 'bills'
  | 'calendar'
  | 'catalogue'
  | 'escrow'
  | 'glossary'
  | 'hmda'
  | 'loanLimits'
  | 'rates'
  | 'search'
  | 'series'
  | 'statistics';

/** The settings tools read: links on the base URL, and a 401's advice on getting a key (`howToGetAKey`). */
export type ToolSettings = Pick<Config, 'baseUrl' | 'OIDC_ISSUER' | 'SUPPORT_CONTACT'>;

/** What a tool reads: the settings, the logger for faults, and the services it declared (all of them by default). */
export interface ToolDeps<Uses extends ToolServiceName = ToolServiceName> {
  config: ToolSettings;
  logger: Logger;
  services: Pick<DomainServices, Uses>;
}

export interface ToolContext<Uses extends ToolServiceName = ToolServiceName> {
  deps: ToolDeps<Uses>;
  /** The caller of this call; at registration, the caller of calls that carry none (stdio's own). */
  caller: McpCaller;
}

export const READ_ONLY_ANNOTATIONS = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
} as const;

/**
 * The annotations `tools/list` publishes: the same, said in the fewest words. A read-only tool's
 * `destructiveHint` and `idempotentHint` mean nothing (MCP: "meaningful only when readOnlyHint ==
 * false"), so they are left out of the listing.
 */
export const LISTED_ANNOTATIONS = {
  readOnlyHint: READ_ONLY_ANNOTATIONS.readOnlyHint,
  openWorldHint: READ_ONLY_ANNOTATIONS.openWorldHint,
} as const;

/** Turns any thrown value into an `isError` result a model can act on. */
export function toolError(error: unknown, context: Pick<ToolContext<never>, 'deps'>, toolName: string): CallToolResult {
  const { body, expected } = toErrorResponse(error);
  if (!expected) context.deps.logger.error({ err: error, tool: toolName }, 'mcp tool failed');
  return { isError: true, content: [{ type: 'text', text: body.error }] };
}

/** What a tool's run returns: the structured result (typed by the output schema) and its text. */
export interface ToolAnswer<Output extends z.ZodObject> {
  structured: z.input<Output> & Record<string, unknown>;
  text: string;
  /** Files the answer points to instead of carrying them (`resource_link` content after the text). */
  links?: ResourceLink[];
}

/** The arguments a tool's run receives: its contract input, parsed, with nothing unknown. */
export type ToolArgs<InShape extends z.ZodRawShape> = z.output<ReturnType<typeof strictArguments<InShape>>>;

/** A tool declared from a capability's contract. */
export interface ContractToolDefinition<InShape extends z.ZodRawShape, Output extends z.ZodObject, Uses extends ToolServiceName> {
  name: string;
  title: string;
  /** What the tool answers, what each argument accepts, with examples that exist. */
  description: string;
  /** True for tools that answer only callers with an API key (query_hmda). */
  requiresKey?: boolean;
  /** The contract's input object (built with .pick/.omit/.partial/.extend); unknown arguments are refused. */
  inputSchema: z.ZodObject<InShape, z.core.$ZodObjectConfig>;
  /** The contract's output object; it must include `sources`. The SDK checks every result against it. */
  outputSchema: Output;
  /** The services the tool calls: its run is handed these alone. */
  uses: readonly Uses[];
  run(args: ToolArgs<InShape>, context: ToolContext<Uses>): Promise<ToolAnswer<Output>>;
}

export interface ContractTool<
  InShape extends z.ZodRawShape = z.ZodRawShape,
  Output extends z.ZodObject = z.ZodObject,
  Uses extends ToolServiceName = ToolServiceName,
> extends ContractToolDefinition<InShape, Output, Uses> {
  /** The input refusing unknown names: what the SDK validates arguments with and lists. */
  readonly strictInput: ReturnType<typeof strictArguments<InShape>>;
  /** Validates raw arguments as the SDK does, then runs: for /ask and for tests that call the handler. */
  invoke(args: unknown, context: ToolContext<Uses>): Promise<ToolAnswer<Output>>;
  /** The whole call as an MCP client sees it: a result, or an `isError` result with the message. */
  call(args: unknown, context: ToolContext<Uses>): Promise<CallToolResult>;
  register(server: McpServer, context: ToolContext<Uses>): void;
}

/** One answer as the MCP result: structuredContent plus the text block (within the text budget) and any resource links. */
function toResult(answer: { structured: Record<string, unknown>; text: string; links?: ResourceLink[] }): CallToolResult {
  return {
    structuredContent: answer.structured,
    content: [{ type: 'text', text: withinTextBudget(answer.text) }, ...(answer.links ?? [])],
  };
}

/**
 * The declared services out of those handed over, picked once per set handed over: a tool reaching
 * for one it did not declare finds nothing, whatever the caller holds.
 */
function declaredServices<Uses extends ToolServiceName>(
  uses: readonly Uses[],
): (services: Pick<DomainServices, Uses>) => Pick<DomainServices, Uses> {
  const picked = new WeakMap<object, Pick<DomainServices, Uses>>();
  return (services) => {
    let narrow = picked.get(services);
    if (!narrow) {
      narrow = Object.fromEntries(uses.map((name) => [name, services[name]])) as Pick<DomainServices, Uses>;
      picked.set(services, narrow);
    }
    return narrow;
  };
}

/**
 * A tool from its contract: the SDK lists `inputSchema` (strict) and `outputSchema`, validates the
 * arguments with the first and every result with the second.
 */
export function defineTool<InShape extends z.ZodRawShape, Output extends z.ZodObject, Uses extends ToolServiceName>(
  definition: ContractToolDefinition<InShape, Output, Uses>,
): ContractTool<InShape, Output, Uses> {
  const strictInput = strictArguments(definition.inputSchema, 'argument');
  const declared = declaredServices(definition.uses);
  const runParsed = async (args: ToolArgs<InShape>, context: ToolContext<Uses>): Promise<ToolAnswer<Output>> => {
    // PostgreSQL text cannot hold NUL: refused here, as the REST routes refuse it, not as a fault.
    refuseNul(args, 'arguments');
    return definition.run(args, { ...context, deps: { ...context.deps, services: declared(context.deps.services) } });
  };
  const invoke = async (args: unknown, context: ToolContext<Uses>): Promise<ToolAnswer<Output>> => {
    const parsed = await strictInput.safeParseAsync(args ?? {});
    if (!parsed.success) throw new BadRequestError(describeIssues(parsed.error.issues, args, 'arguments'));
    return runParsed(parsed.data, context);
  };
  return {
    ...definition,
    strictInput,
    invoke,
    async call(args, context) {
      try {
        return toResult(await invoke(args, context));
      } catch (error) {
        return toolError(error, context, definition.name);
      }
    },
    register(server, context) {
      server.registerTool<Output, typeof strictInput>(
        definition.name,
        {
          title: definition.title,
          description: definition.description,
          inputSchema: strictInput,
          outputSchema: definition.outputSchema,
          annotations: { title: definition.title, ...READ_ONLY_ANNOTATIONS },
        },
        // One server serves every caller: the call's own caller comes with the request (./request-caller.ts).
        async (args, request) => {
          const call = { ...context, caller: callerOf(request, context.caller) };
          try {
            return toResult(await runParsed(args, call));
          } catch (error) {
            return toolError(error, call, definition.name);
          }
        },
      );
    },
  };
}
