// The ask service: the model answerer when configured, the built-in answerer always, and the
// orchestration between them.
import type { AnswerEvent, AskRequest } from './types.ts';
import { orchestrateAnswer } from './orchestrator.ts';
import { createBuiltinAnswerer } from './builtin/answerer.ts';
import { createModelAnswerer } from './model/answerer.ts';
import type { BuiltinDeps } from './builtin/draft.ts';
import type { ToolDeps } from '../mcp/tool-kit.ts';

export interface AskService {
  answer(request: AskRequest, signal: AbortSignal): AsyncIterable<AnswerEvent>;
}

/** What answering reads: what the built-in composers read and what the model's tools call (with the logger). */
export type AskDeps = BuiltinDeps & ToolDeps;

export function createAskService(deps: AskDeps): AskService {
  const primary = createModelAnswerer(deps);
  const fallback = createBuiltinAnswerer(deps);
  return {
    answer: (request, signal) =>
      orchestrateAnswer(request, signal, { primary, fallback, timeoutMs: deps.config.ASK_TIMEOUT_MS, logger: deps.logger }),
  };
}
