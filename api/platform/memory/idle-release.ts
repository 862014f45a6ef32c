// Gives memory back to the OS once the service goes quiet after work that grew it (the start-up
// sync, a daily refresh, a burst of requests): a memory-reducing collection on the main thread and on
// the embedded database's thread (./full-gc.ts says why a plain collection does not).
//
// Quiet is read from the process's CPU time (every thread: requests, the database thread, a sync's
// parsers, DuckDB), not from request counts, so a load balancer's health checks every few seconds do
// not keep it from happening. The collection blocks its thread for a fraction of a second, so it runs
// only when the CPU has been near idle for a while, and only when RSS has grown since the last one:
// a service that stays idle is not collected again and again.
import type { Logger } from '../logger.ts';
import { reduceMemoryNow } from './full-gc.ts';

export interface IdleReleaseOptions {
  /** Gives back the database thread's memory (Database.releaseMemory), when there is one. */
  releaseDatabase?: (() => Promise<void>) | undefined;
  logger: Logger;
  /** How often CPU use is sampled. */
  checkMs?: number;
  /** Samples in a row under `quietCpuShare` of one core before releasing. */
  quietChecks?: number;
  quietCpuShare?: number;
  /** RSS growth since the last release that makes another one worth its pause. */
  growthBytes?: number;
}

const MIB = 2 ** 20;

/** Starts watching; returns the function that stops it. */
export function startIdleMemoryRelease(options: IdleReleaseOptions): () => void {
  const { releaseDatabase, logger, checkMs = 3_000, quietChecks = 2, quietCpuShare = 0.05, growthBytes = 32 * MIB } = options;
  let lastCpu = process.cpuUsage();
  let lastCheck = performance.now();
  let quietInARow = 0;
  /** RSS right after the last release; undefined until the first, which the first quiet spell makes. */
  let releasedAt: number | undefined;
  let releasing = false;

  const release = async () => {
    releasing = true;
    const before = process.memoryUsage.rss();
    const started = performance.now();
    try {
      reduceMemoryNow();
      // The main thread's pause is what a request arriving meanwhile would wait; the database thread's
      // collection runs on that thread.
      const pauseMs = performance.now() - started;
      await releaseDatabase?.();
      releasedAt = process.memoryUsage.rss();
      logger.info(
        {
          rssBeforeMiB: Math.round(before / MIB),
          rssAfterMiB: Math.round(releasedAt / MIB),
          pauseMs: Math.round(pauseMs),
          ms: Math.round(performance.now() - started),
        },
        'memory released while idle',
      );
    } catch (error) {
      logger.warn({ err: error }, 'memory release failed');
    } finally {
      releasing = false;
    }
  };

  const timer = setInterval(() => {
    const now = performance.now();
    const cpu = process.cpuUsage(lastCpu);
    const share = (cpu.user + cpu.system) / 1_000 / Math.max(1, now - lastCheck);
    lastCpu = process.cpuUsage();
    lastCheck = now;
    quietInARow = share < quietCpuShare ? quietInARow + 1 : 0;
    if (releasing || quietInARow < quietChecks) return;
    if (releasedAt !== undefined && process.memoryUsage.rss() < releasedAt + growthBytes) return;
    quietInARow = 0;
    void release();
  }, checkMs);
  timer.unref();
  return () => clearInterval(timer);
}
