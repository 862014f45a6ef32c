// The OpenAPI document without a running server, for the site's build (the API docs page) and for
// brand-facts/llms.txt. Route registration must only declare routes, never touch live services, so
// it runs here against dependencies that refuse to be used.
import { loadConfig } from './config.ts';
import type { AppDeps } from './deps.ts';
import { ApiRegistry } from './platform/http/api-registry.ts';
import { buildOpenApiDocument } from './platform/http/openapi.ts';
import { registerApiRoutes } from './routes.ts';
import { apiUrls } from './platform/http/addresses.ts';

function refusing(name: string): never {
  return new Proxy(
    {},
    {
      get(_target, property) {
        throw new Error(`${name}.${String(property)} was used while registering routes; use it inside the handler instead.`);
      },
    },
  ) as never;
}

export function describeApi(config = loadConfig({ ...process.env, LOG_LEVEL: 'silent' })): Record<string, unknown> {
  const deps: AppDeps = { config, db: refusing('db'), logger: refusing('logger'), clock: () => new Date(), services: refusing('services') };
  const registry = new ApiRegistry();
  registerApiRoutes(registry, deps);
  const urls = apiUrls(deps);
  return buildOpenApiDocument(registry, {
    baseUrl: config.baseUrl,
    apiHostUrl: urls.apiHost,
    version: config.version,
    documentationUrl: urls.documentation,
  });
}
