// What a start costs the embedded database in memory (issue 46): a new data folder starts from the
// empty database made ahead of the service, not from initdb in the service (initdb held the service
// at ~1.1 GiB), and the database's WebAssembly is never recompiled by V8's optimising compiler,
// whose compiler memory reached ~580 MiB during a start. Checked in a process of its own
// (tests/support/database-start-probe.ts), as the service sets these for its whole process. The
// figures themselves are `npm run bench lifecycle`'s; here, the mechanisms.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../api/config.ts';

describe('the embedded database at start', () => {
  it('opens a new folder from the empty database made ahead, and runs its WebAssembly unoptimised', () => {
    const output = execFileSync(process.execPath, [path.join(PROJECT_ROOT, 'tests', 'support', 'database-start-probe.ts')], {
      cwd: PROJECT_ROOT,
      encoding: 'utf8',
      timeout: 170_000,
    });
    const probe = JSON.parse(output.trim().split('\n').at(-1)!) as {
      identifier: string;
      templateIdentifier: string;
      peakMallocedMb: number;
    };
    // initdb gives every cluster a new system identifier; a copy keeps the one it was made with.
    expect(probe.identifier).toBe(probe.templateIdentifier);
    // V8's compiler memory: ~10 MiB with Liftoff only, ~580 MiB once TurboFan compiles PostgreSQL's hot functions.
    expect(probe.peakMallocedMb).toBeLessThan(64);
  }, 180_000);
});
