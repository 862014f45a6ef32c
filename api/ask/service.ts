// The ask service: the model answerer when configured, the built-in answerer always, and the
// orchestration between them.
import type { Answerer, AnswerEvent, AskRequest } from './types.ts';
import { orchestrateAnswer } from './orchestrator.ts';
import { createBuiltinAnswerer } from './builtin/answerer.ts';
import { modelConfigured, type ModelSettings } from './model/configured.ts';
import type { BuiltinDeps } from './builtin/draft.ts';
import type { ToolDeps, ToolSettings } from '../mcp/tool-kit.ts';
import type { Config } from '../config.ts';
import type { Clock } from '../platform/clock.ts';
import type { Logger } from '../platform/logger.ts';

export interface AskService {
  answer(request: AskRequest, signal: AbortSignal): AsyncIterable<AnswerEvent>;
  /**
   * Settles once the answerers are loaded (the model's libraries, when a model is configured). An
   * answer asked before then waits for the load within its time limit, so a question asked in the
   * first second after a start on a busy machine may get the built-in answer.
   */
  readonly ready: Promise<void>;
}

/** The settings answering reads: the tools' (links, key advice), the model's, and the time an answer may take. */
export type AskSettings = ToolSettings & ModelSettings & Pick<Config, 'ASK_TIMEOUT_MS'>;

/** The services answering calls: those the built-in composers read and those the model's tools call. */
export type AskServices = BuiltinDeps['services'] & ToolDeps['services'];

/**
 * The model answerer, loaded only when a model is configured: LangChain and its OpenAI client take
 * about half a second to load, which a service that answers with the built-in answerer alone (the
 * default) should not spend at every start. When configured, the load starts with the service, off
 * the request path; a load that fails fails the model's answers, and the built-in answerer answers.
 */
function modelAnswererWhenConfigured(deps: ToolDeps & { config: ModelSettings }): { answerer?: Answerer; loaded: Promise<void> } {
  if (!modelConfigured(deps)) return { loaded: Promise.resolve() };
  const loading = import('./model/answerer.ts').then((module) => module.createModelAnswerer(deps));
  const loaded = loading.then(
    () => undefined,
    () => undefined, // reported by the answers that await it, not as an unhandled rejection
  );
  return {
    loaded,
    answerer: {
      name: 'model',
      async *answer(request, signal) {
        const answerer = await loading;
        if (answerer) yield* answerer.answer(request, signal);
      },
    },
  };
}

/**
 * Unlike the other services' flat `createX({ the fields it reads })`, ask takes its settings and
 * services as groups (`config`, `services`): it reads only `ASK_TIMEOUT_MS` itself and hands the rest
 * on whole as the context its answerers run in, which for the model's tool calls is the MCP tools' own context
 * (`ToolDeps`: config, logger, services) and for the built-in answerer `BuiltinDeps`; flat fields
 * would only be gathered back into those groups here.
 */
export function createAskService({
  config,
  clock,
  logger,
  services,
}: {
  config: AskSettings;
  clock: Clock;
  logger: Logger;
  services: AskServices;
}): AskService {
  const { answerer: primary, loaded } = modelAnswererWhenConfigured({ config, logger, services });
  const fallback = createBuiltinAnswerer({ config, clock, services });
  return {
    ready: loaded,
    answer: (request, signal) => orchestrateAnswer(request, signal, { primary, fallback, timeoutMs: config.ASK_TIMEOUT_MS, logger }),
  };
}
