// The C allocator's settings for the service process, and the size of V8's young generation, applied
// by running the process again in place (same pid, same arguments) with them in its environment and
// on its command line: glibc reads the first once, at start-up, and V8 sizes the main thread's heap
// when it creates it, so a process cannot change either for itself later.
// ./apply-allocator-settings.ts does it; the service's entry points import that first.
//
// Why (measured after a full sync, docs/operations.md "Memory"):
// - MALLOC_ARENA_MAX=2: glibc gives each thread that allocates at once an arena of its own (64 MiB
//   reservations; compression, PGlite's and DuckDB's threads, V8's helpers), and memory freed in one
//   is not reused by another. Two arenas: idle RSS 726 -> 659 MiB.
// - MALLOC_MMAP_THRESHOLD_=131072: allocations of 128 KiB and more (file and response buffers during
//   a sync) get mappings of their own, returned to the OS when freed. By default glibc raises that
//   threshold as such blocks are freed, so later ones land in the main heap, which keeps the pages of
//   freed blocks under live ones. Main heap 166 -> 71 MiB, idle RSS 659 -> 538 MiB.
//
// An operator who sets either variable keeps their own choice (and neither is then added). Linux
// only: other systems' allocators do not read these variables, and process.execve is POSIX-only.
export const ALLOCATOR_SETTINGS = { MALLOC_ARENA_MAX: '2', MALLOC_MMAP_THRESHOLD_: '131072' } as const;

/** The environment to run again with, or undefined when none is needed (or the operator chose). */
export function allocatorEnvironment(env: NodeJS.ProcessEnv, platform: NodeJS.Platform): NodeJS.ProcessEnv | undefined {
  if (platform !== 'linux') return undefined;
  if (Object.keys(ALLOCATOR_SETTINGS).some((name) => env[name] !== undefined)) return undefined;
  return { ...env, ...ALLOCATOR_SETTINGS };
}

/**
 * V8's semi-space for the main thread, in MiB (the young generation is about three of them). V8's
 * default lets it grow to 16 MiB, and the heap keeps those pages: during a start-up sync the main
 * heap held ~178 MiB for ~70–120 MiB used, and with 4 MiB ~113 MiB (the sync's peak RSS of the API
 * alone 643 -> 542 MiB). The cost is more frequent, shorter young collections: the REST benchmarks'
 * ratios to their baselines moved by 1–5%, within their spread. The worker threads set theirs with
 * `resourceLimits` (api/platform/db/pglite-worker.ts, api/sync/run-in-thread.ts).
 */
export const MAIN_SEMI_SPACE_MB = 4;

/**
 * The V8 flag to run again with, or none when the operator chose a semi-space size of their own.
 * Linux only, as the allocator's settings: the run again in place that carries it is theirs.
 */
export function youngGenerationArguments(
  execArgv: readonly string[],
  nodeOptions: string | undefined,
  platform: NodeJS.Platform,
): string[] {
  if (platform !== 'linux') return [];
  const chosen = [...execArgv, ...(nodeOptions ?? '').split(/\s+/)].some((flag) => /^--max[-_]semi[-_]space[-_]size\b/.test(flag));
  return chosen ? [] : [`--max-semi-space-size=${MAIN_SEMI_SPACE_MB}`];
}
