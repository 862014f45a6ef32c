// The kernel's cap on the size of any file this process writes (RLIMIT_FSIZE), set on itself through
// util-linux `prlimit`: a write past it fails (EFBIG; Node ignores SIGXFSZ), so an export stops at
// its byte budget exactly, not when a watcher next looks. Where `prlimit` is missing (macOS, a slim
// image) nothing is set and the service's watch on the file sizes (sandbox.ts) is the only cap.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';

const PRLIMIT = ['/usr/bin/prlimit', '/bin/prlimit'].find((candidate) => fs.existsSync(candidate));

/** Sets the soft limit on file sizes (bytes, or no limit); the hard limit stays. True when it was set. */
export function limitFileSize(bytes: number | 'unlimited'): boolean {
  if (PRLIMIT === undefined) return false;
  try {
    execFileSync(PRLIMIT, [`--pid=${process.pid}`, `--fsize=${bytes === 'unlimited' ? 'unlimited' : Math.max(0, Math.floor(bytes))}:`], {
      stdio: 'ignore',
    });
    return true;
  } catch {
    return false;
  }
}

/** Whether an engine error is a write refused at the file-size limit. */
export const isFileTooLarge = (detail: string) => /file too large|EFBIG/i.test(detail);
