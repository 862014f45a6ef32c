// The C allocator's settings for the service process, applied by running the process again in place
// (same pid, same arguments) with them in its environment: glibc reads them once, at start-up, so a
// process cannot change them for itself later. ./apply-allocator-settings.ts does it; the service's
// entry points import that first.
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
