// The cheapest API route a test can add (`extraApiRoutes`): GET /test-ping behind the same key
// checks and rate limits as every data route, answering `{pong: true}` without touching a service.
import { z } from 'zod';
import type { ApiRegistry } from '../../api/platform/http/api-registry.ts';

export function pingRoute(registry: ApiRegistry): void {
  registry.route(
    {
      method: 'get',
      path: '/test-ping',
      operationId: 'testPing',
      summary: 'A cheap limited route',
      tags: ['Test'],
      cache: 'none',
      responses: { 200: { description: 'pong', schema: z.object({ pong: z.boolean() }) } },
    },
    () => ({ pong: true }),
  );
}
