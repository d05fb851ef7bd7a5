// Baseline 2: a bare Express 5 app answering each request with the body the real server gives
// it, from a constant table. Usage: baseline-express.ts <bodies.json>
import './cpu-probe.js';
import { readFileSync } from 'node:fs';
import express from 'express';

const bodies = JSON.parse(readFileSync(process.argv[2] ?? '', 'utf8')) as Record<string, string>;
const app = express();
app.disable('x-powered-by');
app.use((req, res) => {
  const body = bodies[`${req.method} ${req.originalUrl}`];
  res
    .status(body === undefined ? 404 : 200)
    .type('application/json')
    .send(body ?? '{}');
});
const server = app.listen(0, '127.0.0.1', () => {
  console.log(JSON.stringify({ port: (server.address() as { port: number }).port }));
});
