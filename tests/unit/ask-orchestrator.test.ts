// The answer's orchestration without a model: the built-in answer streams as it comes, and one that
// its time limit stops before any text ends with a sentence that says so, never with nothing.
import { describe, expect, it } from 'vitest';
import { OUT_OF_TIME, orchestrateAnswer } from '../../api/ask/orchestrator.ts';
import type { AnswerEvent, Answerer } from '../../api/ask/types.ts';
import { createLogger } from '../../api/platform/logger.ts';

const logger = createLogger('silent');
const request = { message: 'What is the 2026 conforming loan limit in Los Angeles County?', history: [] };

async function collect(fallback: Answerer, clientSignal: AbortSignal = new AbortController().signal): Promise<AnswerEvent[]> {
  const events: AnswerEvent[] = [];
  for await (const event of orchestrateAnswer(request, clientSignal, { primary: undefined, fallback, timeoutMs: 2_000, logger }))
    events.push(event);
  return events;
}

/** Says nothing, and ends when its signal aborts. */
const silent: Answerer = {
  name: 'silent',
  answer: (_request, signal) => ({
    [Symbol.asyncIterator]: () => ({
      next: () =>
        new Promise<IteratorResult<AnswerEvent>>((resolve) =>
          signal.addEventListener('abort', () => resolve({ done: true, value: undefined }), { once: true }),
        ),
    }),
  }),
};

describe('orchestrateAnswer without a model', () => {
  it('passes the built-in answer through as it comes', async () => {
    const answering: Answerer = {
      name: 'answering',
      async *answer() {
        yield { type: 'text', text: '$1,249,125' };
        yield { type: 'source', url: 'https://www.fhfa.gov/' };
      },
    };
    expect(await collect(answering)).toEqual([
      { type: 'text', text: '$1,249,125' },
      { type: 'source', url: 'https://www.fhfa.gov/' },
    ]);
  });

  it('says the answer ran out of time when the built-in answer is stopped before any text', async () => {
    expect(await collect(silent)).toEqual([{ type: 'text', text: OUT_OF_TIME }]);
  });

  it('adds nothing when the client went away', async () => {
    const client = new AbortController();
    setTimeout(() => client.abort(), 50);
    expect(await collect(silent, client.signal)).toEqual([]);
  });
});
