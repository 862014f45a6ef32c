// A local Unix socket (DATA_DIR/admin/keys.sock, folder 0700, socket 0600) through which `npm run
// keys` reaches a running server that holds the embedded database, since PGlite allows one process.
// One JSON line in, one JSON line out; only the key commands, only for the folder's owner.
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { toErrorResponse } from '../platform/errors.ts';
import type { Logger } from '../platform/logger.ts';
import type { KeyStore } from './key-store.ts';
import { KeysCommandSchema, runKeysCommand, type KeysCommand, type KeysResult } from './keys-admin.ts';

/** Longest path a Unix socket may have on Linux (sun_path is 108 bytes with the terminator). */
const MAX_SOCKET_PATH = 107;
const MAX_REQUEST_BYTES = 4_096;

export function adminSocketPath(dataDir: string): string {
  return path.join(dataDir, 'admin', 'keys.sock');
}

type Reply = { ok: true; result: KeysResult } | { ok: false; error: string; status: number };

/** Listens on the admin socket; resolves to a closer, or to undefined when it cannot listen. */
export async function startAdminSocket(dataDir: string, store: KeyStore, logger: Logger): Promise<(() => Promise<void>) | undefined> {
  const socketPath = adminSocketPath(dataDir);
  if (Buffer.byteLength(socketPath) > MAX_SOCKET_PATH) {
    logger.warn({ socketPath }, 'admin socket path too long: `npm run keys` cannot reach this server; stop it to manage keys');
    return undefined;
  }
  fs.mkdirSync(path.dirname(socketPath), { recursive: true, mode: 0o700 });
  fs.chmodSync(path.dirname(socketPath), 0o700);
  // This process holds the embedded database's lock, so a socket file here is a dead server's.
  fs.rmSync(socketPath, { force: true });

  const server = net.createServer((socket) => {
    let buffer = '';
    socket.setEncoding('utf8');
    socket.setTimeout(10_000, () => socket.destroy());
    socket.on('error', () => undefined);
    socket.on('data', (chunk: string) => {
      buffer += chunk;
      if (buffer.length > MAX_REQUEST_BYTES) return void socket.destroy();
      const newline = buffer.indexOf('\n');
      if (newline < 0) return;
      void answer(buffer.slice(0, newline)).then((reply) => socket.end(`${JSON.stringify(reply)}\n`));
    });
  });

  async function answer(line: string): Promise<Reply> {
    try {
      const command = KeysCommandSchema.parse(JSON.parse(line));
      const result = await runKeysCommand(store, command);
      logger.info({ command: command.command, via: 'admin socket' }, 'keys command');
      return { ok: true, result };
    } catch (error) {
      const { body } = toErrorResponse(error);
      return { ok: false, error: body.status === 500 ? 'The command failed; see the server log.' : body.error, status: body.status };
    }
  }

  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      // The socket file is created (bound) inside listen(): under this mask it is born owner-only, so
      // there is no moment at which it carries the default mode.
      const previousMask = process.umask(0o177);
      try {
        server.listen(socketPath, () => resolve());
      } finally {
        process.umask(previousMask);
      }
    });
    fs.chmodSync(socketPath, 0o600);
  } catch (error) {
    logger.warn({ err: (error as Error).message, socketPath }, 'admin socket not started: `npm run keys` cannot reach this server');
    return undefined;
  }
  return () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      fs.rmSync(socketPath, { force: true });
    });
}

export class AdminSocketUnavailable extends Error {}

/** Sends one command to a running server; throws AdminSocketUnavailable when nothing listens. */
export function sendAdminCommand(dataDir: string, command: KeysCommand, timeoutMs = 15_000): Promise<Reply> {
  const socketPath = adminSocketPath(dataDir);
  return new Promise((resolve, reject) => {
    const socket = net.createConnection(socketPath);
    let buffer = '';
    let connected = false;
    socket.setEncoding('utf8');
    socket.setTimeout(timeoutMs, () => socket.destroy(new Error('The running server did not answer on its admin socket in time.')));
    socket.on('connect', () => {
      connected = true;
      socket.write(`${JSON.stringify(command)}\n`);
    });
    socket.on('data', (chunk: string) => (buffer += chunk));
    socket.on('end', () => {
      try {
        resolve(JSON.parse(buffer) as Reply);
      } catch {
        reject(new Error('The running server gave an unreadable answer on its admin socket.'));
      }
    });
    socket.on('error', (error: NodeJS.ErrnoException) => {
      if (!connected && (error.code === 'ENOENT' || error.code === 'ECONNREFUSED')) reject(new AdminSocketUnavailable(error.message));
      else reject(error);
    });
  });
}

/**
 * The background job of the server process: with the embedded database, listen on the admin socket.
 * (With PostgreSQL the CLI opens the database itself.) Returns the stopper.
 */
export function startKeysAdminJob(deps: {
  db: { kind: string };
  config: { dataDir: string };
  services: { access: { keys: KeyStore } };
  logger: Logger;
}): () => void {
  if (deps.db.kind !== 'pglite') return () => undefined;
  const started = startAdminSocket(deps.config.dataDir, deps.services.access.keys, deps.logger);
  return () => void started.then((close) => close?.());
}
