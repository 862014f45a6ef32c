// registry.route(): the compiler holds each handler to its 200 schema (the @ts-expect-error lines
// fail the type check if a wrong body ever compiles), and the route refuses unknown parameters,
// accepts the key parameters, reads a repeated list parameter as a list and says a repeated single
// one once, whether the body is an object or pre-serialised.
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ApiRegistry, RESPONSE_WRITTEN } from '../../api/platform/http/api-registry.ts';
import { preSerialize, type PreSerialized } from '../../api/platform/pre-serialized.ts';
import { errorResponses } from '../../api/platform/http/error-responses.ts';
import { toErrorResponse } from '../../api/platform/errors.ts';
import { buildOpenApiDocument } from '../../api/platform/http/openapi.ts';
import { choice, integer, list } from '../../api/platform/contract/index.ts';
import { listen } from '../support/app.ts';

const Query = z.object({
  size: choice(['small', 'large']).default('small').describe('How big.'),
  count: integer({ min: 1, max: 5 }).default(1).describe('How many.'),
  tags: list(choice(['a', 'b', 'c']))
    .optional()
    .describe('Tags.'),
});
const Answer = z.object({ size: z.enum(['small', 'large']), count: z.int(), tags: z.array(z.string()) });
type Answer = z.infer<typeof Answer>;

function registry(): ApiRegistry {
  const routes = new ApiRegistry();
  routes.route(
    {
      method: 'get',
      path: '/things',
      operationId: 'things',
      summary: 'Things',
      tags: ['Test'],
      query: Query,
      responses: { 200: { description: 'The things', schema: Answer }, ...errorResponses({ 404: 'No such thing.' }) },
    },
    ({ query }) => ({ size: query.size, count: query.count, tags: query.tags ?? [] }),
  );
  const cached: PreSerialized<Answer> = preSerialize({ size: 'large', count: 2, tags: [] });
  routes.route(
    {
      method: 'get',
      path: '/cached',
      operationId: 'cached',
      summary: 'Cached',
      tags: ['Test'],
      query: z.object({}),
      responses: { 200: { description: 'Cached', schema: Answer } },
    },
    () => cached,
  );
  routes.route(
    {
      method: 'get',
      path: '/text',
      operationId: 'text',
      summary: 'Text',
      tags: ['Test'],
      query: z.object({}),
      responses: { 200: { description: 'Text or JSON', schema: Answer, otherContentTypes: ['text/plain'] } },
    },
    ({ res }) => {
      res.type('text/plain').send('plain');
      return RESPONSE_WRITTEN;
    },
  );
  return routes;
}

/** Never called: it exists for the compiler, which must accept the first bodies and refuse each marked one. */
export function wrongBodiesDoNotCompile(routes: ApiRegistry): void {
  const base = { method: 'get', path: '/x', operationId: 'x', summary: 'x', tags: [], query: z.object({}) } as const;
  const responses = { 200: { description: 'x', schema: Answer } };
  // The right body, as an object, a promise or pre-serialised: were the contract itself refused, every marked line below would pass vacuously.
  routes.route({ ...base, responses }, () => ({ size: 'small', count: 1, tags: [] }));
  routes.route({ ...base, responses }, async () => ({ size: 'large', count: 2, tags: ['a'] }));
  routes.route({ ...base, responses }, () => preSerialize<Answer>({ size: 'small', count: 1, tags: [] }));
  // @ts-expect-error a field missing from the 200 schema's body
  routes.route({ ...base, responses }, () => ({ size: 'small', count: 1 }));
  // @ts-expect-error a value outside the schema's enum
  routes.route({ ...base, responses }, () => ({ size: 'huge', count: 1, tags: [] }));
  // @ts-expect-error a string that was not serialised from the right type
  routes.route({ ...base, responses }, () => JSON.stringify({ size: 'small', count: 1, tags: [] }));
  // @ts-expect-error a pre-serialised body of another type
  routes.route({ ...base, responses }, () => preSerialize({ other: true }));
}

describe('registry.route()', () => {
  let server: Awaited<ReturnType<typeof listen>>;
  const routes = registry();

  beforeAll(async () => {
    const app = express();
    app.use(routes.buildRouter());
    app.use(((error, _req, res, _next) => {
      const { body } = toErrorResponse(error);
      res.status(body.status).json(body);
    }) as express.ErrorRequestHandler);
    server = await listen(app);
  });
  afterAll(() => server?.close());

  const get = async (path: string) => {
    const response = await fetch(`${server.url}${path}`);
    return { status: response.status, text: await response.text() };
  };

  it.each([
    ['/things', { size: 'small', count: 1, tags: [] }],
    ['/things?size=LARGE&count=3', { size: 'large', count: 3, tags: [] }],
    ['/things?tags=a,b&tags=c', { size: 'small', count: 1, tags: ['a', 'b', 'c'] }],
    ['/things?api_key=mds_x&secret=y', { size: 'small', count: 1, tags: [] }],
    ['/cached', { size: 'large', count: 2, tags: [] }],
  ])('answers %s with %j', async (path, body) => {
    const response = await get(path);
    expect(response.status).toBe(200);
    expect(JSON.parse(response.text)).toEqual(body);
  });

  it('lets a handler write its own response', async () => {
    expect(await get('/text')).toEqual({ status: 200, text: 'plain' });
  });

  it.each([
    ['/things?colour=red', "Unknown parameter 'colour'. Known parameters: size, count, tags (and api_key or secret for an API key)."],
    ['/things?count=2&count=3', "Parameter 'count' was given more than once; give it once."],
    ['/things?count=9', "Invalid value for 'count': 9. Give a whole number from 1 to 5."],
    [
      '/things?size=medium&count=0',
      "Invalid value for 'size': \"medium\". Valid values: small, large. Invalid value for 'count': 0. Give a whole number from 1 to 5.",
    ],
  ])('answers %s with a 400 saying %j', async (path, error) => {
    const response = await get(path);
    expect(response.status).toBe(400);
    expect(JSON.parse(response.text)).toEqual({ error, status: 400 });
  });

  it('documents the parameters, the 200 body and every error with the one body', () => {
    const document = buildOpenApiDocument(routes.routes, {
      baseUrl: 'http://x',
      apiHostUrl: 'http://api.x',
      version: '1',
      documentationUrl: 'http://x/docs',
    }) as {
      paths: Record<
        string,
        { get: { parameters: { name: string; schema: unknown }[]; description?: string; responses: Record<string, unknown> } }
      >;
    };
    const things = document.paths['/things']?.get;
    expect(things?.parameters.map((parameter) => parameter.name)).toEqual(['size', 'count', 'tags']);
    expect(things?.parameters[0]?.schema).toMatchObject({ type: 'string', enum: ['small', 'large'] });
    expect(Object.keys(things?.responses ?? {}).sort()).toEqual(['200', '400', '401', '404', '405', '429', '431', '500', '503']);
    expect(things?.description).toMatch(/Unknown query parameters are refused/);
    expect(document.paths['/text']?.get.responses['200']).toMatchObject({ content: { 'application/json': {}, 'text/plain': {} } });
  });
});
