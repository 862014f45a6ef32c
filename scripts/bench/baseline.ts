// Starts one of the baselines (scripts/bench/baseline-server.ts) as a process of its own.
import path from 'node:path';
import { PROJECT_ROOT } from '../../api/config.ts';
import { spawnServer } from '../lib/child-server.ts';

export type BaselineKind = 'node' | 'express';

export const BASELINE_NAMES: Record<BaselineKind, string> = { node: 'node http hello', express: 'express hello' };

export interface RunningBaseline {
  /** URL answering the hello (any path), or the root of a body or static baseline. */
  url: string;
  pid: number;
  stop(): Promise<void>;
}

async function start(args: string[], url: (base: string) => string): Promise<RunningBaseline> {
  const server = await spawnServer(path.join(PROJECT_ROOT, 'scripts', 'bench', 'baseline-server.ts'), {
    args,
    ready: /listening (http:\/\/127\.0\.0\.1:\d+)/,
  });
  return {
    url: url(server.url),
    pid: server.child.pid ?? 0,
    async stop() {
      await server.stop();
    },
  };
}

export function startBaseline(kind: BaselineKind): Promise<RunningBaseline> {
  return start([kind], (base) => `${base}/hello`);
}

/** A bare Express app answering the bytes of `file` as `contentType` on any path. */
export function startBodyBaseline(file: string, contentType: string): Promise<RunningBaseline> {
  return start(['express-body', file, contentType], (base) => base);
}

/** A bare Express app with express.static over `dir`. */
export function startStaticBaseline(dir: string): Promise<RunningBaseline> {
  return start(['express-static', dir], (base) => base);
}
