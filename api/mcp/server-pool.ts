// MCP server instances, built once and reused. The SDK serves each HTTP exchange with an instance
// of its own (one transport per instance at a time), so the endpoint keeps the instances that
// finished an exchange and hands them to the next one: under c requests at once, c instances exist,
// each built once, instead of one built for every request (registering every tool, resource and
// prompt: 2–3 ms of the main thread each on the shared two-core machine, measured with both SDK
// lines). An instance serves one era for life: the two eras differ in what they advertise and in the
// state the SDK binds to an instance.
import type { GuardedMcpServer } from './guarded-server.ts';
import type { ProtocolEra } from './server.ts';

/** Idle instances kept per era; beyond, a finished one is let go (a burst does not stay in memory). */
const IDLE_KEPT = 16;

export interface ServerPool {
  /** An idle instance of the era, or a new one; it comes back once its exchange has closed. */
  acquire(era: ProtocolEra): GuardedMcpServer;
  /** Instances built so far (for the bench and tests). */
  readonly built: number;
}

export function createServerPool(build: (era: ProtocolEra) => GuardedMcpServer): ServerPool {
  const idle: Record<ProtocolEra, GuardedMcpServer[]> = { legacy: [], modern: [] };
  let built = 0;

  function lease(server: GuardedMcpServer, era: ProtocolEra): GuardedMcpServer {
    let returned = false;
    const giveBack = () => {
      if (returned) return;
      returned = true;
      server.server.onclose = undefined;
      server.onIdle = undefined;
      // After the SDK has finished with the exchange that closed (its own clean-up runs in the same turn).
      setImmediate(() => {
        if (idle[era].length < IDLE_KEPT) idle[era].push(server);
      });
    };
    // The serving entries chain their own close handler in front of this one and restore it after.
    server.server.onclose = giveBack;
    // An instance the entry closes without connecting it (subscriptions/listen) never sees onclose.
    server.onIdle = giveBack;
    return server;
  }

  return {
    acquire(era) {
      const reused = idle[era].pop();
      if (reused !== undefined) return lease(reused, era);
      built += 1;
      return lease(build(era), era);
    },
    get built() {
      return built;
    },
  };
}
