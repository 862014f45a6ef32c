// How far V8 lets the main heap grow past its live data before the next full collection.
//
// By default V8 picks that factor itself, between 1.1 and 4, higher the cheaper collections have
// been: under a soak's steady load it let the main heap reach ~950 MiB (885 MiB used) for ~250 MiB
// of live data, and the pages stay resident. A fixed factor keeps the heap near what it holds, for
// more frequent full collections (concurrent and incremental for the most part).
//
// Why 1.35: under load, RSS follows the most the old generation has ever held. The pages a
// collection frees stay with the process until a memory-reducing one, which a busy service never
// gets (./idle-release.ts). That high point is reached at the busiest moment of a collection cycle,
// a factor times the data then live, so the factor sets the level RSS steps up to. In 60-s soaks on
// two cores (docs/operations.md, "Memory"), RSS at the end was 513–527 MiB at 1.5, 487–501 MiB at
// 1.35 and 482–492 MiB at 1.25. The 1.25 runs served 11–15% fewer requests a second, and one had
// a p99 of 9.1 s against 3.4–4.9 s. At 1.35 neither was worse than at 1.5.
import v8 from 'node:v8';

export const HEAP_GROWING_PERCENT = 35;

v8.setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
