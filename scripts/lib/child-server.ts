// Starts a server script as a child process and waits for the line that names its address. Used
// by the benchmarks (service and baselines in processes of their own) and by lifecycle tests.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import { PROJECT_ROOT } from '../../api/config.ts';

export interface ChildServer {
  child: ChildProcess;
  url: string;
  exited: Promise<number | null>;
  output(): string;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** How much of a child's output output() keeps: a long-running server's log must not grow here. */
const OUTPUT_TAIL_CHARS = 200_000;

/**
 * Runs `node <script> ...args` and resolves once its output matches `ready` (whose first capture
 * group is the base URL), or at once when `ready` is omitted (the caller then polls it itself and
 * `url` is empty). With `logFile`, the child writes its output straight to that file, as a service
 * does in production (the benchmarks: a busy access log through a pipe would load this process);
 * `ready` is then not available.
 */
export async function spawnServer(
  script: string,
  {
    args = [],
    env = {},
    ready,
    timeoutMs = 60_000,
    logFile,
  }: { args?: string[]; env?: Record<string, string>; ready?: RegExp; timeoutMs?: number; logFile?: string },
): Promise<ChildServer> {
  if (logFile !== undefined && ready !== undefined) throw new Error('spawnServer: ready needs the output piped, not logFile');
  const inherited = { ...process.env };
  // Under vitest, process.env carries Vite's BASE_URL ('/'), which would become the service's base URL.
  if (inherited.VITEST && inherited.BASE_URL === '/') delete inherited.BASE_URL;
  const logFd = logFile === undefined ? undefined : fs.openSync(logFile, 'a');
  const child = spawn(process.execPath, [script, ...args], {
    cwd: PROJECT_ROOT,
    env: { ...inherited, ...env },
    stdio: ['ignore', logFd ?? 'pipe', logFd ?? 'pipe'],
  });
  if (logFd !== undefined) fs.closeSync(logFd); // the child holds its own copy
  let output = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    if (!ready) {
      child.stdout?.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-OUTPUT_TAIL_CHARS)));
      child.stderr?.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-OUTPUT_TAIL_CHARS)));
      resolve('');
      return;
    }
    const timer = setTimeout(() => {
      // Never leave a half-started server behind: the caller gets no handle to stop it.
      child.kill('SIGKILL');
      reject(new Error(`${script} did not start in ${timeoutMs} ms:\n${output}`));
    }, timeoutMs);
    const onData = (chunk: Buffer) => {
      // Keep only the tail: a long-running server's log must not grow without bound here.
      output = (output + chunk.toString()).slice(-OUTPUT_TAIL_CHARS);
      const match = ready.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`${script} exited with ${code} before it was ready:\n${output}`));
    });
  });
  return {
    child,
    url,
    exited,
    output: () => (logFile === undefined ? output : readTail(logFile, OUTPUT_TAIL_CHARS)),
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}

function readTail(file: string, bytes: number): string {
  const fd = fs.openSync(file, 'r');
  try {
    const size = fs.fstatSync(fd).size;
    const length = Math.min(size, bytes);
    const buffer = Buffer.alloc(length);
    fs.readSync(fd, buffer, 0, length, size - length);
    return buffer.toString('utf8');
  } finally {
    fs.closeSync(fd);
  }
}

/** A TCP port that was free a moment ago (for children that must be told their port). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

/** Polls `url` until it answers 200, or throws after `timeoutMs`. */
export async function waitForOk(url: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const response = await fetch(url);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`${url} did not answer 200 within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** The server's "listening" log line (pino JSON) carries its URL. */
export const SERVICE_READY = /"url":"(http:\/\/127\.0\.0\.1:\d+)"[^\n]*"msg":"listening"/;
