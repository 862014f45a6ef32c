// POST /ask: a question in, a server-sent-event stream out (docs/ask.md): chunk*, one sources, done.
// A bad body is a 400 JSON before any stream starts; a failure mid-stream still ends with sources
// and done, so clients never see the connection just drop.
import { errorResponses } from '../platform/http/error-responses.ts';
import type { AppDeps } from '../deps.ts';
import { RESPONSE_WRITTEN, type ResponseWritten, apiRoutes } from '../platform/http/api-registry.ts';
import { routeContract } from '../platform/http/route-contract.ts';
import { askBodySchema, askStreamMessageSchema } from './types.ts';
import { openSseStream } from './sse.ts';
import type { DatasetVersion } from '../platform/contract/versions.ts';

/** Where a client can see what /ask can answer; cited when an answer used no other source. */
export function askFallbackSource(deps: AppDeps): string {
  return `${deps.config.baseUrl}/ai-info-page`;
}

const routes = {
  ask: routeContract({
    method: 'post',
    path: '/ask',
    operationId: 'ask',
    example: { body: { message: 'What is the conforming loan limit in Los Angeles County?' } },
    summary: 'Answer a mortgage question as a server-sent-event stream, with sources',
    description:
      'Streams `data: {"type":"chunk","text":…}` messages, then one `{"type":"sources","urls":[…]}`, then `{"type":"done"}`. ' +
      'When the answer read figures from synced datasets, the sources message also carries `dataset_versions` ' +
      '(`[{dataset, version, as_of}]`: the loads behind the figures, which `as_of` on the data endpoints can ask for again). ' +
      'Answers draw on live rates, loan limits, HMDA data, escrow rules, the economic calendar, the glossary and our articles, ' +
      'and cite them. General information only, not personalised financial or legal advice. Do not send personal data.',
    tags: ['Ask'],
    body: askBodySchema,
    cache: 'none',
    corsMethods: 'POST',
    responses: {
      200: {
        description: 'An event stream (text/event-stream); each `data:` line holds one JSON message.',
        contentType: 'text/event-stream',
        schema: askStreamMessageSchema,
      },
      ...errorResponses({ 400: 'Invalid body; nothing was streamed.', 413: 'The body is larger than /ask accepts.' }),
    },
  }),
};

export const askRoutes = apiRoutes(routes, (deps: AppDeps) => ({
  ask: async ({ body, res }): Promise<ResponseWritten> => {
    const stream = openSseStream(res);
    const sources = new Set<string>();
    // Each dataset version once, in the order the answer used them.
    const versions = new Map<string, DatasetVersion>();
    try {
      for await (const event of deps.services.ask.answer(body, stream.signal)) {
        if (stream.closed) break;
        if (event.type === 'source') sources.add(event.url);
        else if (event.type === 'version') versions.set(`${event.version.dataset}@${event.version.version}`, event.version);
        else if (event.text) await stream.send({ type: 'chunk', text: event.text });
      }
    } catch (error) {
      deps.logger.error({ err: error }, 'ask failed mid-stream');
      await stream.send({ type: 'chunk', text: '\n\nSorry, something went wrong while answering. Please try again.' });
    }
    if (sources.size === 0) sources.add(askFallbackSource(deps));
    await stream.send({
      type: 'sources',
      urls: [...sources],
      ...(versions.size > 0 ? { dataset_versions: [...versions.values()] } : {}),
    });
    await stream.send({ type: 'done' });
    stream.end();
    return RESPONSE_WRITTEN;
  },
}));
