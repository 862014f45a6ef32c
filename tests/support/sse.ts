// Reads a /ask response with a real SSE parser and returns its messages in order.
import { createParser, type EventSourceMessage } from 'eventsource-parser';

export type AskMessage =
  | { type: 'chunk'; text: string }
  | { type: 'sources'; urls: string[]; dataset_versions?: { dataset: string; version: string; as_of: string | null }[] }
  | { type: 'done' };

export async function readAskStream(response: Response): Promise<{ messages: AskMessage[]; answer: string; sources: string[] }> {
  const messages: AskMessage[] = [];
  const parser = createParser({
    onEvent(event: EventSourceMessage) {
      messages.push(JSON.parse(event.data) as AskMessage);
    },
  });
  const decoder = new TextDecoder();
  for await (const part of response.body as unknown as AsyncIterable<Uint8Array>) parser.feed(decoder.decode(part, { stream: true }));
  const answer = messages.flatMap((message) => (message.type === 'chunk' ? [message.text] : [])).join('');
  const sources = messages.flatMap((message) => (message.type === 'sources' ? message.urls : []));
  return { messages, answer, sources };
}

export function postAsk(baseUrl: string, body: unknown): Promise<Response> {
  return fetch(`${baseUrl}/api/v1/ask`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}
