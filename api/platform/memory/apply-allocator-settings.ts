// Runs this process again in place with the C allocator's settings (./allocator-settings.ts says
// which and why) when it does not have them yet. A side effect on import, so that an entry point can
// import it before anything else is loaded: nothing has started yet that re-running would lose.
import { isMainThread } from 'node:worker_threads';
import { allocatorEnvironment } from './allocator-settings.ts';

const env = allocatorEnvironment(process.env, process.platform);
if (env !== undefined && isMainThread && typeof process.execve === 'function') {
  process.execve(process.execPath, [process.execPath, ...process.execArgv, ...process.argv.slice(1)], env);
}
