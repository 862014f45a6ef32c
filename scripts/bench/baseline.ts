// Starts one of the two baselines (scripts/bench/baseline-server.ts) as a process of its own.
import path from 'node:path';
import { PROJECT_ROOT } from '../../api/config.ts';
import { spawnServer } from '../lib/child-server.ts';

export type BaselineKind = 'node' | 'express';

export const BASELINE_NAMES: Record<BaselineKind, string> = { node: 'node http hello', express: 'express hello' };

export interface RunningBaseline {
  /** URL answering the hello (any path). */
  url: string;
  pid: number;
  stop(): Promise<void>;
}

export async function startBaseline(kind: BaselineKind): Promise<RunningBaseline> {
  const server = await spawnServer(path.join(PROJECT_ROOT, 'scripts', 'bench', 'baseline-server.ts'), {
    args: [kind],
    ready: /listening (http:\/\/127\.0\.0\.1:\d+)/,
  });
  return {
    url: `${server.url}/hello`,
    pid: server.child.pid ?? 0,
    async stop() {
      await server.stop();
    },
  };
}
