// The OpenAPI document without a running server, for the site's build (the API docs page) and for
// brand-facts/llms.txt: rendered from the route contracts, which are data (api/routes.ts), so no
// service, database or handler is needed.
import { loadConfig } from './config.ts';
import { buildOpenApiDocument } from './platform/http/openapi.ts';
import { apiRouteContracts } from './routes.ts';
import { apiUrls } from './platform/http/addresses.ts';

export function describeApi(config = loadConfig({ ...process.env, LOG_LEVEL: 'silent' })): Record<string, unknown> {
  const urls = apiUrls({ config });
  return buildOpenApiDocument(apiRouteContracts(config), {
    baseUrl: config.baseUrl,
    apiHostUrl: urls.apiHost,
    version: config.version,
    documentationUrl: urls.documentation,
  });
}
