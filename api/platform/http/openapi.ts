// Writes the OpenAPI 3.1 document from the route table. zod 4 emits JSON Schema 2020-12, which is
// exactly the schema dialect OpenAPI 3.1 uses.
import { z } from 'zod';
import type { ApiRegistry, RouteDefinition } from './api-registry.ts';

export const ErrorBodySchema = z
  .object({
    error: z.string().describe('What went wrong and how to fix the request.'),
    status: z.int().describe('The HTTP status, repeated.'),
  });

function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): Record<string, unknown> {
  const generated = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as Record<string, unknown>;
  delete generated.$schema;
  return generated;
}

function queryParameters(route: RouteDefinition): unknown[] {
  if (!route.query) return [];
  const schema = jsonSchema(route.query, 'input') as {
    properties?: Record<string, Record<string, unknown>>;
    required?: string[];
  };
  return Object.entries(schema.properties ?? {}).map(([name, property]) => {
    const { description, ...rest } = property;
    return {
      name,
      in: 'query',
      required: schema.required?.includes(name) ?? false,
      ...(description === undefined ? {} : { description }),
      schema: rest,
    };
  });
}

function responses(route: RouteDefinition): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  for (const [status, response] of Object.entries(route.responses)) {
    const contentType = response.contentType ?? 'application/json';
    result[status] = {
      description: response.description,
      ...(response.schema || contentType !== 'application/json'
        ? { content: { [contentType]: response.schema ? { schema: jsonSchema(response.schema, 'output') } : {} } }
        : {}),
    };
  }
  const errorResponse = (description: string) => ({
    description,
    content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
  });
  result['400'] ??= errorResponse('Invalid parameters; the message names the parameter and the valid values.');
  result['401'] ??= errorResponse('The API key given is invalid or revoked, or a key is required.');
  result['429'] ??= errorResponse('Rate limited; see Retry-After.');
  result['500'] ??= errorResponse('Unexpected fault (no internals are disclosed).');
  result['503'] ??= errorResponse('A dataset is not loaded yet or the database is unavailable; see Retry-After.');
  return result;
}

export interface OpenApiOptions {
  baseUrl: string;
  apiHostUrl: string;
  version: string;
  documentationUrl: string;
}

export function buildOpenApiDocument(registry: ApiRegistry, options: OpenApiOptions): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of registry.routes) {
    const openApiPath = route.path.replace(/:(\w+)/g, '{$1}');
    const operation: Record<string, unknown> = {
      operationId: route.operationId,
      summary: route.summary,
      ...(route.description === undefined ? {} : { description: route.description }),
      tags: route.tags,
      parameters: queryParameters(route),
      responses: responses(route),
      security: [{}, { ApiKeyHeader: [] }, { BearerKey: [] }, { ApiKeyQuery: [] }, { SecretQuery: [] }],
    };
    if (route.body) {
      operation.requestBody = {
        required: true,
        content: { 'application/json': { schema: jsonSchema(route.body, 'input') } },
      };
    }
    paths[openApiPath] = { ...paths[openApiPath], [route.method]: operation };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Mortgage Data Service API',
      version: options.version,
      description:
        'Mortgage rates, loan limits, HMDA market statistics, an economic calendar and escrow calculations, ' +
        'from official publishers with as-of dates. Free for non-commercial use; public beta. ' +
        'Every path is served at `/api/v1/...` on the main host and without the prefix on the API host. ' +
        'Unknown query parameters are ignored. Errors are `{error, status}`.',
    },
    externalDocs: { url: options.documentationUrl },
    servers: [
      { url: `${options.baseUrl}/api/v1`, description: 'Main address' },
      { url: options.apiHostUrl, description: 'API host (same resources, no prefix)' },
    ],
    paths,
    components: {
      schemas: { Error: jsonSchema(ErrorBodySchema, 'output') },
      securitySchemes: {
        ApiKeyHeader: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
        BearerKey: { type: 'http', scheme: 'bearer' },
        ApiKeyQuery: { type: 'apiKey', in: 'query', name: 'api_key' },
        SecretQuery: { type: 'apiKey', in: 'query', name: 'secret' },
      },
    },
  };
}
