// One sandbox process as the service sees it: started with a bounded JavaScript heap, a bounded
// address space (RLIMIT_AS, through the shell's `ulimit -v`, where the system has one) and none of
// the service's environment (no secrets, no home directory to reveal); asked one query at a time,
// measured (resident memory, from /proc on Linux) and killed outright when it must stop.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { WorkerMessage, WorkerRequest, WorkerSettings } from './sandbox-protocol.ts';

const WORKER = fileURLToPath(new URL('./sandbox-worker.ts', import.meta.url));
const PAGE_SIZE = 4096;
const STDERR_KEPT = 4096;
const HAS_SHELL = process.platform !== 'win32' && fs.existsSync('/bin/sh');

export interface ProcessLimits {
  /** V8 old-space limit of the process (the rows it builds live there). */
  heapMb: number;
  /** RLIMIT_AS of the process: virtual memory, so far above the resident-memory cap. */
  addressSpaceBytes: number;
}

/** How a process ended while a query was running in it. */
export class ProcessExit extends Error {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stderr: string;
  constructor(code: number | null, signal: NodeJS.Signals | null, stderr: string) {
    super(`sandbox process exited (code ${String(code)}, signal ${String(signal)})`);
    this.code = code;
    this.signal = signal;
    this.stderr = stderr;
  }
}

export class SandboxProcess {
  readonly ready: Promise<void>;
  private readonly child: ChildProcess;
  private pending?: { id: number; resolve: (message: WorkerMessage) => void; reject: (error: ProcessExit) => void };
  private stderr = '';
  private exit?: ProcessExit;
  lastUsed = Date.now();

  constructor(settings: WorkerSettings, limits: ProcessLimits) {
    const args = [`--max-old-space-size=${limits.heapMb}`, '--disable-warning=ExperimentalWarning', WORKER, JSON.stringify(settings)];
    const options = {
      env: process.env.TZ ? { TZ: process.env.TZ } : {},
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'] as ('ignore' | 'pipe' | 'ipc')[],
    };
    // The address-space limit turns an allocation burst between two memory readings into an
    // allocation failure inside the engine (an "out of memory" error) instead of a machine-wide OOM.
    // Where RLIMIT_AS is not supported the shell ignores it and the resident-memory watch remains.
    const kib = Math.floor(limits.addressSpaceBytes / 1024);
    this.child = HAS_SHELL
      ? spawn('/bin/sh', ['-c', `ulimit -v ${kib} 2>/dev/null; exec "$0" "$@"`, process.execPath, ...args], options)
      : spawn(process.execPath, args, options);
    this.child.stderr?.setEncoding('utf8');
    this.child.stderr?.on('data', (text: string) => {
      this.stderr = (this.stderr + text).slice(-STDERR_KEPT);
    });
    // Neither the process nor its channel keeps the service alive; a running query's timer does.
    this.child.unref();
    (this.child.channel as { unref?: () => void } | undefined)?.unref?.();
    this.ready = new Promise<void>((resolve, reject) => {
      this.child.on('message', (message: WorkerMessage) => {
        if (message.type === 'ready') resolve();
        else if (message.type === 'start-failed') reject(new Error(`sandbox process could not start: ${message.detail}`));
        else if (this.pending && 'id' in message && message.id === this.pending.id) {
          const { resolve: answer } = this.pending;
          this.pending = undefined;
          answer(message);
        }
      });
      this.child.on('exit', (code, signal) => {
        this.exit = new ProcessExit(code, signal, this.stderr);
        reject(this.exit);
        this.pending?.reject(this.exit);
        this.pending = undefined;
      });
      this.child.on('error', (error) => reject(error));
    });
    this.ready.catch(() => undefined);
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  get alive(): boolean {
    return this.exit === undefined;
  }

  /** Sends one query (or export); resolves with the process's answer, rejects with ProcessExit if it dies first. */
  run(request: WorkerRequest): Promise<WorkerMessage> {
    this.lastUsed = Date.now();
    if (this.exit) return Promise.reject(this.exit);
    return new Promise((resolve, reject) => {
      this.pending = { id: request.id, resolve, reject };
      this.child.send(request);
    });
  }

  /** Resident memory in bytes, or undefined where /proc is not available. */
  rss(): number | undefined {
    try {
      const pages = Number(fs.readFileSync(`/proc/${this.child.pid}/statm`, 'utf8').split(' ')[1]);
      return Number.isFinite(pages) ? pages * PAGE_SIZE : undefined;
    } catch {
      return undefined;
    }
  }

  kill(): void {
    if (this.alive) this.child.kill('SIGKILL');
  }
}
