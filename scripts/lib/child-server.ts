// Starts a server script as a child process and waits for the line that names its address. Used
// by the benchmarks (service and baselines in processes of their own) and by lifecycle tests.
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import { PROJECT_ROOT } from '../../api/config.ts';

export interface ChildServer {
  child: ChildProcess;
  url: string;
  exited: Promise<number | null>;
  output(): string;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/**
 * Runs `node <script> ...args` and resolves once its output matches `ready` (whose first capture
 * group is the base URL), or at once when `ready` is omitted (the caller then polls it itself and
 * `url` is empty).
 */
export async function spawnServer(
  script: string,
  { args = [], env = {}, ready, timeoutMs = 60_000 }: { args?: string[]; env?: Record<string, string>; ready?: RegExp; timeoutMs?: number },
): Promise<ChildServer> {
  const inherited = { ...process.env };
  // Under vitest, process.env carries Vite's BASE_URL ('/'), which would become the service's base URL.
  if (inherited.VITEST && inherited.BASE_URL === '/') delete inherited.BASE_URL;
  const child = spawn(process.execPath, [script, ...args], {
    cwd: PROJECT_ROOT,
    env: { ...inherited, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    if (!ready) {
      child.stdout?.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-200_000)));
      child.stderr?.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-200_000)));
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
      output = (output + chunk.toString()).slice(-200_000);
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
    output: () => output,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
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
