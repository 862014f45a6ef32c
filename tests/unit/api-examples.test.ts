// Every operation's published example is a request the server accepts: each route's example query,
// path parameters and body pass its own schemas (strictly: no unknown parameter), the OpenAPI
// document carries them as parameter and body examples, and the API docs page builds the same URL.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { loadConfig } from '../../api/config.ts';
import type { AppDeps } from '../../api/deps.ts';
import { ApiRegistry } from '../../api/platform/http/api-registry.ts';
import { apiRouteContracts, registerApiRoutes } from '../../api/routes.ts';
import { describeApi } from '../../api/api-description.ts';
import { exampleRequest, shorten, type Operation } from '../../site/lib/api-examples.ts';

const config = loadConfig({ ...process.env, LOG_LEVEL: 'silent' });
/** The route contracts, as data: what the OpenAPI document is rendered from. */
const routes = apiRouteContracts(config);

/** The routes the app registers: answering needs services, registering only declares, so they are never called. */
function registeredRoutes() {
  const registry = new ApiRegistry();
  const unused = new Proxy(
    {},
    {
      get: () => {
        throw new Error('not used while registering');
      },
    },
  ) as never;
  registerApiRoutes(registry, { config, db: unused, logger: unused, clock: () => new Date(), services: unused } as AppDeps);
  return registry.routes;
}

describe('the API examples', () => {
  it('come from the contracts the app registers, in the same order', () => {
    const key = (route: { method: string; path: string; operationId: string }) => `${route.method} ${route.path} ${route.operationId}`;
    expect(registeredRoutes().map(key)).toEqual(routes.map(key));
  });

  it('gives every operation but the file download an example', () => {
    const without = routes.filter((route) => route.example === undefined).map((route) => route.operationId);
    expect(without).toEqual(['getHmdaExport']);
  });

  for (const route of routes.filter((candidate) => candidate.example !== undefined)) {
    it(`${route.operationId}: its example passes its own schemas`, () => {
      const example = route.example!;
      if (route.query instanceof z.ZodObject) expect(() => route.query!.parse(example.query ?? {})).not.toThrow();
      if (route.query instanceof z.ZodObject)
        expect(Object.keys(example.query ?? {}).filter((name) => !(name in (route.query as z.ZodObject).shape))).toEqual([]);
      if (route.params) expect(route.params.safeParse(example.params ?? {}).success).toBe(true);
      if (route.body) expect(route.body.safeParse(example.body).success).toBe(true);
    });
  }

  it('publishes them in the OpenAPI document, from which the docs page builds each request', () => {
    const paths = describeApi(config).paths as Record<string, Record<string, Operation>>;
    expect(exampleRequest('/loan-limits', 'get', paths['/loan-limits']!.get!)).toEqual({
      url: '/loan-limits?state=CA&county=Los+Angeles&loan_type=fha',
    });
    expect(exampleRequest('/research/counties/{fips}', 'get', paths['/research/counties/{fips}']!.get!)).toEqual({
      url: '/research/counties/08031',
    });
    expect(exampleRequest('/ask', 'post', paths['/ask']!.post!)?.body).toEqual({
      message: 'What is the conforming loan limit in Los Angeles County?',
    });
    expect(exampleRequest('/hmda/exports/{file}', 'get', paths['/hmda/exports/{file}']!.get!)).toBeUndefined();
  });

  it('shortens long lists in a shown answer and says how many items are left out', () => {
    expect(shorten({ counties: [1, 2, 3, 4], name: 'x' })).toEqual({ counties: [1, 2, '… 2 more'], name: 'x' });
  });
});
