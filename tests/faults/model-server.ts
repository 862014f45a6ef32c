// A misbehaving OpenAI-compatible model endpoint for the /ask fault tests (the well-behaved one is
// tests/support/fake-openai.ts): `hang` accepts the request and never answers; `stall` streams a
// few tokens, then goes silent; `endless` streams tokens as fast as the connection takes them,
// honouring backpressure, and counts the bytes it managed to send.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type ModelBehaviour = 'hang' | 'stall' | 'endless';

export interface MisbehavingModel {
  url: string;
  /** Requests received, and how many of their connections the service has since closed. */
  received(): number;
  closedByService(): number;
  bytesSent(): number;
  close(): Promise<void>;
}

const chunk = (delta: Record<string, unknown>) =>
  `data: ${JSON.stringify({ id: 'chatcmpl-fault', object: 'chat.completion.chunk', created: 1_700_000_000, model: 'fault-model', choices: [{ index: 0, delta, finish_reason: null }] })}\n\n`;

export async function startMisbehavingModel(behaviour: ModelBehaviour): Promise<MisbehavingModel> {
  let received = 0;
  let closed = 0;
  let bytes = 0;
  const open = new Set<http.ServerResponse>();
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received += 1;
      open.add(res);
      res.on('close', () => {
        closed += 1;
        open.delete(res);
      });
      if (behaviour === 'hang') return;
      res.writeHead(200, { 'Content-Type': 'text/event-stream' });
      res.write(chunk({ role: 'assistant', content: '' }));
      if (behaviour === 'stall') {
        for (const word of ['Escrow ', 'cushions ', 'are ']) res.write(chunk({ content: word }));
        return; // …and nothing more, ever
      }
      const text = chunk({ content: 'escrow '.repeat(200) });
      const pump = () => {
        while (!res.destroyed) {
          bytes += text.length;
          if (!res.write(text)) {
            res.once('drain', pump);
            return;
          }
        }
      };
      pump();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    received: () => received,
    closedByService: () => closed,
    bytesSent: () => bytes,
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of open) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
