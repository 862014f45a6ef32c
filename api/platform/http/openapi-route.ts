// GET /openapi.json: the document built from the routes registered so far, serialised once (the
// route table does not change while the process runs). Registered last, so it lists every route.
import { z } from 'zod';
import type { CoreDeps } from '../core-deps.ts';
import type { ApiRegistry } from './api-registry.ts';
import { preSerialize, type PreSerialized } from '../pre-serialized.ts';
import { apiUrls } from './addresses.ts';
import { buildOpenApiDocument } from './openapi.ts';

type OpenApiDeps = Pick<CoreDeps, 'config'>;

/** The parts of an OpenAPI 3.1 document a client relies on; the rest is OpenAPI's own schema. */
export const OpenApiDocumentSchema = z.looseObject({
  openapi: z.literal('3.1.0'),
  info: z.looseObject({ title: z.string(), version: z.string() }),
  paths: z.record(z.string(), z.record(z.string(), z.unknown())),
});

type OpenApiDocument = z.input<typeof OpenApiDocumentSchema>;

export function registerOpenApiRoute(registry: ApiRegistry, deps: OpenApiDeps): void {
  let document: PreSerialized<OpenApiDocument> | undefined;
  registry.route(
    {
      method: 'get',
      path: '/openapi.json',
      operationId: 'getOpenApiDocument',
      summary: 'This OpenAPI 3.1 document',
      tags: ['Service'],
      responses: { 200: { description: 'The OpenAPI document', schema: OpenApiDocumentSchema } },
    },
    () => {
      const urls = apiUrls(deps);
      document ??= preSerialize(
        buildOpenApiDocument(registry.routes, {
          baseUrl: deps.config.baseUrl,
          apiHostUrl: urls.apiHost,
          version: deps.config.version,
          documentationUrl: urls.documentation,
        }) as OpenApiDocument,
      );
      return document;
    },
  );
}
