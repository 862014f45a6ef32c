// The real entry point: starts with no database server (PGlite under DATA_DIR) or against
// PostgreSQL, and on SIGTERM lets an in-flight request finish before exiting 0. The first test is
// the first start: an empty data folder, initdb and the migrations in the server's own process; the
// other embedded-database tests start from a migrated folder (tests/support/pglite-templates.ts).
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createScratchPostgres } from '../support/databases.ts';
import { prefillDataDir } from '../support/pglite-templates.ts';
import { startServerProcess, type ServerProcess } from '../support/server-process.ts';
import { waitForQuiet } from '../../scripts/bench/service.ts';
import { ALLOCATOR_SETTINGS, MAIN_SEMI_SPACE_MB } from '../../api/platform/memory/allocator-settings.ts';

const started: ServerProcess[] = [];
afterAll(async () => {
  await Promise.all(started.map((server) => server.stop('SIGKILL')));
});

/** Sends the headers and half of a JSON body, so the request stays in flight until `finish`. */
function halfSentRequest(url: string): { finish: () => void; response: Promise<string> } {
  const { hostname, port } = new URL(url);
  const socket = net.connect(Number(port), hostname);
  const body = '{"message":"hello"}';
  socket.write(
    `POST /api/v1/healthz HTTP/1.1\r\nHost: ${hostname}:${port}\r\nContent-Type: application/json\r\n` +
      `Content-Length: ${body.length}\r\nConnection: close\r\n\r\n${body.slice(0, 5)}`,
  );
  let received = '';
  socket.on('data', (chunk) => (received += chunk.toString()));
  const response = new Promise<string>((resolve, reject) => {
    socket.on('end', () => resolve(received));
    socket.on('error', reject);
  });
  return { finish: () => socket.write(body.slice(5)), response };
}

describe.each([
  ['embedded PGlite', 'pglite'],
  ['PostgreSQL', 'postgres'],
] as const)('the server on %s', (_label, kind) => {
  it('serves /healthz, then on SIGTERM completes the in-flight request and exits 0', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mds-lifecycle-'));
    const scratch = kind === 'postgres' ? await createScratchPostgres() : undefined;
    try {
      const server = await startServerProcess({ DATA_DIR: dataDir, ...(scratch ? { DATABASE_URL: scratch.url } : {}) });
      started.push(server);
      const health = await fetch(`${server.url}/healthz`);
      expect(health.status).toBe(200);
      expect(((await health.json()) as { database: string }).database).toBe(kind);
      // A first start: the empty database (a new cluster, for PGlite) is migrated.
      expect(server.output()).toContain('migrations applied');
      // It ran itself again in place with its memory settings (api/platform/memory/allocator-settings.ts).
      if (process.platform === 'linux') {
        const pid = server.child.pid ?? 0;
        expect(fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')).toContain(`--max-semi-space-size=${MAIN_SEMI_SPACE_MB}`);
        const environment = fs.readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');
        for (const [name, value] of Object.entries(ALLOCATOR_SETTINGS)) expect(environment).toContain(`${name}=${value}`);
      }

      const inFlight = halfSentRequest(server.url);
      await new Promise((resolve) => setTimeout(resolve, 200));
      const stoppedAt = Date.now();
      server.child.kill('SIGTERM');
      await new Promise((resolve) => setTimeout(resolve, 300));
      inFlight.finish();
      // The request completes (405: healthz is GET-only) rather than being cut off.
      expect(await inFlight.response).toMatch(/^HTTP\/1\.1 405/);
      expect(await server.exited).toBe(0);
      expect(Date.now() - stoppedAt).toBeLessThan(10_000);
    } finally {
      await scratch?.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('the embedded database', () => {
  it('refuses a second process on the same data folder with a clear message', async () => {
    const dataDir = await prefillDataDir(fs.mkdtempSync(path.join(os.tmpdir(), 'mds-lock-')));
    try {
      const first = await startServerProcess({ DATA_DIR: dataDir });
      started.push(first);
      await expect(startServerProcess({ DATA_DIR: dataDir }, 30_000)).rejects.toThrow(/in use by process \d+/);
      expect(await first.stop()).toBe(0);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('extra accept sockets (ACCEPT_SOCKETS)', () => {
  it('serves connections accepted by any of them and drains them all on SIGTERM', async () => {
    const dataDir = await prefillDataDir(fs.mkdtempSync(path.join(os.tmpdir(), 'mds-accept-')));
    try {
      const server = await startServerProcess({ DATA_DIR: dataDir, ACCEPT_SOCKETS: '4' });
      started.push(server);
      // Start-up work (the search-index refresh) holds the event loop for a while after "listening";
      // connections still in the kernel's accept queues at SIGTERM are refused, not drained.
      await waitForQuiet(server.child.pid ?? 0, 30_000);
      // The kernel spreads new connections over the four sockets by address hash: forty of them
      // all landing on the server's own socket is a 1-in-4^40 chance.
      const inFlight = Array.from({ length: 40 }, () => halfSentRequest(server.url));
      await new Promise((resolve) => setTimeout(resolve, 500));
      server.child.kill('SIGTERM');
      await new Promise((resolve) => setTimeout(resolve, 300));
      for (const request of inFlight) request.finish();
      const responses = await Promise.all(inFlight.map((request) => request.response));
      expect(responses.filter((response) => /^HTTP\/1\.1 405/.test(response))).toHaveLength(40);
      expect(await server.exited).toBe(0);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
