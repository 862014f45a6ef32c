// The baselines every figure is compared with, each in a process of its own: a bare Node `http`
// server and a bare Express 5 app, both answering a small JSON hello on any path.
import http from 'node:http';
import express from 'express';

const kind = process.argv[2] ?? 'node';
const body = JSON.stringify({ hello: 'world' });

const server =
  kind === 'express'
    ? http.createServer(
        (() => {
          const app = express();
          app.get('/{*path}', (_req, res) => {
            res.json({ hello: 'world' });
          });
          return app;
        })(),
      )
    : http.createServer((_req, res) => {
        res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
        res.end(body);
      });

server.keepAliveTimeout = 65_000;
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  if (address && typeof address === 'object') process.stdout.write(`listening http://127.0.0.1:${address.port}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
