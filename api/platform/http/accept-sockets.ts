// Extra listening sockets on the server's own address (SO_REUSEPORT), each handing its connections
// to the one HTTP server. Node accepts one new connection per listening socket per turn of the
// event loop, and a turn of a process busy with a thousand connections is long: a burst of new
// connections then waits in the kernel's accept queue, some longer than a client's timeout
// (docs/benchmarks-history.md, item 12, "Soak timeouts"). With n sockets the kernel spreads new
// connections over n queues and each turn accepts up to n. Opt-in (ACCEPT_SOCKETS): with
// SO_REUSEPORT on, a second process of the same user can also bind the port instead of failing with
// EADDRINUSE.
import net from 'node:net';
import type http from 'node:http';

/**
 * Opens `count` more sockets on the server's address. Resolves to a function that stops them
 * listening at once and resolves when the connections they accepted have ended.
 */
export async function openExtraAcceptSockets(server: http.Server, host: string, port: number, count: number): Promise<() => Promise<void>> {
  const extras: net.Server[] = [];
  const closeAll = () => Promise.all(extras.map((extra) => new Promise((resolve) => extra.close(resolve)))).then(() => undefined);
  try {
    for (let index = 0; index < count; index += 1) {
      const extra = net.createServer((socket) => server.emit('connection', socket));
      await new Promise<void>((resolve, reject) => {
        extra.once('error', reject);
        extra.listen({ port, host, backlog: 4096, reusePort: true }, () => resolve());
      });
      extras.push(extra);
    }
  } catch (error) {
    await closeAll();
    throw error;
  }
  return closeAll;
}
