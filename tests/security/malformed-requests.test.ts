// Malformed and abusive requests against the real server process: every refusal has a body a client
// can read (`{error, status}` on REST for 400/413/415/431, a JSON-RPC error on MCP for a body that is
// not JSON, not JSON-RPC, a batch past 2025-03-26 or params of the wrong shape), deep nesting is refused before it is
// walked, and guessing keys from one address ends in 429.
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServerProcess, type ServerProcess } from '../support/server-process.ts';
import { prefillDataDir } from '../support/pglite-templates.ts';

/** Sends bytes exactly as given and returns the status and the body. */
function rawHttp(url: string, request: string): Promise<{ status: number; head: string; body: string }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error('no answer'));
    }, 15_000);
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('close', () => {
      clearTimeout(timer);
      const [head = '', ...rest] = Buffer.concat(chunks).toString('utf8').split('\r\n\r\n');
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0), head, body: rest.join('\r\n\r\n') });
    });
    socket.on('error', () => undefined);
    socket.write(request);
  });
}

const MCP_HEADERS = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };
/** 5,000 arrays inside each other in 10 KB: walking it recursively overflowed the stack. */
const DEEP = `${'['.repeat(5_000)}${']'.repeat(5_000)}`;

describe('malformed requests to the server process', () => {
  let server: ServerProcess;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mds-malformed-'));

  beforeAll(async () => {
    await prefillDataDir(dataDir); // a migrated database: no initdb in the server's process
    server = await startServerProcess({ DATA_DIR: dataDir, RATE_LIMIT_ANON_PER_MINUTE: '0', RATE_LIMIT_PER_HOUR: '0' });
  }, 180_000);
  afterAll(async () => {
    await server?.stop('SIGKILL');
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const post = (target: string, body: string, headers: Record<string, string> = { 'Content-Type': 'application/json' }) =>
    fetch(`${server.url}${target}`, { method: 'POST', headers, body });
  const errorBody = async (response: Response) => ({
    status: response.status,
    body: (await response.json()) as { error: string; status: number },
  });

  it('answers 431 with an error body saying what to fix', async () => {
    const answer = await rawHttp(
      server.url,
      `GET /api/v1/rates HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Pad: ${'x'.repeat(40_000)}\r\nConnection: close\r\n\r\n`,
    );
    expect(answer.status).toBe(431);
    expect(answer.head).toMatch(/content-type: application\/json/i);
    expect(JSON.parse(answer.body)).toEqual({ error: expect.stringMatching(/headers or URL are too large/) as unknown, status: 431 });
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
  });

  it('answers 413 and 415 with error bodies on REST', async () => {
    const large = await errorBody(await post('/api/v1/ask', JSON.stringify({ message: 'x'.repeat(200_000) })));
    expect(large).toEqual({ status: 413, body: { error: expect.any(String) as unknown, status: 413 } });
    const text = await errorBody(await post('/api/v1/ask', 'What is escrow?', { 'Content-Type': 'text/plain' }));
    expect(text.status).toBe(415);
    expect(text.body).toEqual({ error: expect.stringMatching(/Content-Type: application\/json/) as unknown, status: 415 });
  });

  it('refuses deep nesting with a 400 before walking it, on REST and MCP', async () => {
    const rest = await errorBody(await post('/api/v1/ask', DEEP));
    expect(rest).toEqual({
      status: 400,
      body: { error: expect.stringMatching(/nests arrays and objects too deeply/) as unknown, status: 400 },
    });
    const asField = await errorBody(
      await post('/api/v1/ask', JSON.stringify({ message: JSON.parse(`${'['.repeat(1_000)}${']'.repeat(1_000)}`) as unknown })),
    );
    expect(asField.status).toBe(400);
    const mcp = await post(
      '/api/mcp',
      `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","arguments":{"a":${DEEP}}}}`,
      MCP_HEADERS,
    );
    expect(mcp.status).toBe(400);
    expect(await mcp.json()).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32600, message: expect.stringMatching(/too deeply/) as unknown },
    });
  });

  it('answers JSON-RPC errors on MCP: -32700 for bad JSON, -32600 for a non-message, a batch or a non-JSON body, -32602 for wrong params', async () => {
    const parse = await post('/api/mcp', '{"jsonrpc": ', MCP_HEADERS);
    expect(parse.status).toBe(400);
    expect(await parse.json()).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32700, message: expect.stringMatching(/^Parse error/) as unknown },
    });

    const notMessage = await post('/api/mcp', JSON.stringify({ hello: 'world' }), MCP_HEADERS);
    expect(notMessage.status).toBe(400);
    expect(((await notMessage.json()) as { error: { code: number } }).error.code).toBe(-32600);

    const call = (id: number) => ({
      jsonrpc: '2.0',
      id,
      method: 'tools/call',
      params: { name: 'get_glossary_term', arguments: { term: 'escrow' } },
    });
    // Batches are MCP 2025-03-26's alone: at a later version (named in MCP-Protocol-Version) one is refused.
    const batch = await post('/api/mcp', JSON.stringify(Array.from({ length: 99 }, (_, index) => call(index + 1))), {
      ...MCP_HEADERS,
      'MCP-Protocol-Version': '2025-11-25',
    });
    expect(batch.status).toBe(400);
    expect(await batch.json()).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32600, message: expect.stringMatching(/batches are part of MCP 2025-03-26 only/) as unknown },
    });

    const plain = await post('/api/mcp', 'tools/list', { ...MCP_HEADERS, 'Content-Type': 'text/plain' });
    expect(plain.status).toBe(415);
    expect(((await plain.json()) as { error: { code: number } }).error.code).toBe(-32600);

    const wrongParams = await post(
      '/api/mcp',
      JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 5 } }),
      MCP_HEADERS,
    );
    const answer = (await wrongParams.json()) as { id: number; error: { code: number; message: string } };
    expect(answer.id).toBe(7);
    expect(answer.error.code).toBe(-32602);
    expect(answer.error.message).toBe('Invalid params for tools/call: params.name: expected string, received number.');
  });

  it('answers 429 to an address that keeps sending invalid keys, without looking them up', async () => {
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 50; attempt += 1) {
      const response = await fetch(`${server.url}/api/v1/rates?api_key=mds_guess${attempt}`);
      statuses.push(response.status);
      await response.arrayBuffer();
    }
    expect(statuses.slice(0, 10).every((status) => status === 401)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
    const refused = await fetch(`${server.url}/api/v1/rates`, { headers: { 'X-API-Key': 'mds_another_guess' } });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await refused.json()).toEqual({ error: expect.stringMatching(/Too many invalid API keys/) as unknown, status: 429 });
    // MCP refuses the same address's keys too.
    const mcp = await post('/api/mcp', JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }), {
      ...MCP_HEADERS,
      'X-API-Key': 'mds_third_guess',
    });
    expect(mcp.status).toBe(429);
    // Without a key the address is still served.
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
  });
});
