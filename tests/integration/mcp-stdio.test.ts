// `npm run mcp:stdio` through a real MCP client over stdio, at both protocol eras: on its own embedded
// database, relayed to a running server that holds the database (same answers as over HTTP, the key
// passed on, a 2026-07-28 subscription stream relayed as it comes), and one
// sentence on stderr, exit code 1, when the database is held by a process that serves nothing.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { Client as ModernClient } from '@modelcontextprotocol/client';
import { StdioClientTransport as ModernStdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { PROJECT_ROOT } from '../../api/config.ts';
import { localServerFile } from '../../api/mcp/local-server.ts';
import { MCP_TOOL_NAMES } from '../../api/mcp/tool-names.ts';
import { connectMcp } from '../support/mcp-client.ts';
import { prefillDataDir } from '../support/pglite-templates.ts';
import { startServerProcess, type ServerProcess } from '../support/server-process.ts';

const STDIO_SCRIPT = path.join(PROJECT_ROOT, 'scripts', 'mcp-stdio.ts');
/** Every tool of the registry, as over HTTP (tests/integration/mcp-tools.test.ts holds the documented list). */
const TOOL_COUNT = MCP_TOOL_NAMES.length;

function stdioEnv(env: Record<string, string>): Record<string, string> {
  const inherited = Object.fromEntries(Object.entries(process.env).filter((entry): entry is [string, string] => entry[1] !== undefined));
  // Under vitest, process.env carries Vite's BASE_URL ('/'), which is no URL.
  return { ...inherited, BASE_URL: 'http://localhost:3000', LOG_LEVEL: 'warn', SYNC_ON_START: 'false', SYNC_DAILY: 'false', ...env };
}

/** A real MCP client that launches the stdio server as a desktop client does; stderr is kept. */
async function connectStdio(env: Record<string, string>): Promise<{ client: Client; stderr: () => string }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [STDIO_SCRIPT],
    cwd: PROJECT_ROOT,
    env: stdioEnv(env),
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const client = new Client({ name: 'mds-stdio-tests', version: '1.0.0' });
  await client.connect(transport);
  return { client, stderr: () => stderr };
}

/** The v2 SDK's client over stdio, pinned to protocol 2026-07-28. */
async function connectModernStdio(env: Record<string, string>): Promise<ModernClient> {
  const transport = new ModernStdioClientTransport({
    command: process.execPath,
    args: [STDIO_SCRIPT],
    cwd: PROJECT_ROOT,
    env: stdioEnv(env),
  });
  const client = new ModernClient({ name: 'mds-stdio-tests', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  await client.connect(transport);
  return client;
}

function runStdio(env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [STDIO_SCRIPT],
      { cwd: PROJECT_ROOT, env: stdioEnv(env), timeout: 60_000 },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
    child.stdin?.end();
  });
}

