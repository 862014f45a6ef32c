// The idle memory release: it collects once the process has been quiet for the set number of
// checks, asks the database to do the same, and does not collect again while RSS has not grown.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { pino } from 'pino';
import { startIdleMemoryRelease } from '../../api/platform/memory/idle-release.ts';
import { reduceMemoryNow } from '../../api/platform/memory/full-gc.ts';

describe('memory released while idle', () => {
  let stop: (() => void) | undefined;
  afterEach(() => stop?.());

  it('runs a memory-reducing collection without exposing gc to the global scope', () => {
    reduceMemoryNow();
    expect('gc' in globalThis).toBe(false);
  });

  it('releases after a quiet spell, then not again until RSS grows', async () => {
    const releaseDatabase = vi.fn(async () => undefined);
    stop = startIdleMemoryRelease({
      logger: pino({ level: 'silent' }),
      releaseDatabase,
      checkMs: 20,
      quietChecks: 2,
      quietCpuShare: 1.01,
      growthBytes: 2 ** 40,
    });
    await vi.waitFor(() => expect(releaseDatabase).toHaveBeenCalledTimes(1), { timeout: 5_000 });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(releaseDatabase).toHaveBeenCalledTimes(1);
  });

  it('does not release while the process is busy', async () => {
    const releaseDatabase = vi.fn(async () => undefined);
    stop = startIdleMemoryRelease({ logger: pino({ level: 'silent' }), releaseDatabase, checkMs: 20, quietChecks: 2, quietCpuShare: 0 });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(releaseDatabase).not.toHaveBeenCalled();
  });
});
