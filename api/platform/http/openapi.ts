// Writes the OpenAPI 3.1 document from route contracts: data, with no handler and no live
// dependency. zod 4 emits JSON Schema 2020-12, which is exactly the schema dialect OpenAPI 3.1 uses.
import { z } from 'zod';
import { refusesUnknownParameters, type RouteContract } from './route-contract.ts';
import { BODY_ERROR_STATUSES, COMMON_ERROR_STATUSES, ERROR_DESCRIPTIONS, ErrorBodySchema } from './error-responses.ts';

export { ErrorBodySchema };

function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): Record<string, unknown> {
  const generated = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as Record<string, unknown>;
  delete generated.$schema;
  return generated;
}

function queryParameters(route: RouteContract): unknown[] {
  if (!route.query) return [];
  const schema = jsonSchema(route.query, 'input') as {
    properties?: Record<string, Record<string, unknown>>;
    required?: string[];
  };
  return Object.entries(schema.properties ?? {}).map(([name, property]) => {
    const { description, ...rest } = property;
    const example = route.example?.query?.[name];
    return {
      name,
      in: 'query',
      required: schema.required?.includes(name) ?? false,
      ...(description === undefined ? {} : { description }),
      schema: rest,
      ...(example === undefined ? {} : { example }),
    };
  });
}

function pathParameters(route: RouteContract): unknown[] {
  if (!route.params) return [];
  const schema = jsonSchema(route.params, 'input') as { properties?: Record<string, Record<string, unknown>> };
  return Object.entries(schema.properties ?? {}).map(([name, property]) => {
    const { description, ...rest } = property;
    const example = route.example?.params?.[name];
    return {
      name,
      in: 'path',
      required: true,
      ...(description === undefined ? {} : { description }),
      schema: rest,
      ...(example === undefined ? {} : { example }),
    };
  });
}

const errorContent = { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } };

function responses(route: RouteContract): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  for (const [status, response] of Object.entries(route.responses)) {
    const contentType = response.contentType ?? 'application/json';
    const isError = Number(status) >= 400;
    // An error response declared with only a description still has the one error body.
    if (isError && (response.schema === undefined || response.schema === ErrorBodySchema) && contentType === 'application/json') {
      result[status] = { description: response.description, content: errorContent };
      continue;
    }
    const content: Record<string, unknown> = {};
    if (contentType === 'text/event-stream') content[contentType] = eventStreamContent(response.schema);
    else if (response.schema || contentType !== 'application/json')
      content[contentType] = response.schema ? { schema: jsonSchema(response.schema, 'output') } : {};
    for (const other of response.otherContentTypes ?? []) content[other] = {};
    result[status] = { description: response.description, ...(Object.keys(content).length > 0 ? { content } : {}) };
  }
  for (const status of [...COMMON_ERROR_STATUSES, ...(route.body ? BODY_ERROR_STATUSES : [])]) {
    result[status] ??= { description: ERROR_DESCRIPTIONS[status], content: errorContent };
  }
  return result;
}

/**
 * An event stream's body is text; the route's schema describes each event's `data:` JSON. OpenAPI 3.1
 * has no field for that (3.2 adds `itemSchema`), so it goes in the `x-event-schema` extension.
 */
function eventStreamContent(eventSchema: z.ZodType | undefined): Record<string, unknown> {
  const body = { schema: { type: 'string', description: 'Server-sent events, one `data: <JSON>` line and a blank line each.' } };
  return eventSchema ? { ...body, 'x-event-schema': jsonSchema(eventSchema, 'output') } : body;
}

/** What an operation says about unknown query parameters (only operations that take some refuse them). */
function describeOperation(route: RouteContract): string | undefined {
  if (!refusesUnknownParameters(route)) return route.description;
  const note = 'Unknown query parameters are refused with a 400 that names the known ones (`api_key` and `secret` are always accepted).';
  return route.description === undefined ? note : `${route.description} ${note}`;
}

export interface OpenApiOptions {
  baseUrl: string;
  apiHostUrl: string;
  version: string;
  documentationUrl: string;
}

/** The document for routes as data: the API's contracts (api/api-description.ts) or a registry's routes. */
export function buildOpenApiDocument(routes: readonly RouteContract[], options: OpenApiOptions): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const openApiPath = route.path.replace(/[:*](\w+)/g, '{$1}');
    const operation: Record<string, unknown> = {
      operationId: route.operationId,
      summary: route.summary,
      ...(describeOperation(route) === undefined ? {} : { description: describeOperation(route) }),
      tags: route.tags,
      parameters: [...pathParameters(route), ...queryParameters(route)],
      responses: responses(route),
      security: [{}, { ApiKeyHeader: [] }, { BearerKey: [] }, { ApiKeyQuery: [] }, { SecretQuery: [] }],
    };
    if (route.body) {
      operation.requestBody = {
        required: true,
        content: {
          'application/json': {
            schema: jsonSchema(route.body, 'input'),
            ...(route.example?.body === undefined ? {} : { example: route.example.body }),
          },
        },
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
        'Errors are `{error, status}` with a message that says how to fix the request; every status an operation can ' +
        'answer is documented with that body. A parameter given twice where one value is expected is a 400. Unknown ' +
        'query parameters are refused with a 400 that names the known ones (the key parameters `api_key` and `secret` ' +
        'are always accepted) on every operation that takes query parameters; the operations that take none (health, ' +
        'this document, /ask) ignore a query string. ' +
        'Static copies of the statistics, escrow, calendar and loan-limit answers are published outside this API at ' +
        '`/data/...` on the main host (listed, each with the operation and query whose body it is, at `/data/index.json`); ' +
        'they are files, not operations, so no path here describes them.',
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
