// The contract between /ask and whatever composes the answer (the model agent or the built-in
// answerer): a stream of answer text fragments and the sources they rest on.
import { z } from 'zod';
import { DatasetVersionSchema, type DatasetVersion } from '../platform/contract/versions.ts';

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

/** One server-sent event of the /ask stream: `chunk`* then one `sources` then `done`. */
export const askStreamMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('chunk'), text: z.string().describe('The next fragment of the answer (Markdown).') }),
  z.object({
    type: z.literal('sources'),
    urls: z.array(z.string()).min(1).describe("Where the answer's figures and facts come from."),
    dataset_versions: z
      .array(DatasetVersionSchema)
      .optional()
      .describe(
        'The dataset versions the figures were read from, when the answer read any (`as_of` on the data endpoints asks for them again).',
      ),
  }),
  z.object({ type: z.literal('done') }),
]);

export type AskStreamMessage = z.output<typeof askStreamMessageSchema>;

/** A fragment of the answer, a source it rests on, or a dataset version its figures were read from. */
export type AnswerEvent = { type: 'text'; text: string } | { type: 'source'; url: string } | { type: 'version'; version: DatasetVersion };

export interface Answerer {
  readonly name: string;
  /** Yields answer fragments and sources; stops early when `signal` aborts. */
  answer(request: AskRequest, signal: AbortSignal): AsyncIterable<AnswerEvent>;
}
