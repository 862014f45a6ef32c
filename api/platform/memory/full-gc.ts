// A memory-reducing garbage collection on demand, on whichever thread calls it.
//
// Why: V8 keeps the heap pages a collection frees in a pool for reuse instead of returning them to
// the OS, and empties that pool only in a collection asked to reduce memory (memory pressure, or the
// memory reducer, which an always-busy-then-idle server rarely starts). After a sync the service
// held ~300 MiB of such pooled pages on top of a ~200 MiB live heap; one memory-reducing collection
// gives them back (RSS 1.15 GiB -> see docs/operations.md "Memory").
//
// The "last resort" flavour of V8's gc extension is the collection V8 runs itself before giving up on
// an allocation: repeated full collections with the reduce-memory flag, which releases the pool and
// shrinks the young generation. The extension is enabled for this purpose only and reached through a
// fresh context, so the service's own global scope gets no `gc` function.
import v8 from 'node:v8';
import vm from 'node:vm';

type GcExtension = (options?: { type?: 'major' | 'minor'; execution?: 'sync' | 'async'; flavor?: 'regular' | 'last-resort' }) => void;

let gc: GcExtension | undefined;

function extension(): GcExtension {
  if (gc === undefined) {
    v8.setFlagsFromString('--expose-gc');
    gc = vm.runInNewContext('gc') as GcExtension;
  }
  return gc;
}

/** Runs a memory-reducing full collection now (blocks this thread: ~0.1–0.4 s for a 200 MiB heap). */
export function reduceMemoryNow(): void {
  extension()({ type: 'major', execution: 'sync', flavor: 'last-resort' });
}
