// The server's own background work (regenerating publications, rendering pages ahead, re-reading
// series, rebuilding the search index) runs on the thread that answers requests: a loop over every
// county or page that never awaits holds every request until it ends. Such loops call giveWay()
// between items; it hands the event loop back once the current stretch of work has lasted a slice,
// so a request waits at most about that long. Judged by elapsed time, not per item, so a loop of
// thousands of cheap items pays for a handful of yields.
// From the modules, not the globals: a test's fake timers must not stop background work.
import { setImmediate } from 'node:timers';
import { setImmediate as nextTurn } from 'node:timers/promises';

/** Longest stretch of work, in milliseconds, before giveWay() hands the event loop back. */
export const SLICE_MS = 10;

/** When the current turn of the event loop started being busy (undefined once it has turned since). */
let busySince: number | undefined;

/**
 * Resolves at once while the current stretch of work is younger than SLICE_MS, and on a later turn
 * of the event loop (after pending I/O and due timers ran) once it is older. Any await that lets the
 * loop turn (a database query, a file read) starts a new stretch, whichever loop it came from.
 */
export async function giveWay(): Promise<void> {
  const now = performance.now();
  if (busySince === undefined) {
    busySince = now;
    // Runs as soon as the loop turns, whoever made it turn: the stretch ends there.
    setImmediate(() => {
      busySince = undefined;
    });
    return;
  }
  if (now - busySince < SLICE_MS) return;
  await nextTurn();
}
