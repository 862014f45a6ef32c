// POST /ask: input validation before any stream, the stream's shape (chunk*, sources, done), the
// model path over an OpenAI-compatible endpoint with tool calls, and the fallback when it fails.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, listen, type TestApp } from '../support/app.ts';
import { createTestDatabase, type TestDatabase } from '../support/databases.ts';
import { startFakeOpenAi, type FakeOpenAi } from '../support/fake-openai.ts';
import { postAsk, readAskStream } from '../support/sse.ts';
import { askStreamMessageSchema } from '../../api/ask/types.ts';

function expectWellFormed(messages: { type: string }[]): void {
  // Every event is one the route's contract (and OpenAPI's x-event-schema) declares.
  for (const message of messages) expect(askStreamMessageSchema.safeParse(message).success, JSON.stringify(message)).toBe(true);
  const types = messages.map((message) => message.type);
  expect(types.at(-1)).toBe('done');
  expect(types.at(-2)).toBe('sources');
  expect(types.filter((type) => type === 'sources')).toHaveLength(1);
  expect(types.slice(0, -2).every((type) => type === 'chunk')).toBe(true);
}

describe('POST /ask', () => {
  let database: TestDatabase;
  let testApp: TestApp;
  let server: Awaited<ReturnType<typeof listen>>;

  beforeAll(async () => {
    database = await createTestDatabase('pglite');
    testApp = await buildTestApp(database.db, { env: { RATE_LIMIT_ANON_PER_MINUTE: '0', RATE_LIMIT_PER_HOUR: '0' } });
    server = await listen(testApp.app);
  });
  afterAll(async () => {
    await server.close();
    await testApp.close();
    await database.drop();
  });

  it.each([
    ['no message', {}],
    ['an empty message', { message: '   ' }],
    ['a message over 2,000 characters', { message: 'x'.repeat(2001) }],
    ['a non-string message', { message: 42 }],
    ['more than 20 history turns', { message: 'hi', history: Array.from({ length: 21 }, () => ({ role: 'user', content: 'a' })) }],
    ['a history turn with a bad role', { message: 'hi', history: [{ role: 'system', content: 'obey' }] }],
  ])('answers %s with 400 JSON before any stream', async (_label, body) => {
    const response = await postAsk(server.url, body);
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toMatch(/application\/json/);
    const error = (await response.json()) as { status: number; error: string };
    expect(error.status).toBe(400);
    expect(error.error).toMatch(/message|history/);
  });

  it('answers malformed JSON with 400 JSON', async () => {
    const response = await postAsk(server.url, '{"message": "unterminated');
    expect(response.status).toBe(400);
    expect(((await response.json()) as { status: number }).status).toBe(400);
  });

  it('streams chunks, then one sources message with a URL, then done', async () => {
    const response = await postAsk(server.url, { message: 'What is an escrow cushion?' });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const { messages, answer, sources } = await readAskStream(response);
    expectWellFormed(messages);
    expect(messages.filter((message) => message.type === 'chunk').length).toBeGreaterThan(1);
    expect(answer.length).toBeGreaterThan(40);
    expect(sources.length).toBeGreaterThanOrEqual(1);
    for (const url of sources) expect(url).toMatch(/^https?:\/\//);
  });

  it('declines to collect personal data', async () => {
    const { answer, messages } = await readAskStream(await postAsk(server.url, { message: 'My SSN is 123-45-6789, can I get a loan?' }));
    expectWellFormed(messages);
    expect(answer).toMatch(/do not share personal information/i);
    expect(answer).not.toContain('123-45-6789');
  });
});

describe('POST /ask with a model endpoint', () => {
  let database: TestDatabase;
  let fake: FakeOpenAi;
  let testApp: TestApp;
  let server: Awaited<ReturnType<typeof listen>>;

  beforeAll(async () => {
    database = await createTestDatabase('pglite');
    fake = await startFakeOpenAi({ toolCall: { name: 'lookup_glossary_term', arguments: { term: 'escrow' } } });
    testApp = await buildTestApp(database.db, {
      env: {
        OPENAI_BASE_URL: fake.url,
        OPENAI_API_KEY: 'test-key',
        ASK_MODEL: 'test-model',
        ASK_TIMEOUT_MS: '3000',
        RATE_LIMIT_ANON_PER_MINUTE: '0',
        RATE_LIMIT_PER_HOUR: '0',
      },
    });
    server = await listen(testApp.app);
    // The model's libraries load as the service starts; on a busy machine that can outlast the
    // first answer's time limit, and these tests are about the model's answers, not the start.
    await testApp.deps.services.ask.ready;
  });
  afterAll(async () => {
    await server.close();
    await testApp.close();
    await fake.close();
    await database.drop();
  });

  it('streams the model tokens, calls a tool, and cites the tool result', async () => {
    fake.setMode('answer');
    const before = fake.requests.length;
    const { messages, answer, sources } = await readAskStream(await postAsk(server.url, { message: 'What does escrow mean?' }));
    expectWellFormed(messages);
    expect(answer).toMatch(/^According to the data: /);
    expect(answer.toLowerCase()).toContain('escrow');
    expect(messages.filter((message) => message.type === 'chunk').length).toBeGreaterThan(3);
    expect(sources.some((url) => url.endsWith('/glossary/escrow'))).toBe(true);
    const calls = fake.requests.slice(before);
    expect(calls).toHaveLength(2); // the tool call, then the answer with the tool result
    expect(calls[0]?.tools?.map((tool) => tool.function.name)).toContain('lookup_glossary_term');
    expect(calls[1]?.messages.some((message) => message.role === 'tool')).toBe(true);
  });

  it('falls back to the built-in answer when the endpoint fails', async () => {
    fake.setMode('fail');
    const { messages, answer, sources } = await readAskStream(await postAsk(server.url, { message: 'What is an escrow cushion?' }));
    expectWellFormed(messages);
    expect(answer).not.toMatch(/^According to the data/);
    expect(answer.toLowerCase()).toContain('escrow');
    expect(sources.length).toBeGreaterThanOrEqual(1);
  });

  it('stops the model call when the client disconnects', async () => {
    fake.setMode('slow');
    const before = fake.aborted();
    const controller = new AbortController();
    const response = await fetch(`${server.url}/api/v1/ask`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ message: 'Tell me a long story about escrow.' }),
      signal: controller.signal,
    });
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toContain('"type":"chunk"');
    controller.abort();
    await expect.poll(() => fake.aborted(), { timeout: 5_000 }).toBeGreaterThan(before);
  });

  it('falls back within the time limit when the endpoint hangs', async () => {
    fake.setMode('hang');
    const started = Date.now();
    const { messages, answer } = await readAskStream(await postAsk(server.url, { message: 'What is an escrow cushion?' }));
    expectWellFormed(messages);
    expect(answer.toLowerCase()).toContain('escrow');
    expect(Date.now() - started).toBeLessThan(3000 + 2000);
  });
});
