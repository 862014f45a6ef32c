// What the contract-faces tests share: one app over a synced database, reached over REST, through a
// real MCP client (which checks every structuredContent against the listed outputSchema), and
// through the two documents that describe it (the OpenAPI document and the tool listing).
import { z } from 'zod';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Database } from '../../api/platform/db/database.ts';
import { buildTestApp, listen, type TestApp } from './app.ts';
import { connectMcp } from './mcp-client.ts';
import { publishedOutputSchema } from '../../api/mcp/tool-schemas.ts';

type Operation = { parameters: { name: string }[]; responses: Record<string, { content?: Record<string, { schema?: unknown }> }> };
export type OpenApiDocument = { paths: Record<string, Record<string, Operation>> };
export type ListedTool = Awaited<ReturnType<Client['listTools']>>['tools'][number];
export type Args = Record<string, unknown>;

/** The JSON Schema a document carries, without its dialect line (OpenAPI and MCP name different drafts). */
export function withoutDialect(schema: unknown): unknown {
  const { $schema: _dialect, ...rest } = schema as Record<string, unknown>;
  return rest;
}

/** A contract schema's output side as OpenAPI publishes it. */
export const outputJsonSchema = (schema: z.ZodType) =>
  withoutDialect(z.toJSONSchema(schema, { io: 'output', unrepresentable: 'any', target: 'draft-2020-12' }));

/** The same schema's output side as the tool listing publishes it: its fields and their types, kept short (api/mcp/tool-schemas.ts). */
export const toolOutputJsonSchema = (schema: z.ZodType) => publishedOutputSchema(schema);

/** A query string: a list as comma-separated values, the way people write them in a URL. */
export const queryString = (args: Args) =>
  new URLSearchParams(Object.entries(args).map(([key, value]): [string, string] => [key, String(value)])).toString();

export interface Faces {
  testApp: TestApp;
  /** The server's address, for requests the helpers below do not make. */
  url: string;
  openapi: OpenApiDocument;
  listed: ListedTool[];
  /** GET /api/v1<path>?<query>: the status and the JSON body. */
  rest(path: string, query: Args | string): Promise<{ status: number; body: Record<string, unknown> }>;
  mcp(tool: string, args: Args): ReturnType<Client['callTool']>;
  close(): Promise<void>;
}

export async function openFaces(db: Database, appOptions: Parameters<typeof buildTestApp>[1] = {}): Promise<Faces> {
  const testApp = await buildTestApp(db, appOptions);
  const server = await listen(testApp.app);
  const client = await connectMcp(server.url);
  const openapi = (await (await fetch(`${server.url}/api/v1/openapi.json`)).json()) as OpenApiDocument;
  const listed = (await client.listTools()).tools;
  return {
    testApp,
    url: server.url,
    openapi,
    listed,
    async rest(path, query) {
      const response = await fetch(`${server.url}/api/v1${path}?${typeof query === 'string' ? query : queryString(query)}`);
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    },
    mcp: (tool, args) => client.callTool({ name: tool, arguments: args }),
    async close() {
      await client.close();
      await server.close();
      await testApp.close();
    },
  };
}
