// Runs key holders' custom SQL where a stop is real: each query goes to a sandbox process of its own
// (sandbox-worker.ts) with its own DuckDB memory limit and a bounded JavaScript heap. The service
// kills that process when the query outlives its deadline (whatever the engine is doing: planning,
// folding constants, one long scalar call) or when its resident memory passes the cap, and starts
// another; an engine error that can leave the engine unusable (internal, fatal, a failed allocation)
// also gets the process replaced before the next query. A few processes serve at once; more queries
// wait in a short line, the account with the fewest queries running first, no account (all its keys
// together) holding every process or more than its share of the line. A question holds its process
// once, for its query and the export of its rows alike, within one query time limit. Every refused or
// stopped query is logged (key id, reason, duration).
import fs from 'node:fs';
import type { Logger } from '../platform/logger.ts';
import { BadRequestError, ServiceUnavailableError, TooManyRequestsError } from '../platform/errors.ts';
import type { JsonRow } from './duck.ts';
import { ExportOverBudgetError } from './exports.ts';
import { ProcessExit, SandboxProcess } from './sandbox-process.ts';
import type { TruncatedReason, WorkerMessage, WorkerRequest } from './sandbox-protocol.ts';
import { describeEngineError, engineUnusableAfter } from './sql-errors.ts';
import { checkText, SqlRefusedError } from './sql-guard.ts';

export interface SandboxOptions {
  root: string;
  threads: number;
  /** DuckDB memory_limit of each sandbox process (e.g. "1GB"). */
  memoryLimit: string;
  timeoutMs: number;
  rowCap: number;
  /** Bytes of JSON rows an answer may carry; rows beyond are cut (`truncated: 'bytes'`). */
  byteCap: number;
  logger: Logger;
  /** Queries running at once (one process each); more wait in line (up to `queueLimit`), then get a 503. */
  concurrency?: number;
  queueLimit?: number;
  /** Queries one account may run at once (default: all processes but one) and keep waiting (default: a quarter of the line). */
  perKeyRunning?: number;
  perKeyQueue?: number;
  /** Resident memory at which a process is killed; default: the DuckDB limit + 512 MiB. */
  rssLimitBytes?: number;
  /** How long after the deadline a process that has not answered is killed (the engine's own interrupt comes first). */
  graceMs?: number;
  /** A process idle this long is stopped, giving its memory back. */
  idleMs?: number;
}

export interface SandboxResult {
  columns: string[];
  rows: JsonRow[];
  truncated: boolean;
  truncatedReason: TruncatedReason | null;
  bytes: number;
  elapsedMs: number;
}

export interface RunContext {
  /** Id (never the key itself) of the API key the query came with, for the log. */
  keyId?: string;
  /** The key's account: its keys together get one caller's share of the processes and of the line. */
  accountId?: string;
}

/** Caps of one run, when they differ from the sandbox's (an answer budget smaller than the byte cap). */
export interface RunCaps {
  rowCap?: number;
  byteCap?: number;
}

export interface ExportTarget {
  parquetPath: string;
  csvPath: string;
  /** Bytes both files together may take: the kernel stops the process's writes there, and the watch kills it past it. */
  maxBytes: number;
}

/**
 * One question in its process: the query (cut at the caps), then, when its rows are over the
 * answer's budget, the export of every row. Both share the question's one time limit.
 */
export interface QuestionLane {
  run(caps?: RunCaps): Promise<SandboxResult>;
  /** Writes every row of the query to `target`'s Parquet and CSV files; resolves to the row count. */
  export(target: ExportTarget): Promise<number>;
}

/** A query stopped by the sandbox (time or memory); `reason` is for the log. */
export class SqlStoppedError extends BadRequestError {
  readonly reason: 'timeout' | 'memory';
  /** Highest resident memory of the process seen while the query ran (bytes), for the log. */
  readonly peakRss: number | undefined;
  constructor(reason: 'timeout' | 'memory', message: string, peakRss?: number) {
    super(message);
    this.reason = reason;
    this.peakRss = peakRss;
  }
}

/** An engine error caused by the query itself (unknown column, bad cast), in our words. */
export class SqlFailedError extends BadRequestError {
  readonly reason: string;
  constructor(reason: string, message: string) {
    super(message);
    this.reason = reason;
  }
}

