// The model answerer: a LangChain agent over any OpenAI-compatible endpoint, with the service's
// tools. Tokens are passed on as they arrive; every tool result's sources are collected and cited.
import { createAgent, createMiddleware, tool, ToolMessage, type StructuredTool } from 'langchain';
import { ChatOpenAI } from '@langchain/openai';
import type { ToolDeps } from '../../mcp/tool-kit.ts';
import { toErrorResponse } from '../../platform/errors.ts';
import type { Answerer, AnswerEvent, AskRequest } from '../types.ts';
import { askTools } from '../tools.ts';
import { SYSTEM_PROMPT } from './system-prompt.ts';
import { modelConfigured, type ModelSettings } from './configured.ts';
import type { DatasetVersion } from '../../platform/contract/versions.ts';

/** The text of a streamed message chunk (string content or text content blocks). */
function chunkText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content
      .map((block) =>
        block && typeof block === 'object' && (block as { type?: string }).type === 'text'
          ? String((block as { text?: unknown }).text ?? '')
          : '',
      )
      .join('');
  }
  return '';
}

/**
 * The agent reads the model's stream as fast as the endpoint sends, whatever the client's pace, so
 * its output is capped where it is produced: a runaway endpoint (or a client that stopped reading)
 * then costs at most this much memory. A long answer is a few thousand characters.
 */
export const MAX_ANSWER_CHARS = 32_000;

/**
 * What a tool call's arguments are checked against before the tool runs: any object. LangChain
 * checks a call against the JSON Schema the model is shown, which would refuse the lenient forms
 * the contracts accept ("Loan Types" for loan_types, "2025" for 2025); each tool parses its
 * arguments with its own zod schema instead (api/ask/tools.ts), with the MCP tools' messages.
 */
const ANY_ARGUMENTS = { type: 'object' as const, properties: {}, additionalProperties: true };

/** The model reads its settings and calls the tools with the tools' own deps. */
export function createModelAnswerer(deps: ToolDeps & { config: ModelSettings }): Answerer | undefined {
  if (!modelConfigured(deps)) return undefined;
  const model = new ChatOpenAI({
    model: deps.config.ASK_MODEL ?? 'gpt-4o-mini',
    apiKey: deps.config.OPENAI_API_KEY ?? 'unused',
    configuration: deps.config.OPENAI_BASE_URL ? { baseURL: deps.config.OPENAI_BASE_URL } : {},
    streaming: true,
    maxRetries: 0,
    temperature: 0,
    maxTokens: 2_000,
  });

  return {
    name: 'model',
    async *answer(request: AskRequest, signal: AbortSignal): AsyncGenerator<AnswerEvent> {
      const cited: string[] = [];
      const versions: DatasetVersion[] = [];
      const shown: StructuredTool[] = [];
      const runners = new Map<string, StructuredTool>();
      for (const definition of askTools()) {
        const run = async (args: Record<string, unknown>) => {
          const { structured, text } = await definition.run(args, { deps, caller: { kind: 'anonymous' } });
          // A source may have no page (escrow cites statutes by name); only addresses are cited.
          for (const source of (structured as { sources?: { url: string | null }[] }).sources ?? [])
            if (typeof source.url === 'string') cited.push(source.url);
          for (const version of (structured as { dataset_versions?: DatasetVersion[] }).dataset_versions ?? []) versions.push(version);
          return text;
        };
        const fields = { name: definition.name, description: definition.description };
        shown.push(tool(run, { ...fields, schema: definition.parameters }) as unknown as StructuredTool);
        runners.set(definition.name, tool(run, { ...fields, schema: ANY_ARGUMENTS }) as unknown as StructuredTool);
      }
      // The model sees each tool's exact schema; the call runs through the copy that leaves the
      // arguments to the tool's own parse. A tool's failure is told to the model in the service's
      // client-safe words, as it would be told to an MCP client.
      const contractArguments = createMiddleware({
        name: 'ContractArguments',
        wrapToolCall: async (request, handler) => {
          try {
            return await handler({ ...request, tool: runners.get(request.toolCall.name) ?? request.tool });
          } catch (error) {
            if (signal.aborted) throw error;
            const { body, expected } = toErrorResponse(error);
            if (!expected) deps.logger.error({ err: error, tool: request.toolCall.name }, 'ask tool failed');
            return new ToolMessage({
              content: body.error,
              tool_call_id: request.toolCall.id ?? '',
              name: request.toolCall.name,
              status: 'error',
            });
          }
        },
      });
      const agent = createAgent({ model, tools: shown, middleware: [contractArguments], systemPrompt: SYSTEM_PROMPT });
      const messages = [
        ...request.history.map((turn) => ({ role: turn.role, content: turn.content })),
        { role: 'user' as const, content: request.message },
      ];
      const tooLong = new AbortController();
      let produced = 0;
      const limit = {
        handleLLMNewToken(token: string) {
          produced += token.length;
          if (produced > MAX_ANSWER_CHARS && !tooLong.signal.aborted) tooLong.abort();
        },
      };
      const stream = await agent.stream(
        { messages },
        { streamMode: 'messages', signal: AbortSignal.any([signal, tooLong.signal]), recursionLimit: 12, callbacks: [limit] },
      );
      let citedSoFar = 0;
      let versionsSoFar = 0;
      try {
        for await (const item of stream as AsyncIterable<
          [{ content?: unknown; getType?: () => string; _getType?: () => string }, Record<string, unknown>]
        >) {
          while (citedSoFar < cited.length) yield { type: 'source', url: cited[citedSoFar++] ?? '' };
          while (versionsSoFar < versions.length) yield { type: 'version', version: versions[versionsSoFar++] as DatasetVersion };
          const [message] = item;
          const kind = message.getType?.() ?? message._getType?.();
          if (kind !== 'ai') continue; // tool messages are the tools' text, not the answer
          const text = chunkText(message.content);
          if (text) yield { type: 'text', text };
        }
      } catch (error) {
        if (!tooLong.signal.aborted || signal.aborted) throw error;
        yield { type: 'text', text: '\n\n(The answer was cut at its maximum length.)' };
      }
      while (citedSoFar < cited.length) yield { type: 'source', url: cited[citedSoFar++] ?? '' };
      while (versionsSoFar < versions.length) yield { type: 'version', version: versions[versionsSoFar++] as DatasetVersion };
    },
  };
}
