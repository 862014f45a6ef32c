// Runs this process again in place with the C allocator's settings and V8's young-generation size
// (./allocator-settings.ts says which and why) when it does not have them yet. A side effect on
// import, so that an entry point can import it before anything else is loaded: nothing has started
// yet that re-running would lose.
import { isMainThread } from 'node:worker_threads';
import { allocatorEnvironment, youngGenerationArguments } from './allocator-settings.ts';

const env = allocatorEnvironment(process.env, process.platform);
const flags = youngGenerationArguments(process.execArgv, process.env.NODE_OPTIONS, process.platform);
if ((env !== undefined || flags.length > 0) && isMainThread && typeof process.execve === 'function') {
  process.execve(process.execPath, [process.execPath, ...process.execArgv, ...flags, ...process.argv.slice(1)], env ?? process.env);
}
