// WebAssembly runs on V8's baseline compiler (Liftoff) only, without the tier-up to its optimising
// compiler (TurboFan). The only WebAssembly in the service is the embedded database (PGlite, 9 MB of
// PostgreSQL), and TurboFan's compilation of its hot functions held up to ~580 MiB of compiler
// memory (V8's malloced memory, measured with v8.getHeapStatistics) for seconds at a time, at every
// start and through a sync: the service's peak (VmHWM) was 784–859 MiB on a restart or a fresh start,
// 387–407 MiB for the same work with Liftoff only. On two cores the optimised code did not pay for
// its compilation: a pass of reads, a sort and a bulk insert over a synced database took 0.6–1.0 s on
// Liftoff against 0.8–1.5 s with tier-up (3.2 s for its first pass, while TurboFan compiled). Bulk
// loads pay for it: a full sync from the mirror took 10–35% longer (docs/operations.md, "Memory").
// Set before the database's thread compiles the module; V8 flags are the process's, so its threads'.
import v8 from 'node:v8';

export const WASM_FLAGS = '--no-wasm-tier-up --no-wasm-dynamic-tiering';

v8.setFlagsFromString(WASM_FLAGS);