describe('MCP over stdio', () => {
  const folders: string[] = [];
  const children: ChildProcess[] = [];
  const tempDataDir = () => {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'mds-stdio-'));
    folders.push(folder);
    return folder;
  };
  /** A data folder whose embedded database a process that serves nothing (a `sleep`) holds. */
  const heldDataDir = () => {
    const dataDir = tempDataDir();
    const holder = spawn('sleep', ['60'], { stdio: 'ignore' });
    children.push(holder);
    fs.mkdirSync(path.join(dataDir, 'pglite'), { recursive: true });
    fs.writeFileSync(path.join(dataDir, 'pglite', 'mds.pid'), String(holder.pid));
    return { dataDir, holder };
  };
  afterAll(() => {
    for (const child of children) child.kill('SIGKILL');
    for (const folder of folders) fs.rmSync(folder, { recursive: true, force: true });
  });

  it('serves the tools from its own embedded database when no server holds it', async () => {
    // A migrated database already in the folder: this is about stdio, not a first start.
    const { client, stderr } = await connectStdio({ DATA_DIR: await prefillDataDir(tempDataDir()) });
    try {
      expect((await client.listTools()).tools).toHaveLength(TOOL_COUNT);
      const result = await client.callTool({ name: 'lookup_glossary_term', arguments: { term: 'PMI' } });
      expect(String((result.structuredContent as { term: string }).term)).toMatch(/private mortgage insurance/i);
    } finally {
      await client.close();
    }
    expect(stderr()).not.toContain('relaying');
  }, 120_000);

  it('speaks protocol 2026-07-28 too, offering no subscriptions: it hears of no sync but its own', async () => {
    const client = await connectModernStdio({ DATA_DIR: await prefillDataDir(tempDataDir()) });
    try {
      expect(client.getProtocolEra()).toBe('modern');
      expect(client.getServerCapabilities()?.resources).toEqual({ listChanged: false });
      const result = await client.callTool({ name: 'lookup_glossary_term', arguments: { term: 'PMI' } });
      expect(String((result.structuredContent as { term: string }).term)).toMatch(/private mortgage insurance/i);
    } finally {
      await client.close();
    }
  }, 120_000);

  describe('beside a running server that holds the embedded database', () => {
    let server: ServerProcess;
    let dataDir: string;

    afterAll(async () => {
      await server?.stop();
    });

    it('relays to the server and gets the same answers as over HTTP', async () => {
      dataDir = await prefillDataDir(tempDataDir());
      server = await startServerProcess({ DATA_DIR: dataDir, RATE_LIMIT_ANON_PER_MINUTE: '0' });
      const recorded = JSON.parse(fs.readFileSync(localServerFile(dataDir), 'utf8')) as { url: string };
      expect(recorded.url).toBe(server.url);

      const { client, stderr } = await connectStdio({ DATA_DIR: dataDir });
      const overHttp = await connectMcp(server.url);
      try {
        const tools = (await client.listTools()).tools.map((tool) => tool.name).sort();
        expect(tools).toEqual((await overHttp.listTools()).tools.map((tool) => tool.name).sort());
        expect(tools).toHaveLength(TOOL_COUNT);
        const args = { name: 'lookup_glossary_term', arguments: { term: 'escrow cushion' } };
        const relayed = await client.callTool(args);
        expect(relayed.isError).toBeFalsy();
        expect(relayed.structuredContent).toEqual((await overHttp.callTool(args)).structuredContent);
        const bad = await client.callTool({ name: 'get_statistics', arguments: { category: 'foo' } });
        expect(bad.isError).toBe(true);
      } finally {
        await client.close();
        await overHttp.close();
      }
      expect(stderr()).toContain('relaying MCP to it');
      expect(stderr()).not.toMatch(/\n\s+at /);
    }, 120_000);

    it('relays protocol 2026-07-28, a subscription stream included', async () => {
      const client = await connectModernStdio({ DATA_DIR: dataDir });
      try {
        expect(client.getServerCapabilities()?.resources).toMatchObject({ subscribe: true });
        expect((await client.listTools()).tools).toHaveLength(TOOL_COUNT);
        const subscription = await client.listen({ resourceSubscriptions: ['mds://series/pmms/30-year'] });
        expect(subscription.honoredFilter).toEqual({ resourceSubscriptions: ['mds://series/pmms/30-year'] });
        await subscription.close();
        expect(await subscription.closed).toBe('local');
        const result = await client.callTool({ name: 'lookup_glossary_term', arguments: { term: 'escrow cushion' } });
        expect(result.isError).toBeFalsy();
      } finally {
        await client.close();
      }
    }, 120_000);

    it('passes MDS_API_KEY on, so the server refuses an unknown key with its own message', async () => {
      const refused = connectStdio({ DATA_DIR: dataDir, MDS_API_KEY: 'mds_Ab12Cd34_00000000000000000000000000000000' });
      await expect(refused).rejects.toThrow(/key/i);
    }, 60_000);
  });

  it('says in one sentence, without a stack, that a process holding the database serves nothing', async () => {
    const { dataDir, holder } = heldDataDir();

    const unrecorded = await runStdio({ DATA_DIR: dataDir });
    expect(unrecorded.code).toBe(1);
    expect(unrecorded.stdout).toBe('');
    expect(unrecorded.stderr.trim().split('\n')).toEqual([
      `mcp:stdio could not start: The embedded database in ${dataDir} is in use by process ${holder.pid}, which recorded no server address to relay to: stop that process, or set DATABASE_URL so both can use PostgreSQL.`,
    ]);

    // An address whose server does not answer (port 9 on loopback: nothing listens there).
    fs.mkdirSync(path.dirname(localServerFile(dataDir)), { recursive: true });
    fs.writeFileSync(localServerFile(dataDir), JSON.stringify({ pid: holder.pid, url: 'http://127.0.0.1:9' }));
    const silent = await runStdio({ DATA_DIR: dataDir });
    expect(silent.code).toBe(1);
    expect(silent.stderr.trim().split('\n')).toHaveLength(1);
    expect(silent.stderr).toContain(`in use by process ${holder.pid}, whose server at http://127.0.0.1:9 does not answer`);
  }, 120_000);

  it('waits for a server that is still starting and takes the address it records once it listens', async () => {
    const { dataDir, holder } = heldDataDir();
    // What a server writes as soon as it holds the folder: its pid, no address yet.
    fs.mkdirSync(path.dirname(localServerFile(dataDir)), { recursive: true });
    fs.writeFileSync(localServerFile(dataDir), JSON.stringify({ pid: holder.pid }));

    const run = runStdio({ DATA_DIR: dataDir });
    // Later than a holder that is no server is given (a second look after 0.25 s): the stdio process
    // only sees this address if it waited for the starting server.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    fs.writeFileSync(localServerFile(dataDir), JSON.stringify({ pid: holder.pid, url: 'http://127.0.0.1:9' }));
    const result = await run;
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`in use by process ${holder.pid}, whose server at http://127.0.0.1:9 does not answer`);
  }, 120_000);
});
