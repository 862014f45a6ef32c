// The ask service: the model answerer when configured, the built-in answerer always, and the
// orchestration between them.
import type { Answerer, AnswerEvent, AskRequest } from './types.ts';
import { orchestrateAnswer } from './orchestrator.ts';
import { createBuiltinAnswerer } from './builtin/answerer.ts';
import { modelConfigured } from './model/configured.ts';
import type { BuiltinDeps } from './builtin/draft.ts';
import type { ToolDeps } from '../mcp/tool-kit.ts';

export interface AskService {
  answer(request: AskRequest, signal: AbortSignal): AsyncIterable<AnswerEvent>;
}

/** What answering reads: what the built-in composers read and what the model's tools call (with the logger). */
export type AskDeps = BuiltinDeps & ToolDeps;

/**
 * The model answerer, loaded only when a model is configured: LangChain and its OpenAI client take
 * about half a second to load, which a service that answers with the built-in answerer alone (the
 * default) should not spend at every start. When configured, the load starts with the service, off
 * the request path; a load that fails fails the model's answers, and the built-in answerer answers.
 */
function modelAnswererWhenConfigured(deps: ToolDeps): Answerer | undefined {
  if (!modelConfigured(deps)) return undefined;
  const loading = import('./model/answerer.ts').then((module) => module.createModelAnswerer(deps));
  loading.catch(() => undefined); // reported by the answers that await it, not as an unhandled rejection
  return {
    name: 'model',
    async *answer(request, signal) {
      const answerer = await loading;
      if (answerer) yield* answerer.answer(request, signal);
    },
  };
}

export function createAskService(deps: AskDeps): AskService {
  const primary = modelAnswererWhenConfigured(deps);
  const fallback = createBuiltinAnswerer(deps);
  return {
    answer: (request, signal) =>
      orchestrateAnswer(request, signal, { primary, fallback, timeoutMs: deps.config.ASK_TIMEOUT_MS, logger: deps.logger }),
  };
}
