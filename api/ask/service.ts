// The ask service: the model answerer when configured, the built-in answerer always, and the
// orchestration between them.
import type { AppDeps } from '../deps.ts';
import type { AnswerEvent, AskRequest } from './types.ts';
import { orchestrateAnswer } from './orchestrator.ts';
import { createBuiltinAnswerer } from './builtin/answerer.ts';
import { createModelAnswerer } from './model/answerer.ts';

export interface AskService {
  answer(request: AskRequest, signal: AbortSignal): AsyncIterable<AnswerEvent>;
}

export function createAskService(deps: AppDeps): AskService {
  const primary = createModelAnswerer(deps);
  const fallback = createBuiltinAnswerer(deps);
  return {
    answer: (request, signal) =>
      orchestrateAnswer(request, signal, { primary, fallback, timeoutMs: deps.config.ASK_TIMEOUT_MS, logger: deps.logger }),
  };
}
