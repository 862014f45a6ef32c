// A small OpenAI-compatible chat-completions server for tests, speaking the streaming wire format
// (SSE `chat.completion.chunk`s, tool calls included). Its script: when the conversation has no
// tool result yet, it calls the tool it was told to; once it has one, it streams an answer that
// quotes the tool result. Modes `fail` (HTTP 500) and `hang` (never answers) test the fallback;
// `slow` streams a long answer one word every 50 ms (cancellation tests count `aborted` streams).
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeOpenAiOptions {
  mode?: 'answer' | 'fail' | 'hang' | 'slow';
  /** The tool the model calls first, with its arguments. */
  toolCall?: { name: string; arguments: Record<string, unknown> };
}

export interface FakeOpenAi {
  url: string;
  requests: Array<{ messages: Array<{ role: string; content: unknown }>; tools?: Array<{ function: { name: string } }> }>;
  setMode(mode: FakeOpenAiOptions['mode']): void;
  /** Streams the client closed before they were finished. */
  aborted(): number;
  close(): Promise<void>;
}

const chunk = (delta: Record<string, unknown>, finishReason: string | null = null) =>
  `data: ${JSON.stringify({
    id: 'chatcmpl-test',
    object: 'chat.completion.chunk',
    created: 1_700_000_000,
    model: 'test-model',
    choices: [{ index: 0, delta, finish_reason: finishReason }],
  })}\n\n`;

export async function startFakeOpenAi(options: FakeOpenAiOptions = {}): Promise<FakeOpenAi> {
  let mode = options.mode ?? 'answer';
  const requests: FakeOpenAi['requests'] = [];
  const hanging = new Set<http.ServerResponse>();
  let abortedStreams = 0;
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (data: Buffer) => (raw += data.toString()));
    req.on('end', () => {
      const body = JSON.parse(raw || '{}') as FakeOpenAi['requests'][number];
      requests.push(body);
      if (mode === 'fail') {
        res.writeHead(500, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify({ error: { message: 'upstream exploded', type: 'server_error' } }));
        return;
      }
      if (mode === 'hang') {
        hanging.add(res);
        return;
      }
      res.writeHead(200, { 'Content-Type': 'text/event-stream' });
      if (mode === 'slow') {
        let sent = 0;
        res.write(chunk({ role: 'assistant', content: '' }));
        const timer = setInterval(() => {
          sent += 1;
          res.write(chunk({ content: `word${sent} ` }));
          if (sent === 200) {
            clearInterval(timer);
            res.write(chunk({}, 'stop'));
            res.end('data: [DONE]\n\n');
          }
        }, 50);
        res.on('close', () => {
          if (sent < 200) abortedStreams += 1;
          clearInterval(timer);
        });
        return;
      }
      const toolResult = body.messages.find((message) => message.role === 'tool');
      if (!toolResult && options.toolCall) {
        res.write(
          chunk({
            role: 'assistant',
            content: null,
            tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: options.toolCall.name, arguments: '' } }],
          }),
        );
        res.write(chunk({ tool_calls: [{ index: 0, function: { arguments: JSON.stringify(options.toolCall.arguments) } }] }));
        res.write(chunk({}, 'tool_calls'));
        res.end('data: [DONE]\n\n');
        return;
      }
      const quoted = typeof toolResult?.content === 'string' ? (toolResult.content.split('\n')[0] ?? '') : 'no tool result';
      const words = `According to the data: ${quoted}`.split(/(?<= )/);
      res.write(chunk({ role: 'assistant', content: '' }));
      for (const word of words) res.write(chunk({ content: word }));
      res.write(chunk({}, 'stop'));
      res.end('data: [DONE]\n\n');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    setMode(next) {
      mode = next ?? 'answer';
    },
    aborted: () => abortedStreams,
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of hanging) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