const HEAP_MB = 256;
/**
 * Signals of a process that crashed (not ones the service sends): DuckDB dies of SIGSEGV on a type
 * or expression nested ~100,000 levels deep (its parser and binder recurse on the thread's stack).
 */
const CRASH_SIGNALS: ReadonlySet<string> = new Set(['SIGSEGV', 'SIGBUS', 'SIGILL', 'SIGFPE']);
/** Resident memory is read this often while a query runs (a read of /proc/<pid>/statm costs microseconds). */
const WATCH_MS = 10;
/**
 * Virtual memory a process may map, as a multiple of its resident cap (plus 2 GiB for Node and the
 * engine at rest): DuckDB's allocator reserves far more address space than it touches (about 7 GiB
 * of mappings for 750 MiB resident, measured), so the limit sits well above the resident cap and
 * only stops a burst the resident watch is too slow to see.
 */
const ADDRESS_SPACE_PER_RESIDENT = 8;

/** Bytes in a DuckDB memory setting: KB/MB/GB/TB are powers of 1000, KiB/MiB/GiB/TiB of 1024. */
export function parseMemoryLimit(value: string): number | undefined {
  const match = /^\s*(\d+(?:\.\d+)?)\s*(?:([kmgt])(i?)b?|b|bytes)?\s*$/i.exec(value);
  if (!match) return undefined;
  const power = match[2] ? 'kmgt'.indexOf(match[2].toLowerCase()) + 1 : 0;
  return Math.round(Number(match[1]) * (match[3] ? 1024 : 1000) ** power);
}

interface Slot {
  busy: boolean;
  process?: SandboxProcess;
  /** Whose share the running question counts against: its account, or its key when it has none. */
  holder?: string;
}

interface Waiter {
  holder: string;
  resolve: (slot: Slot) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
}

