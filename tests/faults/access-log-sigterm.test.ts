// The access log is buffered (api/platform/logger.ts: pino's asynchronous destination), so a line
// written just before the process ends could be lost. SIGTERM in the middle of a burst of requests:
// every response a client received has its access-log line, with the fields ops read (request id,
// method, URL, status, duration), and the process exits 0 after its last line.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServerProcess, type ServerProcess } from '../support/server-process.ts';
import { prefillDataDir } from '../support/pglite-templates.ts';
import { ensureSiteBuiltForTests } from '../support/site-build.ts';
import { waitForQuiet } from '../../scripts/bench/service.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface AccessLine {
  msg: string;
  requestId?: string;
  method?: string;
  url?: string;
  status?: number;
  durationMs?: number;
}

describe('access log under SIGTERM', () => {
  let server: ServerProcess;
  let output = '';
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mds-fault-log-'));

  beforeAll(async () => {
    await ensureSiteBuiltForTests();
    await prefillDataDir(dataDir); // a migrated database: no initdb in the server's process
    // The default configuration: LOG_LEVEL info, one line per request.
    server = await startServerProcess({
      DATA_DIR: dataDir,
      LOG_LEVEL: 'info',
      RATE_LIMIT_ANON_PER_MINUTE: '0',
      RATE_LIMIT_KEY_PER_MINUTE: '0',
      RATE_LIMIT_PER_HOUR: '0',
    });
    // Everything written from here on (the helper keeps only a tail).
    server.child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    // Start-up work (the search-index refresh) would otherwise take the CPU the burst needs.
    await waitForQuiet(server.child.pid ?? 0, 30_000);
  });
  afterAll(async () => {
    await server?.stop('SIGKILL');
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('writes a line for every response sent, then exits 0', async () => {
    const targets = ['/robots.txt', '/api/v1/openapi.json', '/glossary/escrow', '/api/v1/no-such-resource'];
    const received = new Map<string, { target: string; status: number }>();
    let running = true;
    let next = 0;
    const loops = Array.from({ length: 40 }, async () => {
      while (running) {
        const id = `burst-${(next += 1)}`;
        const target = targets[next % targets.length]!;
        try {
          const response = await fetch(`${server.url}${target}`, { headers: { 'X-Request-Id': id } });
          await response.arrayBuffer();
          received.set(id, { target, status: response.status });
        } catch {
          return; // refused or reset at the door once the server is closing
        }
      }
    });
    // Mid-load: well past the buffer's size (a line is ~200 bytes, the buffer 4 KiB).
    const deadline = Date.now() + 30_000;
    while (received.size < 600 && Date.now() < deadline) await sleep(50);
    const beforeTerm = received.size;
    server.child.kill('SIGTERM');
    await sleep(500);
    running = false;
    await Promise.all(loops);
    expect(await server.exited).toBe(0);

    const lines = output
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as AccessLine);
    const logged = new Map(lines.filter((line) => line.msg === 'request').map((line) => [line.requestId, line]));
    expect(beforeTerm).toBeGreaterThanOrEqual(600);
    const missing = [...received.keys()].filter((id) => !logged.has(id));
    expect(missing).toEqual([]);
    for (const [id, { target, status }] of received) {
      const line = logged.get(id)!;
      expect(line, id).toMatchObject({ method: 'GET', url: target, status });
      expect(typeof line.durationMs).toBe('number');
    }
    expect(lines.at(-1)?.msg).toBe('shut down');
  }, 120_000);
});
