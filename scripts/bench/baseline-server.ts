// The baselines every figure is compared with, each in a process of its own:
// - `node`, `express`: a bare Node `http` server and a bare Express 5 app answering a small JSON
//   hello on any path;
// - `express-body <file> <content-type>`: a bare Express app answering the bytes of <file> on any
//   path (the same body an API route of the service sends), with Express's defaults (ETag, etc.);
// - `express-static <dir>`: a bare Express app with `express.static(<dir>)` (the same files the
//   service serves), `.html` extensions tried so clean URLs answer without a redirect.
import fs from 'node:fs';
import http from 'node:http';
import express from 'express';

const [kind = 'node', first, second] = process.argv.slice(2);
const hello = JSON.stringify({ hello: 'world' });

function app(): http.RequestListener {
  const app = express();
  if (kind === 'express-body') {
    const body = fs.readFileSync(first!);
    const type = second ?? 'application/json; charset=utf-8';
    app.get('/{*path}', (_req, res) => {
      res.type(type).send(body);
    });
  } else if (kind === 'express-static') {
    app.use(express.static(first!, { extensions: ['html'] }));
  } else {
    app.get('/{*path}', (_req, res) => {
      res.json({ hello: 'world' });
    });
  }
  return app;
}

const server =
  kind === 'node'
    ? http.createServer((_req, res) => {
        res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(hello) });
        res.end(hello);
      })
    : http.createServer(app());

server.keepAliveTimeout = 65_000;
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  if (address && typeof address === 'object') process.stdout.write(`listening http://127.0.0.1:${address.port}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
