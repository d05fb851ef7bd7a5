// Baseline 1: a raw node:http server answering each request with the body the real server gives
// it, looked up by method and URL. Usage: baseline-http.ts <bodies.json>
import './cpu-probe.js';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

const bodies = JSON.parse(readFileSync(process.argv[2] ?? '', 'utf8')) as Record<string, string>;
const server = createServer((req, res) => {
  const body = bodies[`${req.method} ${req.url}`];
  req.resume();
  req.on('end', () => {
    res.writeHead(body === undefined ? 404 : 200, { 'content-type': 'application/json; charset=utf-8' });
    res.end(body ?? '{}');
  });
});
server.listen(0, '127.0.0.1', () => {
  console.log(JSON.stringify({ port: (server.address() as { port: number }).port }));
});
