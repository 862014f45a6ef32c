// The contract between /ask and whatever composes the answer (the model agent or the built-in
// answerer): a stream of answer text fragments and the sources they rest on.
import { z } from 'zod';
import type { DatasetVersion } from '../platform/contract/versions.ts';

export const askBodySchema = z.object({
  message: z.string().trim().min(1, 'must not be empty').max(2000, 'must be at most 2,000 characters').describe('The question.'),
  history: z
    .array(
      z.object({
        role: z.enum(['user', 'assistant']).describe('Who said it.'),
        content: z.string().max(4000, 'each history message must be at most 4,000 characters').describe('What was said.'),
      }),
    )
    .max(20, 'at most 20 earlier messages')
    .default([])
    .describe('Earlier turns of the conversation, oldest first (at most 20).'),
});

export type AskRequest = z.output<typeof askBodySchema>;

/** A fragment of the answer, a source it rests on, or a dataset version its figures were read from. */
export type AnswerEvent = { type: 'text'; text: string } | { type: 'source'; url: string } | { type: 'version'; version: DatasetVersion };

export interface Answerer {
  readonly name: string;
  /** Yields answer fragments and sources; stops early when `signal` aborts. */
  answer(request: AskRequest, signal: AbortSignal): AsyncIterable<AnswerEvent>;
}
