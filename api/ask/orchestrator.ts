// Runs one answer: the model answerer when one is configured, falling back to the built-in
// answerer when the model fails or stays silent past its deadline, all within the request's time
// limit. Whatever happens, the caller gets text, the sources used, and an end.
import type { Logger } from '../platform/logger.ts';
import type { Answerer, AnswerEvent, AskRequest } from './types.ts';

export interface OrchestratorOptions {
  primary: Answerer | undefined;
  fallback: Answerer;
  /** Whole-request limit (ASK_TIMEOUT_MS). */
  timeoutMs: number;
  logger: Logger;
}

const FIRST_EVENT_SHARE = 0.5;

/** Yields `events` until `signal` aborts; the abort ends the iteration quietly. */
async function* untilAborted<T>(events: AsyncIterable<T>, signal: AbortSignal): AsyncGenerator<T> {
  const iterator = events[Symbol.asyncIterator]();
  const aborted = new Promise<'aborted'>((resolve) => {
    if (signal.aborted) resolve('aborted');
    signal.addEventListener('abort', () => resolve('aborted'), { once: true });
  });
  try {
    for (;;) {
      const next = await Promise.race([iterator.next(), aborted]);
      if (next === 'aborted' || next.done) return;
      yield next.value;
    }
  } finally {
    void iterator.return?.();
  }
}

/**
 * Yields the answer's events. `clientSignal` aborts when the client disconnects: the model call is
 * stopped with it.
 */
export async function* orchestrateAnswer(
  request: AskRequest,
  clientSignal: AbortSignal,
  options: OrchestratorOptions,
): AsyncGenerator<AnswerEvent> {
  const deadline = AbortSignal.any([clientSignal, AbortSignal.timeout(options.timeoutMs)]);
  if (options.primary) {
    const primaryController = new AbortController();
    const primarySignal = AbortSignal.any([deadline, primaryController.signal]);
    // The model must say something within half the budget, leaving the other half for the fallback.
    const firstEventTimer = setTimeout(() => primaryController.abort(), options.timeoutMs * FIRST_EVENT_SHARE);
    let emittedText = false;
    try {
      for await (const event of untilAborted(options.primary.answer(request, primarySignal), primarySignal)) {
        clearTimeout(firstEventTimer);
        if (event.type === 'text') emittedText = true;
        yield event;
      }
      clearTimeout(firstEventTimer);
      if (emittedText) return;
      if (clientSignal.aborted) return;
      options.logger.warn({ answerer: options.primary.name }, 'model gave no answer in time; using the built-in answerer');
    } catch (error) {
      clearTimeout(firstEventTimer);
      if (clientSignal.aborted) return;
      options.logger.warn({ err: (error as Error).message, answerer: options.primary.name }, 'model answer failed');
      if (emittedText) {
        yield {
          type: 'text',
          text: '\n\n(The answer was cut short because the language model stopped responding. The figures above come from the sources listed.)',
        };
        return;
      }
    } finally {
      primaryController.abort();
    }
  }
  const fallbackMs = Math.max(1_000, options.timeoutMs * FIRST_EVENT_SHARE);
  const fallbackSignal = AbortSignal.any([clientSignal, AbortSignal.timeout(fallbackMs)]);
  let answered = false;
  for await (const event of untilAborted(options.fallback.answer(request, fallbackSignal), fallbackSignal)) {
    if (event.type === 'text') answered = true;
    yield event;
  }
  // Stopped by its time limit before it said anything (a machine under heavy load): an empty answer
  // would read as one with nothing to say.
  if (!answered && !clientSignal.aborted) {
    options.logger.warn({ answerer: options.fallback.name, ms: fallbackMs }, 'built-in answer ran out of time before any text');
    yield { type: 'text', text: OUT_OF_TIME };
  }
}

export const OUT_OF_TIME =
  'Sorry, this answer ran out of time before it could be written: the service is busier than usual. Please ask again in a moment.';