export function createSandbox(options: SandboxOptions) {
  const { logger, timeoutMs } = options;
  const concurrency = options.concurrency ?? 2;
  const queueLimit = options.queueLimit ?? 16;
  // An account's fair share: all processes but one (so another caller always finds one soon), and a
  // quarter of the line; past its line share an account's queries are refused (429), not queued.
  // Counted per account, not per key: an account's second key is no second share.
  const perKeyRunning = options.perKeyRunning ?? Math.max(1, concurrency - 1);
  const perKeyQueue = options.perKeyQueue ?? Math.max(1, Math.floor(queueLimit / 4));
  const graceMs = options.graceMs ?? 250;
  const rssLimit = options.rssLimitBytes ?? (parseMemoryLimit(options.memoryLimit) ?? 2 ** 30) + 512 * 2 ** 20;
  const idleMs = options.idleMs ?? 5 * 60_000;
  // Long enough to outlast two runaways ahead in line (each question is killed at its deadline).
  const maxWaitMs = 2 * (timeoutMs + graceMs) + 5_000;
  const settings = { root: options.root, threads: options.threads, memoryLimit: options.memoryLimit };
  const slots: Slot[] = Array.from({ length: concurrency }, () => ({ busy: false }));
  const waiting: Waiter[] = [];
  let sequence = 0;
  let closed = false;

  const limits = { heapMb: HEAP_MB, addressSpaceBytes: 2 * 2 ** 30 + ADDRESS_SPACE_PER_RESIDENT * rssLimit };
  const spawn = () => new SandboxProcess(settings, limits);
  // One process is kept started ahead, so a slot whose process was killed serves again at once.
  let spare: SandboxProcess | undefined;

  /** A started (or starting) process for a slot: the spare when there is one; a new spare follows. */
  function fresh(): SandboxProcess {
    const taken = spare?.alive ? spare : spawn();
    spare = closed ? undefined : spawn();
    return taken;
  }

  const reaper = setInterval(
    () => {
      for (const slot of slots) {
        if (!slot.busy && slot.process && Date.now() - slot.process.lastUsed > idleMs) {
          slot.process.kill();
          slot.process = undefined;
        }
      }
      if (spare && Date.now() - spare.lastUsed > idleMs) {
        spare.kill();
        spare = undefined;
      }
    },
    Math.min(idleMs, 60_000),
  );
  reaper.unref();

  const runningFor = (holder: string) => slots.filter((slot) => slot.busy && slot.holder === holder).length;
  const waitingFor = (holder: string) => waiting.filter((waiter) => waiter.holder === holder).length;
  /** An account below its share may start a query; queries without a key share one share. */
  const underShare = (holder: string) => runningFor(holder) < perKeyRunning;

  /**
   * Hands free slots to waiters: the waiter whose account has the fewest queries running (the oldest
   * among equals), skipping accounts already at their share, so one caller never holds every process.
   */
  function dispatch(): void {
    for (;;) {
      const slot = slots.find((candidate) => !candidate.busy);
      if (!slot) return;
      let chosen = -1;
      for (let index = 0; index < waiting.length; index += 1) {
        const holder = waiting[index]!.holder;
        if (!underShare(holder)) continue;
        if (chosen === -1 || runningFor(holder) < runningFor(waiting[chosen]!.holder)) chosen = index;
      }
      if (chosen === -1) return;
      const [waiter] = waiting.splice(chosen, 1);
      clearTimeout(waiter!.timer);
      slot.busy = true;
      slot.holder = waiter!.holder;
      waiter!.resolve(slot);
    }
  }

  function acquire(holder: string): Promise<Slot> {
    if (waiting.length >= queueLimit) {
      return Promise.reject(new ServiceUnavailableError('Too many custom HMDA queries are running; try again in a few seconds.', 5));
    }
    if (waitingFor(holder) >= perKeyQueue) {
      return Promise.reject(
        new TooManyRequestsError(
          `This account's keys already have ${perKeyQueue + runningFor(holder)} custom HMDA queries running or waiting; send the next when one has answered.`,
          2,
        ),
      );
    }
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        holder,
        resolve,
        reject,
        timer: setTimeout(() => {
          waiting.splice(waiting.indexOf(waiter), 1);
          reject(new ServiceUnavailableError('Custom HMDA queries are busy; try again in a few seconds.', 5));
        }, maxWaitMs),
      };
      waiting.push(waiter);
      dispatch();
    });
  }

  function release(slot: Slot): void {
    slot.busy = false;
    slot.holder = undefined;
    dispatch();
  }

  /** Kills the slot's process and gives the slot the spare, so the next query finds a started engine. */
  function replace(slot: Slot): void {
    slot.process?.kill();
    slot.process = closed ? undefined : fresh();
  }

  async function readyProcess(slot: Slot): Promise<SandboxProcess> {
    if (!slot.process?.alive) slot.process = fresh();
    const worker = slot.process;
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        worker.ready,
        new Promise((_, reject) => {
          timer = setTimeout(() => reject(new Error('sandbox process did not start within 30 s')), 30_000);
        }),
      ]);
      return worker;
    } catch (error) {
      replace(slot);
      logger.error({ err: error }, 'HMDA SQL sandbox process could not start');
      throw new ServiceUnavailableError('Custom HMDA queries are unavailable right now; try again in a minute.', 60);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Runs the request in the slot's process under its deadline and the memory cap. */
  async function execute(slot: Slot, request: WorkerRequest): Promise<{ message: WorkerMessage; peakRss: number }> {
    const { sql } = request;
    const worker = await readyProcess(slot);
    let stopped: 'timeout' | 'memory' | 'export-budget' | undefined;
    let peakRss = 0;
    // The export's files, watched as the resident memory is: where the kernel's file-size limit
    // could not be set (file-size-limit.ts), this stops a write soon after it passes its budget.
    const exportFiles = request.type === 'export' ? [request.parquetPath, request.csvPath] : [];
    const writtenBytes = () => exportFiles.reduce((sum, file) => sum + (fs.statSync(file, { throwIfNoEntry: false })?.size ?? 0), 0);
    const deadline = setTimeout(() => {
      stopped = 'timeout';
      worker.kill();
    }, request.timeoutMs + graceMs);
    const watch = setInterval(() => {
      const rss = worker.rss();
      if (rss === undefined) return;
      peakRss = Math.max(peakRss, rss);
      if (rss > rssLimit) {
        stopped ??= 'memory';
        worker.kill();
      }
      if (request.type === 'export' && writtenBytes() > request.maxBytes) {
        stopped ??= 'export-budget';
        worker.kill();
      }
    }, WATCH_MS);
    try {
      const message = await worker.run(request);
      // An engine that failed an allocation keeps its address space reserved, and one that raised an
      // internal or fatal error may be invalidated ("database has been invalidated"): every later
      // query in it would fail, so it makes way for a fresh one before the next query.
      if (message.type === 'failed' && engineUnusableAfter(message.detail, sql)) replace(slot);
      return { message, peakRss };
    } catch (error) {
      if (!(error instanceof ProcessExit)) throw error;
      replace(slot);
      const outOfMemory =
        /out of memory|allocation failed/i.test(error.stderr) ||
        error.signal === 'SIGABRT' ||
        error.signal === 'SIGTRAP' ||
        peakRss > 0.8 * rssLimit;
      if (stopped === 'export-budget' && request.type === 'export') throw new ExportOverBudgetError(request.maxBytes);
      if (stopped === 'timeout') throw stop('timeout', peakRss);
      if (stopped === 'memory' || outOfMemory) throw stop('memory', peakRss);
      if (error.signal !== null && CRASH_SIGNALS.has(error.signal)) {
        // The query's own doing (the same query crashes every engine it is sent to), answered as such;
        // logged as an error all the same, since it is an engine fault an operator may want to report.
        logger.error(
          { signal: error.signal, sql: sql.slice(0, 500), stderr: error.stderr.slice(-1000) },
          'HMDA SQL sandbox process crashed on a query',
        );
        throw new SqlFailedError(
          'engine_crash',
          'Custom SQL could not be run: the query engine crashed on it (as DuckDB does on types or expressions nested many thousands of levels deep). Its process was replaced; no other query was affected. Simplify the query.',
        );
      }
      logger.error(
        { code: error.code, signal: error.signal, stderr: error.stderr.slice(-1000) },
        'HMDA SQL sandbox process exited during a query',
      );
      throw new Error('HMDA SQL sandbox process exited during a query', { cause: error });
    } finally {
      clearTimeout(deadline);
      clearInterval(watch);
    }
  }

  function stop(reason: 'timeout' | 'memory', peakRss: number): SqlStoppedError {
    return reason === 'timeout'
      ? new SqlStoppedError(
          'timeout',
          `The query (with the export of its rows, when they are over the answer's budget) ran longer than the ${timeoutMs} ms limit and was stopped. ` +
            'Narrow it with WHERE year = … AND state = …, or aggregate with GROUP BY.',
          peakRss,
        )
      : new SqlStoppedError(
          'memory',
          `The query needed more memory than the ${options.memoryLimit} limit and was stopped. Aggregate or filter more narrowly.`,
          peakRss,
        );
  }

  /** The process's answer as a result, or as the error the caller gets. */
  function outcome(message: WorkerMessage, sql: string, peakRss: number): Omit<SandboxResult, 'elapsedMs'> | { exported: number } {
    switch (message.type) {
      case 'result':
        return {
          columns: message.columns,
          rows: message.rows,
          truncated: message.truncated !== null,
          truncatedReason: message.truncated,
          bytes: message.bytes,
        };
      case 'exported':
        return { exported: message.rows };
      case 'over-budget':
        throw new ExportOverBudgetError(message.maxBytes);
      case 'refused':
        throw new SqlRefusedError(message.reason, message.detail);
      case 'unanswerable':
        throw new SqlFailedError(message.reason, message.message);
      case 'failed': {
        const failure = describeEngineError(message.detail, sql, message.position);
        if (failure.kind === 'timeout' || failure.kind === 'memory') throw stop(failure.kind, peakRss);
        if (failure.kind === 'user') throw new SqlFailedError(failure.reason, failure.message);
        logger.error({ reason: failure.reason, detail: message.detail.slice(0, 1000) }, 'HMDA custom SQL failed inside the engine');
        throw new Error('HMDA custom SQL failed inside the engine');
      }
      default:
        throw new Error(`unexpected sandbox message ${message.type}`);
    }
  }

  /**
   * Runs `work` on one slot for the query's account, its query and export within one time limit
   * counted from when the slot was taken; logs refusals, stops and failures with the key id.
   */
  async function question<T>(query: unknown, context: RunContext, work: (lane: QuestionLane) => Promise<T>): Promise<T> {
    const started = performance.now();
    const keyId = context.keyId ?? 'none';
    const elapsed = () => Math.round(performance.now() - started);
    try {
      if (closed) throw new ServiceUnavailableError('Custom HMDA queries are unavailable while the service stops.', 5);
      const sql = checkText(query);
      const slot = await acquire(context.accountId ?? keyId);
      try {
        // The limit counts the engine's time, from a started process (starting one is not the query's doing).
        await readyProcess(slot);
        const deadline = performance.now() + timeoutMs;
        /** What is left of the question's time limit; a step with nothing left is stopped before it starts. */
        const remaining = () => {
          const left = Math.floor(deadline - performance.now());
          if (left <= 0) throw stop('timeout', 0);
          return left;
        };
        return await work({
          run: (caps = {}) => runIn(slot, sql, remaining(), caps, context, elapsed),
          export: (target) => exportIn(slot, sql, remaining(), target, context, elapsed),
        });
      } finally {
        release(slot);
      }
    } catch (error) {
      const sql = typeof query === 'string' ? query.slice(0, 500) : undefined;
      const fields = { keyId, accountId: context.accountId, ms: elapsed(), sql };
      if (error instanceof SqlRefusedError) logger.warn({ ...fields, reason: error.reason }, 'HMDA custom SQL refused');
      else if (error instanceof SqlStoppedError)
        logger.warn({ ...fields, reason: error.reason, peakRss: error.peakRss }, 'HMDA custom SQL stopped');
      else if (error instanceof SqlFailedError) logger.info({ ...fields, reason: error.reason }, 'HMDA custom SQL failed');
      else if (error instanceof ServiceUnavailableError || error instanceof TooManyRequestsError)
        logger.warn({ ...fields, reason: 'busy' }, 'HMDA custom SQL not run');
      throw error;
    }
  }

  /** The query in the slot's process, its rows cut at the caps, within `limitMs`. */
  async function runIn(slot: Slot, sql: string, limitMs: number, caps: RunCaps, context: RunContext, elapsed: () => number) {
    const request = {
      type: 'run',
      id: (sequence += 1),
      sql,
      timeoutMs: limitMs,
      rowCap: caps.rowCap ?? options.rowCap,
      byteCap: caps.byteCap ?? options.byteCap,
    } as const;
    const { message, peakRss } = await execute(slot, request);
    const answered = outcome(message, sql, peakRss);
    if ('exported' in answered) throw new Error('unexpected export answer to a query');
    const result = { ...answered, elapsedMs: elapsed() };
    if (result.truncated)
      logger.info(
        {
          keyId: context.keyId ?? 'none',
          reason: `truncated_${result.truncatedReason}`,
          ms: result.elapsedMs,
          rows: result.rows.length,
          bytes: result.bytes,
          peakRss,
        },
        'HMDA custom SQL cut',
      );
    return result;
  }

  /** Every row of the query written to `target`'s files by the slot's process, within `limitMs`. */
  async function exportIn(slot: Slot, sql: string, limitMs: number, target: ExportTarget, context: RunContext, elapsed: () => number) {
    const { parquetPath, csvPath, maxBytes } = target;
    const request = { type: 'export', id: (sequence += 1), sql, timeoutMs: limitMs, parquetPath, csvPath, maxBytes } as const;
    const { message, peakRss } = await execute(slot, request);
    const answered = outcome(message, sql, peakRss);
    if (!('exported' in answered)) throw new Error('unexpected query answer to an export');
    logger.info({ keyId: context.keyId ?? 'none', ms: elapsed(), rows: answered.exported, peakRss }, 'HMDA custom SQL exported');
    return answered.exported;
  }

  /** One query, its rows cut at the caps. */
  function run(query: unknown, context: RunContext = {}, caps: RunCaps = {}): Promise<SandboxResult> {
    return question(query, context, (lane) => lane.run(caps));
  }

  return {
    run,
    question,
    /** Pids of the running sandbox processes (for tests and measurements). */
    pids(): number[] {
      return slots.flatMap((slot) => (slot.process?.alive && slot.process.pid !== undefined ? [slot.process.pid] : []));
    },
    close(): void {
      closed = true;
      clearInterval(reaper);
      for (const waiter of waiting.splice(0)) {
        clearTimeout(waiter.timer);
        waiter.reject(new ServiceUnavailableError('Custom HMDA queries are unavailable while the service stops.', 5));
      }
      for (const slot of slots) {
        slot.process?.kill();
        slot.process = undefined;
      }
      spare?.kill();
      spare = undefined;
    },
  };
}

export type Sandbox = ReturnType<typeof createSandbox>;
