// The model endpoint of /ask failing in the ways a remote service does, under concurrent questions:
// hanging before its first byte, or going silent mid-answer. Every stream still ends (sources, done)
// within ASK_TIMEOUT_MS, and the service closes its connections to the dead endpoint.
// (tests/integration/ask-stream.test.ts covers one hanging request; this is the loaded version.)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../support/databases.ts';
import { buildTestApp, listen, type TestApp } from '../support/app.ts';
import { postAsk, readAskStream } from '../support/sse.ts';
import { startMisbehavingModel, type ModelBehaviour, type MisbehavingModel } from './model-server.ts';

const TIMEOUT_MS = 2_000;
const CONCURRENT = 8;
// Slack for a loaded 2-core machine: the bound proves "within the timeout", not a latency target.
const SLACK_MS = 2_500;

describe.each(['hang', 'stall'] as const)('POST /ask while the model endpoint %s', (behaviour: ModelBehaviour) => {
  let database: TestDatabase;
  let model: MisbehavingModel;
  let testApp: TestApp;
  let server: Awaited<ReturnType<typeof listen>>;

  beforeAll(async () => {
    database = await createTestDatabase('pglite');
    model = await startMisbehavingModel(behaviour);
    testApp = await buildTestApp(database.db, {
      env: { OPENAI_BASE_URL: model.url, OPENAI_API_KEY: 'test-key', ASK_MODEL: 'fault-model', ASK_TIMEOUT_MS: String(TIMEOUT_MS) },
    });
    server = await listen(testApp.app);
    await testApp.deps.services.ask.ready; // the model's faults are under test, not the start
  });
  afterAll(async () => {
    await server.close();
    await testApp.close();
    await model.close();
    await database.drop();
  });

  it(`ends every one of ${CONCURRENT} concurrent answers within the time limit, with sources and done`, async () => {
    const started = Date.now();
    const results = await Promise.all(
      Array.from({ length: CONCURRENT }, async () => {
        const response = await postAsk(server.url, { message: 'What is an escrow cushion?' });
        expect(response.status).toBe(200);
        const read = await readAskStream(response);
        return { ...read, ms: Date.now() - started };
      }),
    );
    for (const { messages, answer, sources, ms } of results) {
      expect(ms).toBeLessThan(TIMEOUT_MS + SLACK_MS);
      expect(messages.at(-1)).toEqual({ type: 'done' });
      expect(messages.at(-2)?.type).toBe('sources');
      expect(sources.length).toBeGreaterThan(0);
      expect(answer.toLowerCase()).toContain('escrow');
      expect(answer).not.toMatch(/\.ts:\d|at [\w.]+ \(|AbortError|ECONN/);
    }
    expect(model.received()).toBeGreaterThanOrEqual(CONCURRENT);
    // The service hung up on the silent endpoint: nothing is left open towards it.
    const deadline = Date.now() + 3_000;
    while (model.closedByService() < model.received() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(model.closedByService()).toBe(model.received());
  });
});
