// The view of /docs/api (see site/views/format.ts for why views exist): every operation of the same
// route table that validates requests and produces /api/v1/openapi.json, with an example request
// built from its parameters' examples and this server's real answer to it (GETs only).
import { buildConfig } from './addresses.ts';
import { exampleRequest, shownBody, type Operation } from '../lib/api-examples.ts';
import type { PageLocals } from '../../api/publications/render-capture.ts';
import { describeApi } from '../../api/api-description.ts';
import { isoDay } from '../../api/platform/dates.ts';

/** The id of an operation's section: "get-rates-state". */
export const anchor = (method: string, path: string): string =>
  `${method}-${path.replace(/[^a-z0-9]+/gi, '-').replace(/^-|-$/g, '')}`;

type Answer = { status: number; text: string } | undefined;

export async function apiDocsView({ deps, callApi }: Partial<Pick<PageLocals, 'deps' | 'callApi'>>) {
  const config = deps?.config ?? buildConfig();
  const document = describeApi(config);
  const paths = document.paths as Record<string, Record<string, Operation>>;
  const operations = Object.entries(paths).flatMap(([path, byMethod]) =>
    Object.entries(byMethod).map(([method, operation]) => ({
      path,
      method,
      operation,
      request: exampleRequest(path, method, operation),
    })),
  );
  // GETs are run against this server; POSTs (a question's stream, SQL that needs a key) are shown as requests only.
  const answers = await Promise.all(
    operations.map(async ({ path, method, request }): Promise<Answer> => {
      if (!request || method !== 'get' || !callApi || path === '/openapi.json') return undefined;
      try {
        const answer = await callApi(request.url);
        return { status: answer.status, text: shownBody(answer.contentType, answer.body) };
      } catch {
        return undefined;
      }
    }),
  );
  return {
    apiBase: `${config.baseUrl}/api/v1`,
    today: isoDay(deps ? deps.clock() : new Date()),
    operations,
    answers,
  };
}
